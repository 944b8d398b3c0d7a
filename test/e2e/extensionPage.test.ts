/**
 * The extension's page in the Extensions view, as someone who installed the VSIX offline sees it: the
 * README renders with its pictures, which ship in the VSIX and load from the installed extension.
 */
import assert from 'node:assert/strict';
import { uiSuite } from './support/suite';
import { poll } from './support/poll';

uiSuite('extension page', (suite) => {
  suite.test('the installed extension page shows the README with its images loaded', async (wb) => {
    await wb.openActivity('Extensions');
    const entry = wb.page.locator('.part.sidebar .monaco-list-row', { hasText: 'ZeRO Lens' }).first();
    await entry.waitFor({ state: 'visible' });
    await entry.click();
    const readme = wb.page.locator('iframe.webview.ready:visible').first().contentFrame().locator('iframe#active-frame').contentFrame();
    await readme.locator('h1, h2').first().waitFor({ state: 'visible', timeout: 30_000 });
    const images = () => readme.locator('img').evaluateAll((nodes) => nodes.map((n) => ({ src: (n as HTMLImageElement).src, loaded: (n as HTMLImageElement).complete && (n as HTMLImageElement).naturalWidth > 0 })));
    const found = await poll(images, (list) => list.length > 0 && list.every((i) => i.loaded), { timeoutMs: 15_000, pauseMs: 250 });
    assert.ok(found.length >= 2, 'the README has its pictures');
    assert.deepEqual(found.filter((i) => !i.loaded).map((i) => i.src), [], 'every picture loads');
  });
});
