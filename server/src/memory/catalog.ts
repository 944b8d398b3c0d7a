import catalogFile from './catalog.generated.json';
import { decodeShape, type CatalogFile } from './catalogCodec';
import { countParams, type ParamCount } from './paramCount';
import type { ModelArchitecture, ModelInfo } from './types';

/**
 * The built-in model catalog: architecture facts generated from pinned sources by `npm run catalog`
 * (scripts/catalog). Counts are never stored; they are computed here from the architecture.
 */
export interface CatalogEntry {
  id: string;
  displayName: string;
  aliases: string[];
  /** ms-swift model type or LLaMA-Factory template (or the config's model_type): what the name fallback matches. */
  family: string;
  /** Where the facts come from. */
  source: { title: string; url: string; licence: string };
  counts: ParamCount;
  info: ModelInfo;
}

let entries: CatalogEntry[] | undefined;
let byKey: Map<string, CatalogEntry> | undefined;

/** Lower-case, no surrounding spaces or slashes, `models--org--name` cache folder names undone. */
function normalize(id: string): string {
  // ModelScope writes "." in folder names as "___" (Qwen2___5-7B-Instruct).
  let key = id.trim().replace(/\\/g, '/').replace(/^\/+|\/+$/g, '').replace(/___/g, '.').toLowerCase();
  const cacheName = /^models--(.+)$/.exec(key);
  if (cacheName) key = cacheName[1].replace(/--/g, '/');
  return key;
}

function build(): void {
  entries = [];
  byKey = new Map();
  const file = catalogFile as CatalogFile;
  const shapes: ModelArchitecture[] = file.shapes.map(decodeShape);
  const shortNames = new Map<string, CatalogEntry[]>();
  for (const [id, shape, source, family, aliases] of file.models) {
    const architecture = shapes[shape];
    const counts = countParams(architecture);
    const displayName = id.slice(id.lastIndexOf('/') + 1);
    const info: ModelInfo = {
      id,
      displayName,
      totalParams: counts.total,
      largestLayerParams: counts.largestLayer,
      architecture,
      source: { kind: 'catalog', id },
    };
    if (architecture.moe) info.activeParams = counts.active;
    const entry: CatalogEntry = { id, displayName, aliases, family: file.families[family], source: file.sources[source], counts, info };
    entries.push(entry);
    for (const name of [id, ...aliases]) {
      byKey.set(normalize(name), entry);
      // Without the org prefix: "qwen3-8b" finds Qwen/Qwen3-8B.
      const short = normalize(name).split('/').pop()!;
      const seen = shortNames.get(short) ?? [];
      if (!seen.includes(entry)) shortNames.set(short, [...seen, entry]);
    }
  }
  for (const [short, candidates] of shortNames) {
    const entry = bareNameEntry(candidates);
    if (entry && !byKey.has(short)) byKey.set(short, entry);
  }
}

/**
 * The entry a bare name means. Re-uploads under other orgs (`unsloth/Meta-Llama-3.1-8B`) share the shape,
 * so any of them gives the same numbers: the one most ids point at is taken. Names of different shapes
 * stay ambiguous.
 */
function bareNameEntry(candidates: CatalogEntry[]): CatalogEntry | undefined {
  const shape = (e: CatalogEntry) => e.info.architecture;
  if (candidates.some((e) => shape(e) !== shape(candidates[0]))) return undefined;
  return [...candidates].sort((a, b) => b.aliases.length - a.aliases.length)[0];
}

/** Every catalog model, in catalog order (for the sidebar's model search). */
export function catalogEntries(): readonly CatalogEntry[] {
  if (!entries) build();
  return entries!;
}

/**
 * A catalog model by hub id, ModelScope id, alias, or bare name; case-insensitive.
 * The ModelInfo's `id` is the canonical hub id.
 */
export function findCatalogModel(id: string): ModelInfo | undefined {
  return findCatalogEntry(id)?.info;
}

export function findCatalogEntry(id: string): CatalogEntry | undefined {
  if (!byKey) build();
  const key = normalize(id);
  return byKey!.get(key) ?? byKey!.get(key.split('/').pop()!);
}

/**
 * Path segments that name a training run's output rather than a model: `checkpoint-500`, `checkpoint-xxx`,
 * ms-swift's `v3-20250101-120000` / `vx-xxx`, `global_step100`, a cache's `snapshots/<hash>`.
 */
const runSegment = /^(checkpoint-[\w-]*|v\d+-\d{8}-\d{6}|vx-x+|global_step\d+|snapshots|[0-9a-f]{40}|output|outputs|best|last|final)$/i;

/** A path's segments that may name a model, outermost first. */
export function modelSegments(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s && s !== '.' && s !== '..' && s !== '~' && !runSegment.test(s));
}

/**
 * The catalog model a folder path is named after, for paths that cannot be read here (a script's
 * `/data/models/Qwen2.5-7B-Instruct` on the training machine, `output/Qwen2.5-7B/v0-xxx/checkpoint-100`):
 * a `models--org--name` cache segment, else the last model-naming segment as `org/name` with the one before
 * it, else that segment alone.
 */
export function findCatalogModelByPath(path: string): ModelInfo | undefined {
  const segments = modelSegments(path);
  const cache = segments.find((s) => /^models--.+--.+$/.test(s));
  if (cache) return findCatalogModel(cache);
  const names = segments.filter((s) => !/\.json$/i.test(s));
  const name = names[names.length - 1];
  if (!name) return undefined;
  const org = names[names.length - 2];
  return (org && findCatalogEntryExact(`${org}/${name}`)?.info) || findCatalogModel(name);
}

/** Exact id or alias only (no bare-name fallback). */
function findCatalogEntryExact(id: string): CatalogEntry | undefined {
  if (!byKey) build();
  return byKey!.get(normalize(id));
}
