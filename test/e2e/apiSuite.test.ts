/**
 * The @vscode/test-electron suite (test/electron/suite), run here inside code-server's extension host:
 * the web workbench accepts `extensionDevelopmentPath` and `extensionTestsPath` in its `payload` query
 * parameter, so the same `vscode`-API checks that desktop VS Code runs also run offline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { launchBrowser } from './support/browser';
import { e2eEnv } from './support/env';
import { examplesDir } from './support/files';
import { screenshot } from './support/screenshots';

const repoRoot = path.resolve(__dirname, '..', '..');
const suitePath = path.join(repoRoot, '.cache', 'electron-test', 'suite.js');

test('the vscode-API suite (test:electron) passes in code-server\'s extension host', { timeout: 180_000 }, async () => {
  const { url } = e2eEnv.trusted;
  // Its own folder: the suite edits files without saving, and must not meet the UI tests' copies.
  const workspace = path.join(mkdtempSync(path.join(tmpdir(), 'zero-lens-api-')), 'examples');
  cpSync(examplesDir, workspace, { recursive: true });
  const browser = await launchBrowser();
  const lines: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    let resolveDone: (summary: string) => void = () => undefined;
    const done = new Promise<string>((resolve) => (resolveDone = resolve));
    page.on('console', (message) => {
      // Extension-host output reaches the page console as "%c INFO color: … <text>".
      const text = message.text().replace(/^%c\s+\w+\s+color:\s*\S+\s*/, '');
      if (/^\s*[✔✖]|^\s{4}/.test(text)) lines.push(text);
      if (/^\d+\/\d+ passed/.test(text)) resolveDone(text);
    });
    const authority = new URL(url).host;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', `vscode-remote://${authority}${repoRoot}`],
      ['extensionTestsPath', `vscode-remote://${authority}${suitePath}`],
    ]);
    await page.goto(`${url}?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`);
    const timeout = new Promise<string>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the suite did not finish in 150 s:\n${lines.join('\n')}`)), 150_000);
    });
    const summary = await Promise.race([done, timeout]);
    await screenshot(page, 'api-suite', 'after-run');
    const [passed, total] = summary.split(' ')[0]!.split('/').map(Number);
    assert.ok(total! > 0, 'the suite ran cases');
    assert.equal(passed, total, `${summary}\n${lines.join('\n')}`);
  } finally {
    clearTimeout(timer);
    console.log(lines.join('\n'));
    await browser.close();
    rmSync(path.dirname(workspace), { recursive: true, force: true });
  }
});
