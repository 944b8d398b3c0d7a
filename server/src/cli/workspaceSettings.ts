import { parse } from 'jsonc-parser';
import { textOf, type FileSystemHost } from '../host';
import { ignoredSettings, withDefaults, type IgnoredSetting, type ZeroLensSettings } from '../settings';
import { joinPath } from '../util/paths';

/**
 * The zeroLens.* settings of a workspace folder, as VS Code reads them from `.vscode/settings.json` (JSON with
 * comments, flat dotted keys), so `zero-lens estimate FILE` sees the same context as the editor. Defaults where
 * the file or a key is missing; the settings reader drops values of the wrong type, and `ignored` hears of each (the
 * editor shows the same message).
 */
export async function readWorkspaceSettings(fs: FileSystemHost, folder: string, ignored?: (setting: IgnoredSetting) => void): Promise<ZeroLensSettings> {
  const text = textOf(await fs.readFile(joinPath(folder, '.vscode', 'settings.json'), 'settings'));
  const all = text === undefined ? undefined : (parse(text, [], { allowTrailingComma: true }) as unknown);
  if (!all || typeof all !== 'object' || Array.isArray(all)) return withDefaults({});
  const ours: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(all as Record<string, unknown>)) {
    if (!key.startsWith('zeroLens.')) continue;
    // "zeroLens.inlayHints.enabled" → { inlayHints: { enabled } }
    const path = key.slice('zeroLens.'.length).split('.');
    let target = ours;
    for (const part of path.slice(0, -1)) target = (target[part] ??= {}) as Record<string, unknown>;
    target[path[path.length - 1]] = value;
  }
  if (ignored) ignoredSettings(ours).forEach(ignored);
  return withDefaults(ours);
}
