/** Screenshots as test artifacts: test-results/<file>/<test>.png (and -failed.png when it fails). */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { e2eEnv } from './env';

export function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
}

export async function screenshot(page: Page, group: string, name: string): Promise<string> {
  const dir = path.join(e2eEnv.resultsDir, slug(group));
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${slug(name)}.png`);
  await animationsSettled(page);
  await page.screenshot({ path: file, timeout: 15_000 }).catch(() => undefined);
  return file;
}

/**
 * Waits (up to half a second) for the page's finite CSS animations and transitions: a test that ends right after a
 * hover appeared was pictured mid fade-in, the hover half transparent over the text. Endless ones (the cursor's
 * blink, progress bars) are not waited for.
 */
async function animationsSettled(page: Page): Promise<void> {
  await page
    .evaluate(() => {
      const running = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
      const finished = Promise.all(running.map((a) => a.finished.catch(() => undefined)));
      return Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 500))]);
    })
    .catch(() => undefined);
}
