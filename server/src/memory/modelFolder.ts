import { textOf, type FileSystemHost } from '../host';
import { architectureFromConfig } from './configJson';
import { countParams } from './paramCount';
import { baseName, joinPath } from '../util/paths';
import { dtypeBytes, largestModule, readSafetensorsHeader, type SafetensorsSummary } from './safetensors';
import type { ModelInfo } from './types';

/**
 * A local model folder → ModelInfo, most exact source first:
 * 1. safetensors headers (single file, or every shard named in model.safetensors.index.json);
 * 2. the index's metadata.total_size ÷ bytes per element of the checkpoint dtype;
 * 3. config.json arithmetic.
 * config.json, when present, also supplies the architecture (for activations and LoRA).
 */
export async function readModelFolder(fs: FileSystemHost, folder: string, id?: string): Promise<ModelInfo | undefined> {
  const info = await readCounts(fs, folder, id);
  // Counts no model has (a crafted header or config.json: infinite, past 2^53, over a quadrillion) size nothing.
  const sane = (n: number) => Number.isSafeInteger(n) && n >= 0 && n <= maxParams;
  return info && sane(info.totalParams) && info.totalParams > 0 && sane(info.largestLayerParams) ? info : undefined;
}

/** More parameters than any model has (the largest are a few trillion). */
const maxParams = 1e15;

async function readCounts(fs: FileSystemHost, folder: string, id?: string): Promise<ModelInfo | undefined> {
  const configText = textOf(await fs.readFile(joinPath(folder, 'config.json'), 'model-config'));
  const parsed = configText === undefined ? undefined : architectureFromConfig(safeJson(configText));
  const architecture = parsed?.architecture;
  const counted = architecture ? countParams(architecture) : undefined;
  const name = id ?? folder;
  const displayName = baseName(id ?? folder);

  const fromHeaders = await readShardHeaders(fs, folder);
  if (fromHeaders) {
    return {
      id: name,
      displayName,
      totalParams: fromHeaders.summary.params,
      largestLayerParams: largestModule(fromHeaders.summary) || counted?.largestLayer || 0,
      architecture,
      source: { kind: 'model-folder', path: folder, how: 'safetensors' },
    };
  }

  const index = safeJson(textOf(await fs.readFile(joinPath(folder, 'model.safetensors.index.json'), 'model-index'))) as { metadata?: { total_size?: unknown } } | undefined;
  const totalSize = index?.metadata?.total_size;
  if (typeof totalSize === 'number' && totalSize > 0) {
    const bytes = dtypeBytes[parsed?.dtype ?? 'bfloat16'] ?? 2;
    return {
      id: name,
      displayName,
      totalParams: Math.round(totalSize / bytes),
      largestLayerParams: counted?.largestLayer ?? 0,
      architecture,
      source: { kind: 'model-folder', path: folder, how: 'index' },
    };
  }

  if (architecture && counted) {
    return {
      id: name,
      displayName,
      totalParams: counted.total,
      largestLayerParams: counted.largestLayer,
      architecture,
      source: { kind: 'model-folder', path: folder, how: 'config.json' },
    };
  }
  return undefined;
}

/**
 * The model a training output folder was trained from, when the folder holds no weights of its own: a LoRA
 * checkpoint's adapter_config.json (`base_model_name_or_path`), or ms-swift's args.json (`model`).
 */
export async function trainedFrom(fs: FileSystemHost, folder: string): Promise<string | undefined> {
  const adapter = safeJson(textOf(await fs.readFile(joinPath(folder, 'adapter_config.json'), 'model-config'))) as { base_model_name_or_path?: unknown } | undefined;
  if (typeof adapter?.base_model_name_or_path === 'string' && adapter.base_model_name_or_path) return adapter.base_model_name_or_path;
  const args = safeJson(textOf(await fs.readFile(joinPath(folder, 'args.json'), 'model-config'))) as { model?: unknown; model_id_or_path?: unknown } | undefined;
  const model = args?.model ?? args?.model_id_or_path;
  return typeof model === 'string' && model ? model : undefined;
}

/** Sums the headers of model.safetensors or of all shards the index names; undefined if any is unreadable. */
async function readShardHeaders(fs: FileSystemHost, folder: string): Promise<{ summary: SafetensorsSummary } | undefined> {
  const indexText = textOf(await fs.readFile(joinPath(folder, 'model.safetensors.index.json'), 'model-index'));
  let files: string[] | undefined;
  if (indexText !== undefined) {
    const map = (safeJson(indexText) as { weight_map?: unknown } | undefined)?.weight_map;
    if (map && typeof map === 'object') files = [...new Set(Object.values(map as Record<string, unknown>).filter((f): f is string => typeof f === 'string'))];
  }
  if (!files) {
    const entries = (await fs.listDir(folder)) ?? [];
    // Prefer the transformers names; Mistral folders also ship consolidated.safetensors (same weights).
    const shards = entries.filter((e) => /^model-\d+-of-\d+\.safetensors$/.test(e)).sort();
    files = entries.includes('model.safetensors')
      ? ['model.safetensors']
      : shards.length > 0
        ? shards
        : entries.filter((e) => e.endsWith('.safetensors') && !e.startsWith('adapter_') && !e.startsWith('consolidated')).sort();
  }
  if (files.length === 0) return undefined;
  const summary: SafetensorsSummary = { params: 0, modules: new Map(), dtypes: new Map() };
  for (const file of files) {
    if (!(await readSafetensorsHeader(fs, joinPath(folder, file), summary))) return undefined;
  }
  return { summary };
}

function safeJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
