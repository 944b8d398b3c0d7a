/**
 * The sidebar at the narrowest width VS Code allows (170 px) and at a wide one: the file the estimate is for
 * stays named in the header, and no text runs past the right edge, where the webview cuts it off
 * (the totals "200.0 GiB · exceeds by 120.0 GiB" lost their end, the file name vanished before "DeepSpeed config").
 */
import assert from 'node:assert/strict';
import { scenarios } from './scenarios';
import { placeScenario } from './support/files';
import { screenshot } from './support/screenshots';
import { uiSuite } from './support/suite';
import { webviewContent } from './support/webview';
import type { Workbench } from './support/workbench';

const s = scenarios.sidebar;

/** Drags the sash on the sidebar's right edge until the sidebar is about `width` px wide (VS Code stops at 170). */
async function dragSidebarTo(wb: Workbench, width: number): Promise<number> {
  const sidebar = wb.page.locator('.part.sidebar');
  const box = await sidebar.boundingBox();
  assert.ok(box, 'the sidebar is shown');
  const y = box.y + box.height / 2;
  await wb.page.mouse.move(box.x + box.width - 1, y);
  await wb.page.mouse.down();
  await wb.page.mouse.move(box.x + width, y, { steps: 8 });
  await wb.page.mouse.up();
  await wb.page.waitForTimeout(500);
  return (await sidebar.boundingBox())?.width ?? 0;
}

/** What the page draws past its right edge (the table scrolls on its own and is left out), and the file name's width. */
async function layout(wb: Workbench): Promise<{ overflowing: string[]; fileNameWidth: number }> {
  const view = webviewContent(wb.page);
  return view.locator('body').evaluate((body) => {
    const edge = body.ownerDocument.documentElement.clientWidth + 0.5;
    const overflowing: string[] = [];
    for (const element of Array.from(body.querySelectorAll<HTMLElement>('.zl-header *, .zl-legend *, .zl-option-head *, .zl-option-peak, .zl-option-foot *'))) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0) continue;
      if (rect.right > edge) overflowing.push(`${element.className || element.tagName}: "${element.textContent?.trim().slice(0, 60)}" right ${Math.round(rect.right)} > ${Math.round(edge)}`);
    }
    const name = body.querySelector('.zl-file strong');
    return { overflowing, fileNameWidth: name ? name.getBoundingClientRect().width : 0 };
  });
}

uiSuite('sidebar width', (suite) => {
  suite.test('at 170 px and at 700 px the header names the file and no text is cut off at the right edge', async (wb) => {
    placeScenario(wb.instance.workspace, { ...s, name: 'ds_config_e2e_sidebar_width.json' });
    await wb.openFile('ds_config_e2e_sidebar_width.json');
    await wb.openActivity(s.containerTitle);
    const view = webviewContent(wb.page);
    await view.locator('[data-testid="zl-bar"]').first().waitFor({ state: 'visible', timeout: 30_000 });
    const original = (await wb.page.locator('.part.sidebar').boundingBox())?.width ?? 300;
    try {
      for (const target of [170, 700]) {
        const width = await dragSidebarTo(wb, target);
        assert.ok(Math.abs(width - target) < 40, `the sidebar is about ${target} px wide (${width})`);
        const { overflowing, fileNameWidth } = await layout(wb);
        await screenshot(wb.page, 'sidebar-width', `${target}px`);
        // Wide enough for a few characters of "ds_config_e2e_sidebar_width.json" and its ellipsis.
        assert.ok(fileNameWidth >= 30, `the file name is shown at ${target} px (${fileNameWidth} px wide)`);
        assert.deepEqual(overflowing, [], `nothing runs past the right edge at ${target} px`);
      }
    } finally {
      await dragSidebarTo(wb, original).catch(() => undefined);
    }
  });
});
