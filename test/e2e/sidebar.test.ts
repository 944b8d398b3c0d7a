/**
 * The "ZeRO Lens" sidebar (issue 6): stacked bars per option, Apply edits the config (undoably),
 * rendered with theme colours in dark and light themes.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { scenarios } from './scenarios';
import { placeFile, placeScenario, readText } from './support/files';
import { screenshot } from './support/screenshots';
import { uiSuite } from './support/suite';
import { poll } from './support/poll';
import type { Locator } from 'playwright-core';
import { webviewContent } from './support/webview';
import type { Workbench } from './support/workbench';

const s = scenarios.sidebar;

async function showSidebar(wb: Workbench) {
  await wb.openActivity(s.containerTitle);
  const view = webviewContent(wb.page);
  await view.locator('[data-testid="zl-bar"]').first().waitFor({ state: 'visible', timeout: 30_000 });
  return view;
}

/** Clicks "Apply" on the scenario's stage without offload (ZeRO-3). */
async function clickApplyPlainStage(view: ReturnType<typeof webviewContent>): Promise<void> {
  const key = await view
    .locator(`[data-testid="zl-bar"][data-stage="${s.applyStage}"]`)
    .evaluateAll((nodes) => {
      const plain = nodes.find((n) => !/true|cpu|nvme/.test(`${n.getAttribute('data-offload-optimizer')}${n.getAttribute('data-offload-param')}`));
      return (plain ?? nodes[0])?.getAttribute('data-key') ?? null;
    });
  assert.ok(key, `there is a ZeRO-${s.applyStage} bar`);
  await view.locator(`[data-testid="zl-apply"][data-key="${key}"]`).click();
}

/** Bars, segments with theme colours, the current option; returns the colour of the first segment. */
async function checkBars(wb: Workbench, theme: 'dark' | 'light'): Promise<string> {
  const view = await showSidebar(wb);
  await view.locator(`body.vscode-${theme}`).waitFor({ state: 'attached', timeout: 30_000 });
  const bars = view.locator('[data-testid="zl-bar"]');
  const stages = await bars.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-stage')));
  for (const stage of ['0', '1', '2', '3']) assert.ok(stages.includes(stage), `a bar for ZeRO-${stage} (${theme})`);
  assert.ok((await view.locator('[data-testid="zl-bar"] [data-testid="zl-segment"]').count()) >= 4 * 3, 'bars have segments');
  const current = view.locator('[data-testid="zl-bar"][data-current="true"]');
  assert.equal(await current.count(), 1, 'one option is highlighted as current');
  assert.equal(await current.getAttribute('data-stage'), '2');
  const segment = view.locator('[data-testid="zl-segment"]').first();
  assert.ok(await drawnBox(segment), 'segments are drawn');
  const colour = await paintedColour(segment);
  assert.ok(isPainted(colour), `segment has a colour (${colour})`);
  // The same numbers as a plain table, for screen readers and copying.
  assert.ok((await view.locator('section[aria-label="Numbers"] table tr').count()) >= 5, 'a table below the chart');
  // Each button's glyph is a span of the page's own, drawn by the stylesheet the page loaded at its start, so a
  // render shows it at once (drawn in the buttons' shadow roots, the glyphs were missing right after a render).
  const glyphs = await view.locator('vscode-button > .codicon').evaluateAll((nodes) => nodes.map((n) => getComputedStyle(n, '::before').content));
  assert.ok(glyphs.length >= 4, `buttons with a glyph of their own (${glyphs.length})`);
  assert.deepEqual(glyphs.filter((content) => !content || content === 'none' || content === 'normal'), [], 'every button glyph is drawn');
  await screenshot(wb.page, 'sidebar', `bars-${theme}`);
  // The webview's strict CSP must not block any of its own scripts, styles or fonts.
  const refused = wb.consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text));
  assert.deepEqual(refused, [], 'no Content-Security-Policy violations');
  return colour;
}

/** A theme change makes the webview render again: an element found just before has no box and no style for a moment. */
const settling = { timeoutMs: 10_000, pauseMs: 200 };

const hasBox = (box: { width: number; height: number } | null) => !!box && box.width > 0 && box.height > 0;

/** Whether the element gets a non-empty box. */
async function drawnBox(element: Locator): Promise<boolean> {
  const box = await poll(
    async () => {
      await element.waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
      return element.boundingBox().catch(() => null);
    },
    hasBox,
    settling,
  );
  return hasBox(box);
}

const isPainted = (colour: string) => !!colour && colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent';

/** The element's computed background colour, once it has one. */
function paintedColour(element: Locator): Promise<string> {
  return poll(() => element.evaluate((el) => getComputedStyle(el).backgroundColor).catch(() => ''), isPainted, settling);
}

