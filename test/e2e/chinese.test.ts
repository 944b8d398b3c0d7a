/**
 * ZeRO Lens with Simplified Chinese as VS Code's display language (issue 26): a code-server started with
 * `--locale zh-cn` and a language pack built by the e2e setup. The extension host reports `vscode.env.language`;
 * the screenshots show the hover table, a diagnostic, the quick-fix menu, the inline hint and the sidebar.
 * Until the server's domain messages are migrated (phase 2), diagnostics, quick-fix titles, the estimate table and
 * the hint are English; the commands, the sidebar and the ds_config key documentation are Chinese.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { positionOf, scenarios } from './scenarios';
import { launchBrowser } from './support/browser';
import { e2eEnv } from './support/env';
import { placeScenario } from './support/files';
import { screenshot } from './support/screenshots';
import { uiSuite } from './support/suite';
import { webviewContent } from './support/webview';
import { poll } from './support/poll';

const repoRoot = path.resolve(__dirname, '..', '..');
const probePath = path.join(repoRoot, '.cache', 'electron-test', 'displayLanguage.js');
const group = 'zh-cn';

test('in the extension host, vscode.env.language is zh-cn and ZeRO Lens\'s commands have their Chinese titles', { timeout: 120_000 }, async () => {
  const { url, workspace } = e2eEnv.chinese;
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const report = new Promise<string>((resolve) =>
      page.on('console', (message) => {
        const text = message.text();
        const at = text.indexOf('ZL-L10N ');
        if (at >= 0) resolve(text.slice(at + 'ZL-L10N '.length));
      }),
    );
    const authority = new URL(url).host;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', `vscode-remote://${authority}${repoRoot}`],
      ['extensionTestsPath', `vscode-remote://${authority}${probePath}`],
    ]);
    await page.goto(`${url}?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((_, reject) => (timer = setTimeout(() => reject(new Error('the extension host did not report in 90 s')), 90_000)));
    type Title = string | { value: string; original: string };
    const reported = JSON.parse(await Promise.race([report, timeout]).finally(() => clearTimeout(timer))) as { language: string; commandTitles: Record<string, Title> };
    assert.equal(reported.language, 'zh-cn');
    // VS Code hands extensions a localized title with its English original.
    const title = (command: string) => reported.commandTitles[command];
    assert.deepEqual(title('zeroLens.switchStage'), { value: '切换 ZeRO 阶段…', original: 'Switch ZeRO stage…' });
    assert.deepEqual(title('zeroLens.showSidebar'), { value: '显示显存侧边栏', original: 'Show Memory Sidebar' });
  } finally {
    await browser.close();
  }
});

uiSuite(
  'zh-cn',
  (suite) => {
    suite.test('the hover on "stage": the estimate table, then the key\'s documentation in Chinese', async (wb) => {
      const s = scenarios.stageHover;
      placeScenario(wb.instance.workspace, s);
      await wb.openFile(s.name);
      const hover = await wb.editor.hover(s.token, (text) => /ZeRO-3/.test(text) && /类型：/.test(text));
      assert.match(hover, /使用哪个 ZeRO 阶段/);
      assert.ok((await wb.editor.hoverLocator().locator('table tr').count()) >= 5, 'the stage table');
      await wb.page.waitForTimeout(500); // the hover fades in
      await screenshot(wb.page, group, 'hover-table');
      // The key's documentation follows the table: scroll the hover down to it.
      const box = await wb.editor.hoverLocator().boundingBox();
      if (box) {
        await wb.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        for (let i = 0; i < 15; i++) {
          await wb.page.mouse.wheel(0, 300);
          await wb.page.waitForTimeout(60);
        }
        await wb.page.waitForTimeout(400);
        await screenshot(wb.page, group, 'hover-key-documentation');
      }
    });

    suite.test('a diagnostic: its squiggle, the hover over it and the Problems panel', async (wb) => {
      const s = scenarios.deprecatedFix;
      placeScenario(wb.instance.workspace, s);
      await wb.openFile(s.name);
      const problems = await wb.problems((p) => p.some((x) => x.code.includes(s.code)), 'ds_config_e2e_deprecated');
      assert.ok(problems.some((p) => p.code.includes(s.code)));
      // The hover over the deprecated key: the diagnostic, then the key's documentation in Chinese.
      const hover = await wb.editor.hover(s.key, (text) => /已弃用/.test(text));
      assert.match(hover, /已弃用/);
      await screenshot(wb.page, group, 'diagnostic');
    });

    suite.test('the quick-fix menu', async (wb) => {
      const s = scenarios.deprecatedFix;
      const { text } = placeScenario(wb.instance.workspace, { ...s, name: 'ds_config_e2e_zh_fix.json' });
      await wb.openFile('ds_config_e2e_zh_fix.json');
      const at = positionOf(text, s.key);
      await wb.editor.goTo(at.line, at.column + 2);
      const titles = await wb.editor.openQuickFixes((t) => t.some((x) => s.fix.test(x)));
      assert.ok(titles.length > 0);
      await screenshot(wb.page, group, 'quick-fix-menu');
      await wb.page.keyboard.press('Escape');
    });

    suite.test('the inline hint after "stage"', async (wb) => {
      const s = scenarios.inlayHint;
      placeScenario(wb.instance.workspace, { ...s, name: 'ds_config_e2e_zh_inlay.json' });
      await wb.openFile('ds_config_e2e_zh_inlay.json');
      // In Chinese the hint reads "≈ 74.5 GiB/卡 · … · 5 张 GPU · 已分配 …".
      const line = /"stage": 2.*GiB\/卡/;
      const text = await wb.editor.waitForText((t) => t.split('\n').some((l) => line.test(l)), 'a GiB/卡 hint on the stage line');
      assert.match(text, /[\d.]+ GiB\/卡/);
      await screenshot(wb.page, group, 'inline-hint');
    });

    suite.test('the command palette lists ZeRO Lens\'s commands in Chinese', async (wb) => {
      const rows = wb.page.locator('.quick-input-list .monaco-list-row');
      // The palette lists what is registered when it opens: ask again until the contributions are in.
      const shown = await poll(
        async () => {
          await wb.page.keyboard.press('Escape');
          await wb.page.keyboard.press('F1');
          await wb.quickInput().waitFor({ state: 'visible' });
          await wb.quickInput().fill('>ZeRO Lens');
          await rows.first().waitFor({ state: 'visible' });
          await wb.page.waitForTimeout(300);
          return (await rows.allInnerTexts()).join('\n');
        },
        (text) => text.includes('切换 ZeRO 阶段'),
        { timeoutMs: 30_000, pauseMs: 1_000 },
      );
      for (const title of ['切换 ZeRO 阶段…', '显示显存侧边栏', '刷新显存估算', '设置模型和 GPU…']) assert.ok(shown.includes(title), `${title} in:\n${shown}`);
      await screenshot(wb.page, group, 'command-palette');
      await wb.page.keyboard.press('Escape');
    });

    suite.test('the sidebar: labels, legend, table and the training context in Chinese', async (wb) => {
      const s = scenarios.sidebar;
      placeScenario(wb.instance.workspace, { ...s, name: 'ds_config_e2e_zh_sidebar.json' });
      await wb.openFile('ds_config_e2e_zh_sidebar.json');
      await wb.openActivity(s.containerTitle);
      const view = webviewContent(wb.page);
      await view.locator('[data-testid="zl-bar"]').first().waitFor({ state: 'visible', timeout: 30_000 });
      assert.equal(await view.locator('html').getAttribute('lang'), 'zh-cn');
      const text = await view.locator('body').innerText();
      for (const words of ['优化器状态', '梯度', '参数', '激活值', '每卡微批次大小', '梯度检查点', '应用', '来自：设置（zeroLens.model）', '已分配', 'FSDP / 模型并行']) assert.ok(text.includes(words), `${words} in the sidebar:\n${text}`);
      // The words under each bar are the catalog's too (they were English once).
      assert.doesNotMatch(text, /\ballocated\b/);
      // The section heading is drawn inside the collapsible's shadow root.
      assert.equal(await view.locator('vscode-collapsible.zl-context').getAttribute('heading'), '训练上下文');
      assert.ok(await view.locator('section[aria-label="各 ZeRO 方案的每卡显存"]').count(), 'the picture is labelled in Chinese');
      await screenshot(wb.page, group, 'sidebar');
    });
  },
  () => e2eEnv.chinese,
);
