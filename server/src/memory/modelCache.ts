import { textOf, type FileSystemHost } from '../host';
import { joinPath } from '../util/paths';

/**
 * Where a hub id already sits on disk, in the Hugging Face or ModelScope cache. Only local folders are
 * looked at; nothing is downloaded.
 * - Hugging Face: `$HF_HUB_CACHE`, `$HF_HOME/hub`, `~/.cache/huggingface/hub`, each holding
 *   `models--org--name/snapshots/<revision>/` (the revision `refs/main` names, else any snapshot).
 * - ModelScope: `$MODELSCOPE_CACHE` and `~/.cache/modelscope/hub`, holding `models/org/name` (current) or
 *   `org/name` (older); ModelScope writes dots in names as `___`.
 */
export function huggingFaceCacheRoots(fs: FileSystemHost): string[] {
  const env = fs.env ?? {};
  const roots: string[] = [];
  if (env.HF_HUB_CACHE) roots.push(env.HF_HUB_CACHE);
  if (env.HUGGINGFACE_HUB_CACHE) roots.push(env.HUGGINGFACE_HUB_CACHE);
  if (env.HF_HOME) roots.push(joinPath(env.HF_HOME, 'hub'));
  if (fs.homeDir) roots.push(joinPath(fs.homeDir, '.cache', 'huggingface', 'hub'));
  return [...new Set(roots)];
}

export function modelScopeCacheRoots(fs: FileSystemHost): string[] {
  const env = fs.env ?? {};
  const roots: string[] = [];
  if (env.MODELSCOPE_CACHE) roots.push(env.MODELSCOPE_CACHE, joinPath(env.MODELSCOPE_CACHE, 'hub'));
  if (fs.homeDir) roots.push(joinPath(fs.homeDir, '.cache', 'modelscope', 'hub'));
  return [...new Set(roots)];
}

/**
 * The `models--org--name` folder of a Hugging Face cache that `path` (its `refs/…` or `snapshots/…`) lies in, the one
 * to watch: a download writes `refs/main` first and links each file into the snapshot once it is complete
 * (huggingface_hub @ee0a4510 src/huggingface_hub/_snapshot_download.py:414-420; file_download.py:1205, 1241-1255),
 * and a new revision is a new snapshot that `refs/main` then names.
 */
export function huggingFaceRepoOf(path: string): string | undefined {
  return /^(.*[\\/]models--[^\\/]+--[^\\/]+)[\\/](?:refs|snapshots)[\\/]/.exec(path)?.[1];
}

/** `org/name` split, or undefined for anything that is not a two-part hub id. */
function splitId(id: string): [string, string] | undefined {
  const m = /^([A-Za-z0-9][\w.-]*)\/([\w.-]+)$/.exec(id.trim());
  return m ? [m[1], m[2]] : undefined;
}

/** The entry of `dir` equal to `name` ignoring case (hub ids are case-insensitive, folders may not be). */
async function findEntry(fs: FileSystemHost, dir: string, name: string): Promise<string | undefined> {
  const exact = joinPath(dir, name);
  if (await fs.exists(exact)) return exact;
  const entries = await fs.listDir(dir);
  const hit = entries?.find((e) => e.toLowerCase() === name.toLowerCase());
  return hit ? joinPath(dir, hit) : undefined;
}

export async function findInHuggingFaceCache(fs: FileSystemHost, id: string): Promise<string | undefined> {
  const parts = splitId(id);
  if (!parts) return undefined;
  const folderName = `models--${parts[0]}--${parts[1]}`;
  for (const root of huggingFaceCacheRoots(fs)) {
    const repo = await findEntry(fs, root, folderName);
    if (!repo) continue;
    const snapshots = joinPath(repo, 'snapshots');
    const main = textOf(await fs.readFile(joinPath(repo, 'refs', 'main'), 'cache-ref'))?.trim();
    if (main && (await fs.exists(joinPath(snapshots, main, 'config.json')))) return joinPath(snapshots, main);
    for (const revision of (await fs.listDir(snapshots)) ?? []) {
      if (await fs.exists(joinPath(snapshots, revision, 'config.json'))) return joinPath(snapshots, revision);
    }
  }
  return undefined;
}

export async function findInModelScopeCache(fs: FileSystemHost, id: string): Promise<string | undefined> {
  const parts = splitId(id);
  if (!parts) return undefined;
  const [org, name] = parts;
  const names = [...new Set([name, name.replace(/\./g, '___')])];
  for (const root of modelScopeCacheRoots(fs)) {
    for (const base of [joinPath(root, 'models'), root]) {
      const orgDir = await findEntry(fs, base, org);
      if (!orgDir) continue;
      for (const n of names) {
        const folder = await findEntry(fs, orgDir, n);
        if (folder && (await fs.exists(joinPath(folder, 'config.json')))) return folder;
      }
    }
  }
  return undefined;
}

/** The cached folder of a hub or ModelScope id, Hugging Face first. */
export async function findCachedModel(fs: FileSystemHost, id: string): Promise<string | undefined> {
  return (await findInHuggingFaceCache(fs, id)) ?? (await findInModelScopeCache(fs, id));
}
