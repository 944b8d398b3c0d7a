/**
 * A test file = one browser and one code-server window, shared by its tests (a window starts its own
 * extension host, which code-server keeps for reconnection: one per file keeps the machine calm).
 * Every test ends with a screenshot in test-results/; a failing one also saves the notifications.
 */
import { after, before, describe, it } from 'node:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser';
import { e2eEnv, type EditorInstance } from './env';
import { screenshot, slug } from './screenshots';
import { Workbench } from './workbench';

export interface UiSuite {
  /** The shared window; valid inside tests. */
  readonly wb: Workbench;
  test(name: string, body: (wb: Workbench) => Promise<void>): void;
}

const TEST_TIMEOUT = 120_000;

export function uiSuite(name: string, body: (suite: UiSuite) => void, instance: () => EditorInstance = () => e2eEnv.trusted): void {
  describe(name, { timeout: 10 * 60_000 }, () => {
    let browser: Browser | undefined;
    let wb: Workbench | undefined;

    before(async () => {
      browser = await launchBrowser();
      wb = await Workbench.open(browser, instance());
    });
    after(async () => {
      await wb?.close();
      await browser?.close();
    });

    const suite: UiSuite = {
      get wb(): Workbench {
        if (!wb) throw new Error('The workbench did not open');
        return wb;
      },
      test(testName, testBody) {
        it(testName, { timeout: TEST_TIMEOUT }, async () => {
          const window = suite.wb;
          try {
            await testBody(window);
          } catch (error) {
            await screenshot(window.page, name, `${testName}-failed`);
            const dir = path.join(e2eEnv.resultsDir, slug(name));
            mkdirSync(dir, { recursive: true });
            const notes = await window.notifications().catch(() => []);
            writeFileSync(path.join(dir, `${slug(testName)}-notifications.txt`), notes.join('\n---\n'));
            throw error;
          } finally {
            await screenshot(window.page, name, testName);
            await window.resetEditors().catch(() => undefined);
          }
        });
      },
    };
    body(suite);
  });
}
