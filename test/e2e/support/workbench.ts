/**
 * One code-server window in Chromium: opening files (Ctrl+P), the command palette (F1), the status bar,
 * the Problems panel and the activity bar. Waits are on what the screen shows, never fixed sleeps.
 */
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { Editor, normalize } from './editor';
import { poll } from './poll';
import type { EditorInstance } from './env';

const WAIT = 30_000;

export interface Problem {
  /** The file the Problems panel groups the row under. */
  file: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** "zero-lens", "json", … (empty when the provider sets none). */
  source: string;
  code: string;
  line: number;
  column: number;
}

export class Workbench {
  readonly editor: Editor;
  /** Console errors of the page and its frames (webviews included), e.g. Content-Security-Policy refusals. */
  readonly consoleErrors: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly instance: EditorInstance,
  ) {
    this.editor = new Editor(page);
    page.on('console', (message) => {
      if (message.type() === 'error') this.consoleErrors.push(message.text());
    });
  }

  /** Opens the instance's workspace in a fresh browser context and waits for the workbench. */
  static async open(browser: Browser, instance: EditorInstance): Promise<Workbench> {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT);
    await page.goto(`${instance.url}?folder=${encodeURIComponent(instance.workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    await page.locator('.part.statusbar').waitFor({ state: 'visible' });
    return new Workbench(context, page, instance);
  }

  async close(): Promise<void> {
    await this.context.close().catch(() => undefined);
  }

  quickInput(): Locator {
    return this.page.locator('.quick-input-widget input.input');
  }

  /** Ctrl+P, type the name, Enter; resolves when its tab is active. */
  async openFile(name: string): Promise<void> {
    const base = name.split('/').pop()!;
    for (let attempt = 0; ; attempt++) {
      await this.page.keyboard.press('Escape');
      await this.page.keyboard.press('Control+P');
      await this.quickInput().waitFor({ state: 'visible' });
      await this.quickInput().fill(name);
      const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: base }).first();
      try {
        // New files are found by ripgrep; the first search may miss a file created a moment ago.
        await row.waitFor({ state: 'visible', timeout: 10_000 });
        await row.click();
        break;
      } catch (error) {
        if (attempt >= 2) throw new Error(`Ctrl+P did not find ${name}: ${String(error)}`);
      }
    }
    await this.page.locator('.part.editor .tab.active', { hasText: base }).waitFor({ state: 'visible' });
    await this.editor.root.locator('.view-lines .view-line').first().waitFor({ state: 'visible' });
  }

  /** F1, type the command's title, run the first match. `opensInput`: the command shows its own picker. */
  async runCommand(title: string, { opensInput = false } = {}): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('F1');
    await this.quickInput().waitFor({ state: 'visible' });
    await this.quickInput().fill(`>${title}`);
    // The palette also lists near matches ("Browse Color Themes…"): pick the row whose label is exactly the title.
    const row = this.page
      .locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }) })
      .first();
    await row.waitFor({ state: 'visible' });
    await row.click();
    if (opensInput) {
      // The command's own picker replaces the palette: its input no longer starts with ">".
      await this.page.waitForFunction(() => {
        const input = document.querySelector<HTMLInputElement>('.quick-input-widget input.input');
        return !!input && input.offsetParent !== null && !input.value.startsWith('>');
      });
    } else {
      await this.quickInput().waitFor({ state: 'hidden' });
    }
  }

  /** Waits until the status bar shows this language mode ("DeepSpeed Config", "Shell Script", …). */
  async waitForLanguageMode(name: string): Promise<void> {
    await this.page.locator('[id="status.editor.mode"]', { hasText: name }).waitFor({ state: 'visible' });
  }

  /**
   * Opens the Problems panel (Ctrl+Shift+M), optionally types `filter` into its filter box, and reads
   * its rows once `accept` holds.
   */
  async problems(accept: (problems: Problem[]) => boolean = (p) => p.length > 0, filter?: string, timeout = WAIT): Promise<Problem[]> {
    const panel = this.page.locator('.markers-panel');
    if (!(await panel.isVisible())) await this.page.keyboard.press('Control+Shift+M');
    await panel.waitFor({ state: 'visible' });
    if (filter !== undefined) {
      const box = this.page.locator('.markers-panel-action-filter input, .viewpane-filter input').first();
      await box.fill(filter);
    }
    const problems = await poll(() => this.readProblems(), accept, { timeoutMs: timeout, pauseMs: 300 });
    if (accept(problems)) return problems;
    const shown = problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.severity} ${p.message} (${p.source} ${p.code})`);
    throw new Error(`The Problems panel never showed what was expected. It shows:\n${shown.join('\n')}`);
  }

  private async readProblems(): Promise<Problem[]> {
    const rows = this.page.locator('.markers-panel .monaco-list-row');
    const raw = await rows.evaluateAll((nodes) =>
      nodes
        .map((node) => ({
          index: Number(node.getAttribute('data-index')),
          label: node.getAttribute('aria-label') ?? '',
          icon: node.querySelector('.marker-icon')?.className ?? '',
          message: (node.querySelector('.marker-message') as HTMLElement | null)?.innerText ?? '',
          source: (node.querySelector('.marker-source') as HTMLElement | null)?.innerText ?? '',
          code: (node.querySelector('.marker-code') as HTMLElement | null)?.innerText ?? '',
          position: (node.querySelector('.marker-line') as HTMLElement | null)?.innerText ?? '',
        }))
        .sort((a, b) => a.index - b.index),
    );
    const problems: Problem[] = [];
    let file = '';
    for (const row of raw) {
      const header = /problems? in file (.+?) of folder/.exec(row.label);
      if (header) {
        file = header[1]!;
        continue;
      }
      const position = /Ln (\d+), Col (\d+)/.exec(row.position);
      if (!position) continue;
      problems.push({
        file,
        severity: row.icon.includes('error') ? 'error' : row.icon.includes('warning') ? 'warning' : 'info',
        message: normalize(row.message).trim(),
        source: normalize(row.source).trim(),
        code: normalize(row.code).trim(),
        line: Number(position[1]),
        column: Number(position[2]),
      });
    }
    return problems;
  }

  /** Shows a view container from the activity bar by its title, e.g. "ZeRO Lens". */
  async openActivity(title: string): Promise<void> {
    const item = this.page.locator('.part.activitybar .action-item', { has: this.page.locator(`[aria-label^="${title}"]`) }).first();
    await item.waitFor({ state: 'visible' });
    // Clicking an already open container would close it.
    if (!((await item.getAttribute('class')) ?? '').includes('checked')) await item.click();
    await this.page.locator('.part.activitybar .action-item.checked', { has: this.page.locator(`[aria-label^="${title}"]`) }).waitFor({ state: 'visible' });
  }

  /** Hides the primary side bar (Ctrl+B) if it is showing. */
  async closeSidebar(): Promise<void> {
    const sidebar = this.page.locator('.part.sidebar');
    if (await sidebar.isVisible()) {
      await this.runCommand('View: Close Primary Side Bar');
      await sidebar.waitFor({ state: 'hidden' });
    }
  }

  /** Between tests: close widgets and every editor, answering "Don't Save" for unsaved ones. */
  async resetEditors(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.runCommand('View: Close All Editors');
    const dontSave = this.page.locator('.monaco-dialog-box .monaco-button', { hasText: /Don.t Save/ });
    const tabs = this.page.locator('.part.editor .tab');
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (await tabs.count()) > 0) {
      if (await dontSave.isVisible()) await dontSave.click();
      await this.page.waitForTimeout(100);
    }
  }

  /** Text of the visible notification toasts (errors from activation show up here). */
  async notifications(): Promise<string[]> {
    return (await this.page.locator('.notifications-toasts .notification-toast').allInnerTexts()).map(normalize);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
