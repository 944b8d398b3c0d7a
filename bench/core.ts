/**
 * In-process timings of the pure core, without any transport: shell-script analysis of a 300-line script
 * and validation of the typical config. The memory estimate is timed here too.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService } from '../server/src/languageService';
import { defaultSettings } from '../server/src/settings';
import type { FileSystemHost } from '../server/src/host';
import { launchScript300, typicalConfig } from './documents';
import { summarize, type Summary } from './stats';

export type CoreTimings = Record<string, Summary>;

/** No disk: the bench measures computation, not the file system. */
const memoryFs: FileSystemHost = {
  readFile: async () => undefined,
  readBytes: async () => undefined,
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

export async function measureCore(): Promise<CoreTimings> {
  const service = getLanguageService({ fs: memoryFs });
  const script = launchScript300();
  const config = typicalConfig();
  let version = 0;
  // A new version every run, so the per-version caches cannot answer for free.
  const scriptRun = () => service.doValidation(TextDocument.create('file:///bench/train.sh', 'shellscript', ++version, script), defaultSettings);
  const configRun = () => service.doValidation(TextDocument.create('file:///bench/ds_config.json', 'ds-config', ++version, config), defaultSettings);
  await scriptRun();
  await configRun();
  return {
    'shell-script analysis (300 lines, validation)': await timeAsync(scriptRun, 200),
    'ds_config validation (typical config)': await timeAsync(configRun, 200),
  };
}
