/**
 * ds_config.json in the real editor: activation, diagnostics, hover, completion, a quick fix that keeps
 * comments, and a Problems panel without duplicates from VS Code's own JSON support.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { positionOf, scenarios } from './scenarios';
import { placeFile, placeScenario } from './support/files';
import { uiSuite } from './support/suite';
import { applyScenarioFix } from './support/quickFix';
import type { Problem } from './support/workbench';
import { poll } from './support/poll';

uiSuite('ds_config.json', (suite) => {
  suite.test('opening a ds_config.json activates the extension: language mode and diagnostics', async (wb) => {
    const s = scenarios.activation;
    placeScenario(wb.instance.workspace, s);
    await wb.openFile(s.name);
    await wb.waitForLanguageMode(s.languageName);
    await wb.editor.squiggles().first().waitFor({ state: 'visible' });
    const problems = await wb.problems((p) => s.codes.every((code) => p.some((x) => x.code === code && x.source === 'zero-lens')), 'activation');
    for (const code of s.codes) {
      assert.equal(problems.filter((p) => p.code === code).length >= 1, true, `${code} is shown`);
    }
  });

  suite.test('a misspelt scheduler param is the TypeError DeepSpeed would raise, not a key it ignores', async (wb) => {
    const file = path.join(wb.instance.workspace, 'e2e', 'ds_config_e2e_scheduler.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{\n  "train_micro_batch_size_per_gpu": 1,\n  "scheduler": {"type": "WarmupLR", "params": {"warmup_num_step": 100}}\n}\n');
    await wb.openFile('ds_config_e2e_scheduler.json');
    const typo = (problems: Problem[]) => problems.find((p) => p.file === 'ds_config_e2e_scheduler.json' && p.code.includes('unknown-key'));
    const problem = typo(await wb.problems((p) => !!typo(p), 'ds_config_e2e_scheduler'))!;
    assert.equal(problem.severity, 'error');
    assert.match(problem.message, /WarmupLR\(optimizer, \*\*params\) as keyword arguments.*TypeError\. Did you mean "warmup_num_steps"\?/);
  });

  suite.test('hovering "stage" shows the stage table with per-GPU estimates', async (wb) => {
    const s = scenarios.stageHover;
    placeScenario(wb.instance.workspace, s);
    await wb.openFile(s.name);
    const hover = await wb.editor.hover(s.token, (text) => s.expect.every((pattern) => pattern.test(text)));
    // A real table, one row per option, each with a GiB figure.
    const rows = wb.editor.hoverLocator().locator('table tr');
    assert.ok((await rows.count()) >= 5, `the hover has a table with a header and a row per stage:\n${hover}`);
    for (const stage of [0, 1, 2, 3]) {
      assert.match(hover, new RegExp(`ZeRO-${stage}[^\\n]*?\\d+(\\.\\d+)? GiB`), `stage ${stage} has a per-GPU figure`);
    }
  });

  suite.test('completion inside zero_optimization offers offload_optimizer with its documentation', async (wb) => {
    const s = scenarios.completion;
    const { text } = placeScenario(wb.instance.workspace, s);
    await wb.openFile(s.name);
    const at = positionOf(text, s.after);
    await wb.editor.goTo(at.line, at.column + s.after.length);
    await wb.page.keyboard.press('Enter');
    await wb.page.keyboard.type(s.typed);
    const labels = await wb.editor.complete((l) => l.includes(s.expectLabel));
    assert.ok(labels.includes(s.expectLabel));
    // The focused suggestion's documentation arrives on resolve.
    await wb.page.keyboard.type('load_o');
    const details = await wb.editor.suggestionDetails((t) => t.includes(s.expectDocs));
    assert.ok(details.includes(s.expectDocs));
    // Accepting it inserts the key inside zero_optimization.
    await wb.page.locator('.suggest-widget.visible .monaco-list-row', { hasText: s.expectLabel }).first().click();
    await wb.editor.waitForText((t) => t.includes(`"${s.expectLabel}"`), `"${s.expectLabel}" inserted`);
  });

  suite.test('a deprecated key shows a diagnostic; Ctrl+. fixes it and keeps the neighbouring comment', async (wb) => {
    const s = scenarios.deprecatedFix;
    // On screen an inlay hint may sit inside the new object, so the exact shape is checked on disk.
    const landed = (t: string) => t.includes('"offload_optimizer"') && !t.includes(s.key);
    const { chosen, saved } = await applyScenarioFix(wb, s, s.key, landed, 'the replacement key');
    assert.match(chosen, s.fix);
    assert.match(saved, s.expectAfter);
    assert.ok(!saved.includes(s.key), 'the deprecated key is gone');
    assert.ok(saved.includes(s.comment), 'the comment next to it survives');
  });

  suite.test('an offload device in capitals: Ctrl+. offers the allowed values and fixes it; a bool as text is a warning', async (wb) => {
    const s = scenarios.enumFix;
    const { chosen, saved } = await applyScenarioFix(wb, s, s.token, (t) => t.includes('"device": "cpu"'), 'the lower-case device');
    assert.match(chosen, s.fix);
    assert.ok(saved.includes('// Copied from a launch script'), 'the comment survives');
    const word = (problems: Problem[]) => problems.find((p) => p.file === s.name && p.code === s.wordCode);
    const problem = word(await wb.problems((p) => !!word(p), s.name))!;
    assert.equal(problem.severity, 'warning');
    assert.match(problem.message, /pydantic config reads it as true/);
  });

  suite.test('a config an ms-swift script hands to accelerate without zero_optimization: an error naming the script, fixed with stage 0', async (wb) => {
    const s = scenarios.zeroSectionRequired;
    placeFile(wb.instance.workspace, s.script.source, s.script.name);
    const { saved } = await applyScenarioFix(wb, s, s.token, (t) => s.expectAfter.test(t), 'the ZeRO section added');
    assert.match(saved, s.expectAfter);
    assert.deepEqual(JSON.parse(saved).zero_optimization, { stage: 0 });
  });

  suite.test('Format Document formats a pasted one-line config and keeps its comment; Go to Symbol lists its keys', async (wb) => {
    const file = path.join(wb.instance.workspace, 'e2e', 'ds_config_e2e_format.json');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{\n// pasted from a launch script\n"train_micro_batch_size_per_gpu":1,"zero_optimization":{"stage":3,"offload_param":{"device":"cpu"}}}\n');
    await wb.openFile('ds_config_e2e_format.json');
    await wb.waitForLanguageMode('DeepSpeed Config');
    await wb.runCommand('Format Document');
    // An inlay hint may follow the value on screen; the exact text is checked on disk.
    await wb.editor.waitForText((t) => /^ {8}"stage": 3/m.test(t), 'the formatted config');
    await wb.editor.save();
    // The editor's default indentation (4 spaces) for a file that had none.
    assert.equal(
      readFileSync(file, 'utf8'),
      '{\n    // pasted from a launch script\n    "train_micro_batch_size_per_gpu": 1,\n    "zero_optimization": {\n        "stage": 3,\n        "offload_param": {\n            "device": "cpu"\n        }\n    }\n}\n',
    );
    await wb.page.keyboard.press('Control+Shift+O');
    const rows = wb.page.locator('.quick-input-list .monaco-list-row .label-name');
    const symbols = await poll(() => rows.allInnerTexts(), (names) => names.length >= 5, { timeoutMs: 15_000, pauseMs: 200 });
    for (const key of ['train_micro_batch_size_per_gpu', 'zero_optimization', 'stage', 'offload_param', 'device']) {
      assert.ok(symbols.some((name) => name.trim() === key), `${key} is a symbol: ${JSON.stringify(symbols)}`);
    }
  });

  suite.test('the Problems panel shows each problem once (no duplicates from the built-in JSON support)', async (wb) => {
    for (const target of scenarios.duplicates.files) {
      placeScenario(wb.instance.workspace, target);
      await wb.openFile(target.name);
      // Wait until ZeRO Lens has reported, then give VS Code's JSON server the same chance to add its own.
      const problems = await wb.problems((p) => p.filter((x) => x.file === target.name && x.source === 'zero-lens').length >= 3, target.name);
      await wb.page.waitForTimeout(1500);
      const settled = (await wb.problems(() => true, target.name)).filter((x) => x.file === target.name);
      assert.ok(settled.length >= problems.filter((x) => x.file === target.name).length);
      const seen = new Map<string, string>();
      for (const p of settled) {
        const key = `${p.line}:${p.column}:${p.message}`;
        assert.ok(!seen.has(key), `shown twice: ${target.name}:${p.line}:${p.column} ${p.message}`);
        seen.set(key, p.source);
      }
      // VS Code's JSON language service must not repeat, on the same line, what ZeRO Lens reports.
      const ours = new Set(settled.filter((p) => p.source === 'zero-lens').map((p) => p.line));
      const builtIn = settled.filter((p) => p.source !== 'zero-lens' && ours.has(p.line));
      assert.deepEqual(
        builtIn.map((p) => `${p.line}:${p.column} ${p.message} (${p.source || 'json'} ${p.code})`),
        [],
        `${target.name}: built-in JSON diagnostics duplicate ZeRO Lens ones`,
      );
      await wb.resetEditors();
    }
  });
});
