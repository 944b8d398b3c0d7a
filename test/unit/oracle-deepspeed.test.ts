/**
 * DeepSpeed's own unit tests as an oracle (test/data/deepspeed-oracle/cases.json, extracted by
 * scripts/deepspeed-oracle/extract.py from DeepSpeed at the commit the schema reflects). Every config a passing
 * test hands to DeepSpeed gets no error; every config-decided rejection gets one. Cases that the config alone
 * cannot decide carry their reason in the data and are only counted here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

interface Case {
  id: string;
  worldSize: number | null;
  expected: 'ACCEPT' | 'REJECT' | 'UNKNOWN';
  configDecided: boolean;
  reason: string | null;
  deepspeedSource?: string;
  config: unknown;
  configText?: string;
}

const data = JSON.parse(readFileSync(path.resolve(__dirname, '../data/deepspeed-oracle/cases.json'), 'utf8')) as { source: { commit: string }; cases: Case[] };

/** The file a case stands for: Python's json module (DeepSpeed's and the HF Trainer's reader) reads bare Infinity and NaN. */
function configText(kase: Case): string {
  if (kase.configText !== undefined) return kase.configText;
  return JSON.stringify(kase.config, null, 2).replace(/"__Infinity__"/g, 'Infinity').replace(/"__-Infinity__"/g, '-Infinity').replace(/"__NaN__"/g, 'NaN') + '\n';
}

/** The launch a world size stands for: the GPU count the editor learns from a script beside the config. */
function launchScript(worldSize: number): string {
  const nodes = worldSize > 8 && worldSize % 8 === 0 ? worldSize / 8 : 1;
  return `deepspeed --num_nodes ${nodes} --num_gpus ${worldSize / nodes} train.py --deepspeed --deepspeed_config ds_config.json\n`;
}

async function errorsOf(kase: Case): Promise<string[]> {
  const files: Record<string, string> = { 'ds_config.json': configText(kase) };
  if (kase.worldSize !== null) files['train.sh'] = launchScript(kase.worldSize);
  const hosts = memoryHosts(files);
  const service = getLanguageService(hosts);
  const document = TextDocument.create(URI.file(path.join(workspaceRoot, 'ds_config.json')).toString(), 'ds-config', 1, files['ds_config.json']);
  const diagnostics = await service.doValidation(document, defaultSettings);
  return diagnostics.filter((d) => d.severity === 1).map((d) => `${String(d.code)}: ${d.message}`);
}

const decided = data.cases.filter((c) => c.configDecided && (c.expected === 'ACCEPT' || c.expected === 'REJECT'));

test(`DeepSpeed's unit tests at ${data.source.commit.slice(0, 8)}: every accepted config gets no error, every config-decided rejection gets one`, async () => {
  assert.ok(decided.length > 1700, `expected the extracted cases, found ${decided.length}`);
  const falseErrors: string[] = [];
  const misses: string[] = [];
  for (const kase of decided) {
    const errors = await errorsOf(kase);
    if (kase.expected === 'ACCEPT' && errors.length > 0) falseErrors.push(`${kase.id}: ${errors.join(' | ')}`);
    if (kase.expected === 'REJECT' && errors.length === 0) misses.push(`${kase.id} (DeepSpeed: ${kase.deepspeedSource ?? kase.reason ?? '?'})`);
  }
  assert.deepEqual(falseErrors, [], 'accepted configs with an error');
  assert.deepEqual(misses, [], 'config-decided rejections without an error');
});

test('the cases a config cannot decide say why', () => {
  const undecided = data.cases.filter((c) => !c.configDecided);
  assert.ok(undecided.length > 0);
  for (const kase of undecided) assert.ok(kase.reason && kase.reason.length > 0, `${kase.id} has no reason`);
});
