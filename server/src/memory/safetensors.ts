import type { FileSystemHost } from '../host';

/**
 * Exact parameter counts from safetensors headers, without reading any weights: a file starts with an
 * 8-byte little-endian header length, then that many bytes of JSON mapping tensor names to
 * { dtype, shape, data_offsets } (plus an optional "__metadata__" entry).
 */
export interface SafetensorsSummary {
  params: number;
  /** Params per module (tensor name without its last segment): DeepSpeed's "layer" for largest-layer. */
  modules: Map<string, number>;
  /** Params per dtype ("BF16", "F32", ...). */
  dtypes: Map<string, number>;
}


export function parseSafetensorsHeader(json: string, into?: SafetensorsSummary): SafetensorsSummary | undefined {
  let header: unknown;
  try {
    header = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return undefined;
  const summary = into ?? { params: 0, modules: new Map(), dtypes: new Map() };
  for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') continue;
    const tensor = entry as { dtype?: unknown; shape?: unknown };
    if (!tensor || !Array.isArray(tensor.shape)) return undefined;
    let count = 1;
    for (const dim of tensor.shape) {
      if (typeof dim !== 'number' || !Number.isInteger(dim) || dim < 0) return undefined;
      count *= dim;
      // A shape no checkpoint has (the count past 2^53, or infinite) is not a header to size a model from.
      if (!Number.isSafeInteger(count)) return undefined;
    }
    summary.params += count;
    if (!Number.isSafeInteger(summary.params)) return undefined;
    const module = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name;
    summary.modules.set(module, (summary.modules.get(module) ?? 0) + count);
    const dtype = typeof tensor.dtype === 'string' ? tensor.dtype : 'unknown';
    summary.dtypes.set(dtype, (summary.dtypes.get(dtype) ?? 0) + count);
  }
  return summary;
}

/** Reads and parses one file's header through the host; undefined when it is missing or not safetensors. */
export async function readSafetensorsHeader(fs: FileSystemHost, file: string, into?: SafetensorsSummary): Promise<SafetensorsSummary | undefined> {
  const prefix = await fs.readBytes(file, 0, 8, 'safetensors-header');
  if (!('bytes' in prefix) || prefix.bytes.length < 8) return undefined;
  const view = new DataView(prefix.bytes.buffer, prefix.bytes.byteOffset, 8);
  const length = Number(view.getBigUint64(0, true));
  if (length < 2) return undefined;
  // The host refuses a header over its cap (and says so); the format allows 100 MB, real ones are far smaller.
  const header = await fs.readBytes(file, 8, length, 'safetensors-header');
  if (!('bytes' in header) || header.bytes.length < length) return undefined;
  return parseSafetensorsHeader(new TextDecoder().decode(header.bytes), into);
}

export function largestModule(summary: SafetensorsSummary): number {
  let max = 0;
  for (const n of summary.modules.values()) if (n > max) max = n;
  return max;
}

/** Bytes per element of safetensors dtype names, for index `total_size` fallbacks. */
export const dtypeBytes: Record<string, number> = {
  F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, F8_E4M3: 1, F8_E5M2: 1, BOOL: 1,
  float32: 4, float16: 2, bfloat16: 2, float64: 8, int8: 1, float8_e4m3fn: 1,
};
