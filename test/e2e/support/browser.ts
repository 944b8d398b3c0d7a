/**
 * Debian's chromium driven by playwright-core (which downloads no browser). One browser per test file.
 */
import { chromium, type Browser } from 'playwright-core';
import { e2eEnv } from './env';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: e2eEnv.chromium,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}
