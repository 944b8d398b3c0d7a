/**
 * In-process timings of the pure core, without any transport: the memory estimate for a catalog model (one
 * setup, and all stage/offload options as the sidebar shows them), shell-script analysis of a 300-line
 * script, and validation of the typical config.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService } from '../server/src/languageService';
import { defaultSettings } from '../server/src/settings';
import { defaultEstimateInput, estimate, estimateAllOptions, findCatalogModel, GiB } from '../server/src/memory';
import { missing, type FileSystemHost } from '../server/src/host';
import { launchScript300, typicalConfig } from './documents';
import { summarize, timeCalls, type Summary } from './stats';

export type CoreTimings = Record<string, Summary>;

/** No disk: the bench measures computation, not the file system. */
const memoryFs: FileSystemHost = {
  readFile: async () => missing,
  readBytes: async () => missing,
  exists: async () => false,
  listDir: async () => undefined,
};

async function timeAsync(fn: () => Promise<unknown>, runs: number): Promise<Summary> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return summarize(samples);
}

/** The sidebar's usual question: an 8B model on 8 × 80 GiB GPUs, ZeRO-3 with CPU optimizer offload. */
function memoryInput() {
  const model = findCatalogModel('Qwen/Qwen3-8B');
  if (!model) throw new Error('Qwen/Qwen3-8B is missing from the model catalog');
  return { ...defaultEstimateInput(model), stage: 3 as const, offloadOptimizer: 'cpu' as const, gpusPerNode: 8, gpuMemoryBytes: 80 * GiB };
}

export async function measureCore(): Promise<CoreTimings> {
  const service = getLanguageService({ fs: memoryFs });
  const script = launchScript300();
  const config = typicalConfig();
  let version = 0;
  // A new version every run, so the per-version caches cannot answer for free.
  const scriptRun = () => service.doValidation(TextDocument.create('file:///bench/train.sh', 'shellscript', ++version, script), defaultSettings);
  const configRun = () => service.doValidation(TextDocument.create('file:///bench/ds_config.json', 'ds-config', ++version, config), defaultSettings);
  const input = memoryInput();
  // Warm-up: the first calls compile code and fill schema caches, which a running server has long done.
  for (let i = 0; i < 20; i++) {
    await scriptRun();
    await configRun();
    estimateAllOptions(input);
  }
  return {
    'memory estimate (Qwen3-8B, one setup)': timeCalls(() => estimate(input), 2000, 300),
    'memory estimate (Qwen3-8B, all stage/offload options)': timeCalls(() => estimateAllOptions(input), 500, 300),
    'shell-script analysis (300 lines, validation)': await timeAsync(scriptRun, 200),
    'ds_config validation (typical config)': await timeAsync(configRun, 200),
  };
}
