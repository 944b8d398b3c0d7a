/** Memory estimates in ds_config.json: the inlay hint after "stage" and the switch-stage quick fix. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { positionOf, scenarios } from './scenarios';
import { placeFile, placeScenario, readText } from './support/files';
import { uiSuite } from './support/suite';
import type { Problem } from './support/workbench';

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
  suite.test('an unsaved change to the launch script updates the hint of the config it uses', async (wb) => {
    const workspace = wb.instance.workspace;
    placeFile(workspace, 'configs/ds_config_zero2.json', 'ds_config_e2e_unsaved.json');
    // The protocol tests' script (Qwen3-8B on five GPUs), pointed at this test's copy of the config.
    const script = placeFile(workspace, path.resolve(__dirname, '../fixtures/context/train_zero2.sh'), 'train_e2e_unsaved.sh');
    writeFileSync(script, readText(script).replace('ds_config_zero2.json', 'ds_config_e2e_unsaved.json'));
    const onDisk = readText(script);
    // VS Code shortens long hints ("· Qwen3-14B · …"), so only the model is matched.
    const stageHint = (model: string) => (t: string) => t.split('\n').some((line) => line.includes('"stage"') && line.includes(`· ${model} ·`));
    await wb.openFile('ds_config_e2e_unsaved.json');
    await wb.editor.waitForText(stageHint('Qwen3-8B'), 'the hint for the script as saved');

    await wb.openFile('train_e2e_unsaved.sh');
    const at = positionOf(onDisk, '--model Qwen/Qwen3-8B');
    await wb.editor.goTo(at.line, at.column + '--model Qwen/Qwen3-'.length);
    for (let i = 0; i < '8B'.length; i++) await wb.page.keyboard.press('Delete');
    await wb.page.keyboard.type('14B');
    await wb.editor.waitForText((t) => t.includes('Qwen/Qwen3-14B'), 'the edited model');

    await wb.openFile('ds_config_e2e_unsaved.json');
    await wb.editor.waitForText(stageHint('Qwen3-14B'), 'the hint for the unsaved script');
    assert.equal(readText(script), onDisk, 'the script was not saved');

    // Closed with "Don't Save": the config goes back to what the script on disk says.
    await wb.resetEditors();
    await wb.openFile('ds_config_e2e_unsaved.json');
    await wb.editor.waitForText(stageHint('Qwen3-8B'), 'the hint for the script as saved again');
  });
  suite.test('an unsaved change to a config updates the memory warning of the script that launches it', async (wb) => {
    const workspace = wb.instance.workspace;
    const config = placeFile(workspace, 'configs/ds_config_zero2.json', 'ds_config_e2e_dependent.json');
    // The protocol tests' script with a model too large for ZeRO-2 on the workspace's 80 GiB GPUs.
    const script = placeFile(workspace, path.resolve(__dirname, '../fixtures/context/train_zero2.sh'), 'train_e2e_dependent.sh');
    writeFileSync(script, readText(script).replace('ds_config_zero2.json', 'ds_config_e2e_dependent.json').replace('Qwen/Qwen3-8B', 'Qwen/Qwen3-32B'));
    const configOnDisk = readText(config);
    const warningOf = (problems: Problem[]) =>
      problems.find((p) => p.file === 'train_e2e_dependent.sh' && p.code.includes('estimate-exceeds-gpu-memory'))?.message;

    await wb.openFile('train_e2e_dependent.sh');
    const saved = warningOf(await wb.problems((p) => !!warningOf(p), 'train_e2e_dependent'));
    assert.match(saved!, /^Estimated ≈ [\d.]+ GiB per GPU for Qwen3-32B/);

    // The script stays open in its tab; only the config is edited, and not saved.
    await wb.openFile('ds_config_e2e_dependent.json');
    const at = positionOf(configOnDisk, '"stage": 2');
    await wb.editor.goTo(at.line, at.column + '"stage": '.length);
    // Typed over a selection: one undo step.
    await wb.page.keyboard.press('Shift+ArrowRight');
    await wb.page.keyboard.type('3');
    await wb.editor.waitForText((t) => t.includes('"stage": 3'), 'the edited stage');
    const unsaved = warningOf(await wb.problems((p) => warningOf(p) !== saved, 'train_e2e_dependent'));
    assert.notEqual(unsaved, saved);
    assert.equal(readText(config), configOnDisk, 'the config was not saved');

    // Undone, the script's warning is the one for the config on disk again. (The Problems panel has the focus.)
    await wb.openFile('ds_config_e2e_dependent.json');
    await wb.page.keyboard.press('Control+Z');
    await wb.editor.waitForText((t) => t.includes('"stage": 2'), 'the stage as saved');
    assert.equal(warningOf(await wb.problems((p) => warningOf(p) === saved, 'train_e2e_dependent')), saved);
  });
});
