import type { FileSystemHost } from '../host';
import { findCatalogModel, findCatalogModelByPath } from './catalog';
import { findCachedModel } from './modelCache';
import { readModelFolder } from './modelFolder';
import { baseName, dirName, isAbsolutePath, resolvePath } from '../util/paths';
import type { ModelInfo } from './types';

/**
 * What a model spec names, as the user wrote it (`--model`, `model_name_or_path`, the setting):
 * 1. a local folder or config.json path (absolute, `~/`, or relative to `cwd`) → read it; a path that
 *    cannot be read here → the catalog model it is named after, if any;
 * 2. a catalog model (hub id, ModelScope id, alias, bare name) → computed counts, no I/O;
 * 3. a Hugging Face / ModelScope cache folder for that id → read it.
 * Never touches the network. Undefined when nothing matches.
 */
export async function resolveModel(spec: string, fs: FileSystemHost, cwd?: string): Promise<ModelInfo | undefined> {
  const trimmed = spec.trim().replace(/^['"]|['"]$/g, '');
  if (!trimmed) return undefined;

  const looksLikePath = isAbsolutePath(trimmed) || /^(~|\.{1,2})([\\/]|$)/.test(trimmed);
  const path = resolvePath(trimmed, cwd, fs.homeDir);
  if (path && (looksLikePath || (await fs.exists(path)))) {
    const folder = /\.json$/i.test(path) ? dirName(path) : path;
    const info = await readModelFolder(fs, folder, trimmed);
    if (info) return { ...info, displayName: folderDisplayName(folder) };
  }
  // A path we cannot read here (scripts often name folders on the training machine): go by its name.
  if (looksLikePath) return findCatalogModelByPath(trimmed);

  const catalog = findCatalogModel(trimmed);
  if (catalog) return catalog;

  const cached = await findCachedModel(fs, trimmed);
  return cached ? readModelFolder(fs, cached, trimmed) : undefined;
}

/** "Qwen3-8B" for `…/models--Qwen--Qwen3-8B/snapshots/<hash>`, else the folder's own name. */
function folderDisplayName(folder: string): string {
  const cache = /models--[^/\\]+?--([^/\\]+)/.exec(folder);
  return cache ? cache[1] : baseName(folder);
}
