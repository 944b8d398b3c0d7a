/**
 * Restricted mode: package.json declares `untrustedWorkspaces: "limited"`, so ZeRO Lens runs in an
 * untrusted folder and still checks the open file.
 */
import assert from 'node:assert/strict';
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
  },
  () => e2eEnv.untrusted,
);
