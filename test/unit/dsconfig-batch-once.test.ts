import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { getLanguageService } from '../../server/src/languageService';
import { defaultSettings } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

// A batch no GPU count multiplies out to is one error, said once, in the reader's language: the config's own rule
// says it; the check against the context's GPU count (the memory contributor's) stays quiet.
test('train_batch_size 30 with micro 4 x accumulation 4 on 4 GPUs: one batch-size-mismatch, in Chinese under zh-cn', async () => {
  const text = '{\n  "train_batch_size": 30,\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 4,\n  "zero_optimization": { "stage": 2 }\n}\n';
  const file = path.join(workspaceRoot, 'ds_config.json');
  const ls = getLanguageService(memoryHosts({ 'ds_config.json': text }));
  const document = TextDocument.create(URI.file(file).toString(), 'ds-config', 1, text);
  for (const locale of ['en', 'zh-cn'] as const) {
    const diagnostics = await ls.doValidation(document, { ...defaultSettings, gpusPerNode: 4, locale });
    const batch = diagnostics.filter((d) => d.code === 'batch-size-mismatch');
    assert.equal(batch.length, 1, batch.map((d) => String(d.message)).join('\n'));
    if (locale === 'zh-cn') assert.match(String(batch[0].message), /必须等于/);
  }
});
