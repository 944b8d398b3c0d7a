/**
 * Restricted mode: package.json declares `untrustedWorkspaces: "limited"`, so ZeRO Lens runs in an
 * untrusted folder and still checks the open file; it reads no model folder, no cache and nothing outside
 * the workspace (every path the server touches is logged to ZL_E2E_UNTRUSTED_TRACE by scripts/e2e.mjs).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { scenarios } from './scenarios';
import { placeScenario } from './support/files';
import { e2eEnv } from './support/env';
import { uiSuite } from './support/suite';

uiSuite(
  'untrusted workspace',
  (suite) => {
    suite.test('in restricted mode, a ds_config still gets its diagnostics', async (wb) => {
      const s = scenarios.untrusted;
      // VS Code asks whether to trust the folder; a cautious user says no.
      const no = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: /No, I don.t trust/i });
      await no.waitFor({ state: 'visible', timeout: 30_000 });
      await no.click();
      await wb.page.locator('.part.statusbar', { hasText: 'Restricted Mode' }).waitFor({ state: 'visible' });
      placeScenario(wb.instance.workspace, s);
      await wb.openFile(s.name);
      await wb.waitForLanguageMode(scenarios.activation.languageName);
      const problems = await wb.problems((p) => s.codes.every((code) => p.some((x) => x.code === code && x.source === 'zero-lens')), s.name);
      assert.ok(problems.length >= s.codes.length);
    });

    suite.test('in restricted mode, a model folder outside the workspace is never read, and the hover says why it has no size', async (wb) => {
      const workspace = wb.instance.workspace;
      // A real model folder beside the workspace, named by a script inside it.
      const outside = path.join(path.dirname(workspace), 'outside-model');
      mkdirSync(outside, { recursive: true });
      writeFileSync(path.join(outside, 'config.json'), JSON.stringify({ model_type: 'llama', hidden_size: 4096, intermediate_size: 11008, num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 32000 }));
      mkdirSync(path.join(workspace, 'e2e'), { recursive: true });
      writeFileSync(path.join(workspace, 'e2e', 'ds_config_e2e_outside.json'), '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n');
      writeFileSync(path.join(workspace, 'e2e', 'train_e2e_outside.sh'), `deepspeed --num_gpus 8 train.py --deepspeed ds_config_e2e_outside.json --model_name_or_path ${outside}\n`);
      await wb.openFile('ds_config_e2e_outside.json');
      const hover = await wb.editor.hover('"stage"', (h) => /not trusted|ZeRO options for/.test(h));
      assert.match(hover, /this workspace is not trusted, and in restricted mode ZeRO Lens reads no model folder or cache/);
      assert.doesNotMatch(hover, /ZeRO options for outside-model/);
      const trace = process.env.ZL_E2E_UNTRUSTED_TRACE;
      assert.ok(trace && existsSync(trace), 'the server logged the paths it touched');
      const touched = [...readFileSync(trace, 'utf8').matchAll(/^zero-lens fs: (.*)$/gm)].map((m) => m[1]);
      assert.ok(touched.length > 0);
      assert.deepEqual(touched.filter((p) => p !== workspace && !p.startsWith(workspace + path.sep)), [], 'nothing outside the workspace was touched');
    });
  },
  () => e2eEnv.untrusted,
);
