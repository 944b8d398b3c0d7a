/** Memory estimates in ds_config.json: the inlay hint after "stage" and the switch-stage quick fix. */
import assert from 'node:assert/strict';
import { positionOf, scenarios } from './scenarios';
import { placeScenario, readText } from './support/files';
import { uiSuite } from './support/suite';

uiSuite('inline estimates', (suite) => {
  suite.test('the inlay hint after "stage" shows the per-GPU estimate', async (wb) => {
    const s = scenarios.inlayHint;
    const { file } = placeScenario(wb.instance.workspace, s);
    await wb.openFile(s.name);
    const text = await wb.editor.waitForText((t) => t.split('\n').some((line) => s.line.test(line)), 'a GiB/GPU hint on the stage line');
    const line = text.split('\n').find((l) => s.line.test(l))!;
    assert.match(line, s.hint);
    // The hint is decoration, not text: the file on disk is unchanged.
    assert.ok(!readText(file).includes('GiB'));
  });

  suite.test('the switch-stage quick fix edits the file', async (wb) => {
    const s = scenarios.switchStage;
    const { file, text } = placeScenario(wb.instance.workspace, s);
    await wb.openFile(s.name);
    const at = positionOf(text, s.token);
    await wb.editor.goTo(at.line, at.column + s.token.length - 1);
    const chosen = await wb.editor.applyQuickFix(s.fix);
    assert.match(chosen, /GiB/, 'the fix title carries the estimate');
    await wb.editor.waitForText((t) => s.expectAfter.test(t), 'stage 3');
    await wb.editor.save();
    assert.match(readText(file), s.expectAfter);
  });

  suite.test('"ZeRO Lens: Switch ZeRO stage…" lists every option with its estimate and switches the file', async (wb) => {
    const s = scenarios.switchCommand;
    const { file } = placeScenario(wb.instance.workspace, s);
    await wb.openFile(s.name);
    await wb.runCommand(s.command, { opensInput: true });
    const rows = wb.page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: /GiB\/GPU/ }).first().waitFor({ state: 'visible' });
    const shown = (await rows.allInnerTexts()).join('\n');
    for (const option of s.options) assert.match(shown, new RegExp(`${option.replace(/[()+]/g, '\\$&')}\\s*≈ [\\d.]+ GiB/GPU`), `${option} with its estimate`);
    await rows.filter({ has: wb.page.locator('.label-name', { hasText: new RegExp(`^\\s*${s.choose}$`) }) }).first().click();
    await wb.editor.waitForText((t) => s.expectAfter.test(t), 'stage 3');
    await wb.editor.save();
    assert.match(readText(file), s.expectAfter);
  });
});
