import type { FileSystemHost } from '../host';
import { findCatalogModel, findCatalogModelByPath, modelSegments } from './catalog';
import { findCachedModel } from './modelCache';
import { readModelFolder, trainedFrom } from './modelFolder';
import { modelFromNameSize } from './nameSize';
import { baseName, dirName, isAbsolutePath, resolvePath } from '../util/paths';
import type { ModelInfo } from './types';

/**
 * What a model spec names, as the user wrote it (`--model`, `model_name_or_path`, the setting):
 * 1. a local folder or config.json path (absolute, `~/`, or relative to `cwd`) → read it; an adapter
 *    checkpoint (`checkpoint-NNN` of a LoRA run) → the base model it names; a path that cannot be read here
 *    → the catalog model it is named after, if any;
 * 2. a catalog model (hub id, ModelScope id, alias, bare name) → computed counts, no I/O;
 * 3. a Hugging Face / ModelScope cache folder for that id → read it;
 * 4. the size the name states (`…-13B-…`, `30B-A3B`) → an approximate ModelInfo that says so.
 * Never touches the network. Undefined when nothing matches.
 */
export async function resolveModel(spec: string, fs: FileSystemHost, cwd?: string, depth = 0): Promise<ModelInfo | undefined> {
  const trimmed = spec.trim().replace(/^['"]|['"]$/g, '');
  if (!trimmed) return undefined;

  const looksLikePath = isAbsolutePath(trimmed) || /^(~|\.{1,2})([\\/]|$)/.test(trimmed);
  const path = resolvePath(trimmed, cwd, fs.homeDir);
  if (path && (looksLikePath || (await fs.exists(path)))) {
    const folder = /\.json$/i.test(path) ? dirName(path) : path;
    const info = await readModelFolder(fs, folder, trimmed);
    if (info) return { ...info, displayName: folderDisplayName(folder) };
    // A LoRA checkpoint holds adapters only; its base model is what the GPUs hold.
    const base = depth < 2 ? await trainedFrom(fs, folder) : undefined;
    const baseInfo = base ? await resolveModel(base, fs, folder, depth + 1) : undefined;
    if (baseInfo) return baseInfo;
  }
  // A path we cannot read here (scripts often name folders on the training machine): go by its name.
  const hubIdShape = /^[^\\/]+(\/[^\\/]+)?$/.test(trimmed);
  if (looksLikePath || !hubIdShape) {
    const named = findCatalogModelByPath(trimmed);
    if (named) return named;
    const segments = modelSegments(trimmed);
    return segments.length ? modelFromNameSize(segments[segments.length - 1]) : undefined;
  }

  const catalog = findCatalogModel(trimmed);
  if (catalog) return catalog;

  const cached = await findCachedModel(fs, trimmed);
  const fromCache = cached ? await readModelFolder(fs, cached, trimmed) : undefined;
  return fromCache ?? modelFromNameSize(trimmed);
}

/** "Qwen3-8B" for `…/models--Qwen--Qwen3-8B/snapshots/<hash>`, else the folder's own name. */
function folderDisplayName(folder: string): string {
  const cache = /models--[^/\\]+?--([^/\\]+)/.exec(folder);
  return cache ? cache[1] : baseName(folder);
}