async function setTheme(wb: Workbench, themeName: string, kind: 'vs' | 'vs-dark') {
  await wb.runCommand('Preferences: Color Theme', { opensInput: true });
  await wb.quickInput().fill(themeName);
  await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: themeName }).first().click();
  await wb.page.locator(`.monaco-workbench.${kind}`).waitFor({ state: 'attached' });
}

uiSuite('sidebar', (suite) => {
  suite.test('the sidebar renders its bars in the dark and the light theme', async (wb) => {
    placeScenario(wb.instance.workspace, s);
    await wb.openFile(s.name);
    const dark = await checkBars(wb, 'dark');
    try {
      await setTheme(wb, 'Light Modern', 'vs');
      const light = await checkBars(wb, 'light');
      assert.notEqual(light, dark, 'segment colours follow the theme');
    } finally {
      // Back to the profile's theme for the files after this one (a failure here must not hide the first).
      await setTheme(wb, 'Dark Modern', 'vs-dark').catch((error) => console.error(`could not restore the dark theme: ${error}`));
    }
  });

  suite.test('"Apply" on an option edits the config, and Ctrl+Z takes it back, in the sidebar or in the editor', async (wb) => {
    const { file } = placeScenario(wb.instance.workspace, { ...s, name: 'ds_config_e2e_sidebar_apply.json' });
    await wb.openFile('ds_config_e2e_sidebar_apply.json');
    await wb.editor.waitForText((t) => s.expectBefore.test(t), 'stage 2');
    // An edit of the user's own before Apply: an undo that went one step too far would take it away.
    const marker = 'typed before Apply';
    await wb.editor.root.locator('.view-lines').click();
    await wb.page.keyboard.press('Control+End');
    await wb.page.keyboard.type(`\n// ${marker}`);
    const beforeApply = (t: string) => s.expectBefore.test(t) && t.includes(marker);
    const afterApply = (t: string) => s.expectAfter.test(t) && t.includes(marker);
    await wb.editor.waitForText(beforeApply, 'the marker');
    const view = await showSidebar(wb);
    await clickApplyPlainStage(view);
    await wb.editor.waitForText(afterApply, 'stage 3 after Apply');
    await screenshot(wb.page, 'sidebar', 'after-apply');
    // Right after Apply the focus is on its button: Ctrl+Z there takes back exactly the Apply.
    await wb.page.keyboard.press('Control+Z');
    await wb.editor.waitForText(beforeApply, 'stage 2 after Ctrl+Z in the sidebar');
    // The keys were pressed in the sidebar, and the focus comes back there after the step.
    const sidebarFocused = () => view.locator('body').evaluate((body) => body.ownerDocument.hasFocus());
    assert.equal(await poll(sidebarFocused, (focused) => focused, { timeoutMs: 5000, pauseMs: 100 }), true, 'the sidebar has the focus again after Ctrl+Z');
    await wb.page.keyboard.press('Control+Shift+Z');
    await wb.editor.waitForText(afterApply, 'stage 3 after Ctrl+Shift+Z in the sidebar');
    // The same after a redo. Waiting for it also keeps the click below out of the half second in which the sidebar
    // takes the focus back: a click there was overtaken by it, and the redo typed in the editor then went nowhere.
    assert.equal(await poll(sidebarFocused, (focused) => focused, { timeoutMs: 5000, pauseMs: 100 }), true, 'the sidebar has the focus again after Ctrl+Shift+Z');
    // The edit is an ordinary editor edit: Ctrl+Z in the editor takes it back too.
    await wb.editor.root.locator('.view-lines').click();
    await wb.page.keyboard.press('Control+Z');
    await wb.editor.waitForText(beforeApply, 'stage 2 after undo in the editor');
    await wb.page.keyboard.press('Control+Shift+Z');
    await wb.editor.waitForText(afterApply, 'stage 3 after redo in the editor');
    await wb.editor.save();
    assert.match(readText(file), s.expectAfter);
    assert.ok(readText(file).includes(marker));
  });

  suite.test('a click in the editor right after Ctrl+Z in the sidebar keeps the focus there', async (wb) => {
    placeScenario(wb.instance.workspace, { ...s, name: 'ds_config_e2e_sidebar_handover.json' });
    await wb.openFile('ds_config_e2e_sidebar_handover.json');
    await wb.editor.waitForText((t) => s.expectBefore.test(t), 'stage 2');
    const view = await showSidebar(wb);
    await clickApplyPlainStage(view);
    await wb.editor.waitForText((t) => s.expectAfter.test(t), 'stage 3 after Apply');
    await wb.page.keyboard.press('Control+Z');
    await wb.editor.waitForText((t) => s.expectBefore.test(t), 'stage 2 after Ctrl+Z in the sidebar');
    // Within the half second in which the sidebar would take the focus back, the user clicks into the text.
    const box = await wb.editor.tokenBox('"bf16"');
    assert.ok(box, 'the "bf16" key is drawn');
    await wb.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await wb.page.waitForTimeout(800);
    const sidebarFocused = await view.locator('body').evaluate((body) => body.ownerDocument.hasFocus());
    assert.equal(sidebarFocused, false, 'the editor keeps the focus the user gave it');
    await wb.page.keyboard.press('Control+Shift+Z');
    await wb.editor.waitForText((t) => s.expectAfter.test(t), 'stage 3 after the redo typed in the editor');
  });

  suite.test("a segment's exact GiB shows on hover", async (wb) => {
    placeScenario(wb.instance.workspace, { ...s, name: 'ds_config_e2e_sidebar_hover.json' });
    await wb.openFile('ds_config_e2e_sidebar_hover.json');
    const view = await showSidebar(wb);
    const option = view.locator('.zl-option[data-current="true"]');
    const segment = option.locator('[data-testid="zl-segment"]').first();
    const label = await segment.getAttribute('aria-label');
    assert.match(label ?? '', /GiB/, 'the segment is labelled with its size');
    await segment.hover();
    await option.locator('.zl-detail', { hasText: /\d+(\.\d+)? GiB/ }).waitFor({ state: 'visible' });
    assert.equal((await option.locator('.zl-detail').innerText()).trim(), label);
  });

  suite.test('a model id typed in the sidebar and confirmed with Enter is saved, and the comments above it stay', async (wb) => {
    const settingsFile = path.join(wb.instance.workspace, '.vscode', 'settings.json');
    const original = readText(settingsFile);
    try {
      placeScenario(wb.instance.workspace, { ...s, name: 'ds_config_e2e_sidebar_model.json' });
      await wb.openFile('ds_config_e2e_sidebar_model.json');
      const view = await showSidebar(wb);
      // The catalog search (once the catalog is there): typing filters the list; Enter takes what was typed,
      // not the empty selection the list would make of it.
      const box = view.locator('vscode-single-select#zl-in-model');
      await box.waitFor({ state: 'visible', timeout: 30_000 });
      // Typed into the box itself (the workbench may take the page's keyboard back from a webview between
      // keystrokes), then Enter on it.
      const input = box.locator('input').first();
      await input.click();
      await input.fill('acme/Tiny-Model');
      await input.press('Enter');
      const saved = await poll(async () => readText(settingsFile), (text: string) => text.includes('"zeroLens.model": "acme/Tiny-Model"'), { timeoutMs: 15_000, pauseMs: 200 });
      assert.match(saved, /"zeroLens\.model": "acme\/Tiny-Model"/, saved);
      // The two comment lines above the key, and every other setting, are as they were.
      assert.equal(saved, original.replace('"zeroLens.model": "Qwen/Qwen3-8B"', '"zeroLens.model": "acme/Tiny-Model"'));
      await screenshot(wb.page, 'sidebar', 'model-typed');
    } finally {
      writeFileSync(settingsFile, original);
    }
  });

  suite.test('an accelerate FSDP YAML: the hover shows FSDP and ZeRO rows, the sidebar the FSDP group with the run current', async (wb) => {
    const f = scenarios.fsdpSidebar;
    placeScenario(wb.instance.workspace, f);
    await wb.openFile(f.name);
    const hover = await wb.editor.hover(f.token, (text) => f.hoverExpect.every((pattern) => pattern.test(text)), f.line);
    const runRow = hover.split('\n').find((line) => line.includes(f.current) && line.includes('▶'));
    assert.ok(runRow, `the run's own FSDP row is marked in the hover:\n${hover}`);
    // The FSDP table sits below the ZeRO one in the hover: scrolled to it for the picture.
    await wb.editor.hoverLocator().getByText('This run and FSDP for the same job').scrollIntoViewIfNeeded().catch(() => undefined);
    await screenshot(wb.page, 'sidebar', 'fsdp-hover');
    await wb.page.keyboard.press('Escape');

    const view = await showSidebar(wb);
    // No ZeRO bar is the run's; the ZeRO bars are still there to compare.
    assert.equal(await view.locator('[data-testid="zl-bar"][data-current="true"]').count(), 0, 'no ZeRO bar is current');
    assert.ok((await view.locator('[data-testid="zl-bar"]').count()) >= 7, 'the ZeRO bars');
    const group = view.locator('[data-testid="zl-alternatives"]');
    await group.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal((await group.locator('h3').innerText()).trim(), f.group);
    assert.equal(await group.locator('ol').getAttribute('aria-label'), f.group);
    const current = group.locator('.zl-option[data-current="true"]');
    assert.equal(await current.count(), 1, 'one FSDP row is current');
    assert.equal((await current.locator('.zl-option-label').innerText()).replace(/\s+/g, ' ').trim().startsWith(f.current), true);
    assert.match(await current.locator('[data-testid="zl-alt"]').getAttribute('aria-label') ?? '', new RegExp(`^${f.current} \\(current\\): [\\d.]+ GiB per GPU, [\\d.]+ GiB allocated`));
    assert.match(await current.locator('.zl-option-total').innerText(), /[\d.]+ GiB · (fits|exceeds by|does not fit)/);
    // No Apply anywhere: the FSDP rows are not edits of this file, and neither are the ZeRO bars of an FSDP run.
    assert.equal(await view.locator('[data-testid="zl-apply"]').count(), 0, 'no Apply on the FSDP rows or the ZeRO bars');
    assert.ok((await group.locator('[data-testid="zl-alt"] [data-testid="zl-segment"]').count()) >= 3, 'the FSDP bars have segments');
    const labels = await group.locator('.zl-option-label').allInnerTexts();
    assert.ok(labels.some((l) => l.startsWith('FSDP SHARD_GRAD_OP')), labels.join(' | '));
    // The table lists the FSDP rows too, the run's marked.
    assert.ok((await view.locator('table tr[data-current="true"] th', { hasText: `${f.current} (current)` }).count()) === 1, 'the current row in the table');
    await current.scrollIntoViewIfNeeded();
    await screenshot(wb.page, 'sidebar', 'fsdp-group');

    // "Switch ZeRO stage…" on an FSDP run: no stage list to pick from, a message that says why and opens the comparison.
    await wb.closeSidebar();
    await wb.runCommand('ZeRO Lens: Switch ZeRO stage…');
    const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'not a ZeRO stage' });
    await toast.waitFor({ state: 'visible' });
    assert.ok((await toast.innerText()).includes(f.current), await toast.innerText());
    assert.equal(await wb.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: /GiB\/GPU/ }).count(), 0, 'no stage list');
    const compare = toast.getByRole('button', { name: 'Compare in the sidebar' });
    await compare.waitFor({ state: 'visible' });
    await wb.page.waitForTimeout(300); // the toast slides in: let it settle for the picture
    await screenshot(wb.page, 'sidebar', 'fsdp-switch-stage');
    await compare.click();
    await webviewContent(wb.page).locator('[data-testid="zl-alternatives"] .zl-option[data-current="true"]').waitFor({ state: 'visible', timeout: 30_000 });
  });

  suite.test('a launch script changed on disk, not in the editor, changes the sidebar of the config it launches', async (wb) => {
    const workspace = wb.instance.workspace;
    placeFile(workspace, 'configs/ds_config_zero2.json', 'ds_config_e2e_ondisk.json');
    const script = placeFile(workspace, path.resolve(__dirname, '../fixtures/context/train_zero2.sh'), 'train_e2e_ondisk.sh');
    const launching = (model: string) => readText(script).replace('ds_config_zero2.json', 'ds_config_e2e_ondisk.json').replace('Qwen/Qwen3-8B', model);
    writeFileSync(script, launching('Qwen/Qwen3-8B'));
    await wb.openFile('ds_config_e2e_ondisk.json');
    const view = await showSidebar(wb);
    const total = view.locator('.zl-option[data-current="true"] .zl-option-total');
    const model = view.locator('#zl-src-model');
    const before = await poll(async () => (await model.textContent().catch(() => null)) ?? '', (text) => text.includes('train_e2e_ondisk.sh'), { timeoutMs: 30_000, pauseMs: 200 });
    assert.ok(before.includes('train_e2e_ondisk.sh'), `the model comes from the script: ${before}`);
    const totalBefore = await total.innerText();
    // As a git checkout or another editor would: the file changes on disk, VS Code's watcher reports it.
    writeFileSync(script, launching('Qwen/Qwen3-32B'));
    const after = await poll(() => total.innerText().catch(() => totalBefore), (text) => text !== totalBefore, { timeoutMs: 20_000, pauseMs: 200 });
    assert.notEqual(after, totalBefore, 'the sidebar follows the script on disk');
    await screenshot(wb.page, 'sidebar', 'script-changed-on-disk');
  });

  suite.test('the language status item shows the estimate and opens the sidebar', async (wb) => {
    const status = scenarios.languageStatus;
    placeScenario(wb.instance.workspace, status);
    await wb.openFile(status.name);
    await wb.closeSidebar();
    await wb.page.locator('[id="status.languageStatus"]').click();
    const popup = wb.page.locator('.monaco-hover:not(.hidden)', { hasText: status.link });
    await popup.waitFor({ state: 'visible' });
    assert.match(await popup.innerText(), status.expect);
    await popup.getByText(status.link).click();
    await webviewContent(wb.page).locator('[data-testid="zl-bar"]').first().waitFor({ state: 'visible', timeout: 30_000 });
  });
});
