/** Launch scripts (an ms-swift script: hover on `--deepspeed zero3`, preset completion, fixes) and an FSDP config file. */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { positionOf, scenarios } from './scenarios';
import { placeFile, placeScenario } from './support/files';
import { uiSuite } from './support/suite';
import { applyScenarioFix } from './support/quickFix';
import { screenshot } from './support/screenshots';

uiSuite('launch scripts', (suite) => {
  suite.test('hovering --deepspeed zero3 in a swift script shows the estimate', async (wb) => {
    const s = scenarios.swiftScript;
    placeScenario(wb.instance.workspace, s);
    await wb.openFile(s.name);
    await wb.waitForLanguageMode(s.languageName);
    const hover = await wb.editor.hover(s.token, (text) => s.hoverExpect.every((pattern) => pattern.test(text)), `--deepspeed ${s.token}`);
    assert.match(hover, /GiB/);
    // The preset's 45 lines of JSON stay folded, so the estimate is not pushed out of the hover.
    const presetJson = wb.editor.hoverLocator().locator('details');
    assert.equal(await presetJson.count(), 1, 'the preset JSON is in a <details> element');
    assert.equal(await presetJson.locator('summary').isVisible(), true, 'its summary line shows');
    assert.equal(await presetJson.locator('pre').first().isVisible(), false, 'the JSON itself is folded');
    const hoverBox = await wb.editor.hoverLocator().boundingBox();
    const estimate = await wb.editor.hoverLocator().getByText('ZeRO options for').first().boundingBox();
    assert.ok(hoverBox && estimate && estimate.y + estimate.height <= hoverBox.y + hoverBox.height, 'the estimate table starts inside the hover, without scrolling');
  });

  suite.test('completion after --deepspeed offers the presets', async (wb) => {
    const s = scenarios.swiftScript;
    const { text } = placeScenario(wb.instance.workspace, { ...s, name: 'train_e2e_swift_completion.sh' });
    await wb.openFile('train_e2e_swift_completion.sh');
    const at = positionOf(text, `--deepspeed ${s.token}`);
    const valueColumn = at.column + '--deepspeed '.length;
    await wb.editor.goTo(at.line, valueColumn);
    // Remove the value, as someone choosing another preset would.
    for (let i = 0; i < s.token.length; i++) await wb.page.keyboard.press('Delete');
    const deepspeedLine = (t: string) => t.split('\n').find((line) => line.includes('--deepspeed')) ?? '';
    await wb.editor.waitForText((t) => !deepspeedLine(t).includes(s.token), 'the emptied value');
    const labels = await wb.editor.complete((l) => ['zero2', 'zero3', 'zero3_offload'].every((p) => l.includes(p)));
    for (const preset of ['zero2', 'zero3', 'zero3_offload']) assert.ok(labels.includes(preset), `${preset} offered`);
  });

  suite.test('an ms-swift 2.x preset name gets a diagnostic and a did-you-mean fix', async (wb) => {
    const s = scenarios.presetFix;
    const { saved } = await applyScenarioFix(wb, s, s.token, (t) => s.expectAfter.test(t), 'the corrected preset');
    assert.match(saved, s.expectAfter);
  });

  suite.test('an FSDP config file: a misspelt key gets its rename fix, and a key its documentation on hover', async (wb) => {
    const s = scenarios.fsdpConfigFile;
    const { saved } = await applyScenarioFix(wb, s, s.token, (t) => s.expectAfter.test(t), 'the key renamed');
    assert.match(saved, s.expectAfter);
    const hover = await wb.editor.hover(s.hoverToken, (text) => s.hoverExpect.every((pattern) => pattern.test(text)), s.hoverToken);
    assert.match(hover, /Values/);
    await screenshot(wb.page, 'launch-scripts', 'fsdp-config-hover');
  });

  suite.test('a script whose ms-swift config file turns DeepSpeed on gets the missing NPROC_PER_NODE, and its fix', async (wb) => {
    const s = scenarios.configFileDevices;
    placeFile(wb.instance.workspace, s.config.source, s.config.name);
    const { saved } = await applyScenarioFix(wb, s, s.token, (t) => s.expectAfter.test(t), 'NPROC_PER_NODE added');
    assert.match(saved, s.expectAfter);
    await wb.editor.waitForText((t) => s.hintAfter.test(t), 'the estimate for 2 GPUs');
  });

  suite.test('inline JSON that ms-swift repairs gets a warning whose fix writes valid JSON', async (wb) => {
    const s = scenarios.repairedInlineJson;
    const { saved } = await applyScenarioFix(wb, s, s.token, (t) => s.expectAfter.test(t), 'the JSON rewritten');
    assert.match(saved, s.expectAfter);
  });

  suite.test('a GKD teacher config below ZeRO-3 gets a note whose fix switches it to zero3', async (wb) => {
    const s = scenarios.teacherBelowZero3;
    const { saved } = await applyScenarioFix(wb, s, s.token, (t) => s.expectAfter.test(t), 'the teacher on zero3');
    assert.match(saved, s.expectAfter);
  });

  suite.test('a launch YAML that does not parse gets one warning in the Problems panel, where the parser stopped', async (wb) => {
    const name = 'swift_e2e_broken.yaml';
    placeFile(wb.instance.workspace, 'fixture:swift_sft_broken.yaml', name);
    await wb.openFile(name);
    const problems = await wb.problems((p) => p.some((x) => x.file === name), name);
    const ours = problems.filter((x) => x.file === name && x.source === 'zero-lens');
    assert.deepEqual(ours.map((x) => [x.code, x.severity]), [['yaml-syntax-error', 'warning']]);
    assert.match(ours[0].message, /^ZeRO Lens could not read this file from here on/);
  });

  suite.test('a script saved with Windows line endings gets one warning in the Problems panel', async (wb) => {
    const name = 'train_e2e_crlf.sh';
    const target = path.join(wb.instance.workspace, 'e2e', name);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, 'CUDA_VISIBLE_DEVICES=0,1 \\\r\nNPROC_PER_NODE=2 \\\r\nswift sft \\\r\n  --model Qwen/Qwen2.5-7B-Instruct \\\r\n  --deepspeed zero3\r\n');
    await wb.openFile(name);
    const problems = await wb.problems((p) => p.some((x) => x.file === name), name);
    const ours = problems.filter((x) => x.file === name && x.source === 'zero-lens');
    assert.deepEqual(ours.map((x) => [x.code, x.severity]), [['crlf-line-endings', 'warning']]);
    assert.match(ours[0].message, /^Windows line endings \(CRLF\) on 5 lines/);
  });

  suite.test('python swift/cli/sft.py with two GPUs gets an error whose fix starts it with torchrun', async (wb) => {
    const s = scenarios.pythonSwiftScript;
    const { saved } = await applyScenarioFix(wb, s, s.token, (t) => s.expectAfter.test(t), 'torchrun instead of python');
    assert.match(saved, s.expectAfter);
  });
});
