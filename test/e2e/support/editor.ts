/**
 * The active text editor, seen and driven as a user would: tokens found on screen, the mouse for hover,
 * the keyboard for completion and quick fixes.
 */
import type { Locator, Page } from 'playwright-core';
import { poll } from './poll';

const WAIT = 20_000;

/** Monaco renders spaces as U+00A0; tests compare with normal spaces. */
export function normalize(text: string): string {
  return text.replace(/\u00a0/g, ' ');
}

export class Editor {
  constructor(private readonly page: Page) {}

  get root(): Locator {
    return this.page.locator('.part.editor .editor-group-container.active .monaco-editor').first();
  }

  /** The rendered lines, top to bottom, including injected text such as inlay hints. */
  async visibleLines(): Promise<string[]> {
    const lines = await this.root.locator('.view-lines .view-line').evaluateAll((nodes) =>
      nodes
        .map((node) => ({ top: parseFloat((node as HTMLElement).style.top || '0'), text: (node as HTMLElement).innerText }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text),
    );
    return lines.map(normalize);
  }

  async visibleText(): Promise<string> {
    return (await this.visibleLines()).join('\n');
  }

  /** Waits until the rendered text satisfies `accept`; returns it. */
  async waitForText(accept: (text: string) => boolean, what: string, timeout = WAIT): Promise<string> {
    const text = await poll(() => this.visibleText(), accept, { timeoutMs: timeout, pauseMs: 200 });
    if (accept(text)) return text;
    throw new Error(`Editor never showed ${what}. It shows:\n${text}`);
  }

  /** Puts the cursor at 1-based line:column with Ctrl+G. */
  async goTo(line: number, column = 1): Promise<void> {
    await this.root.click({ position: { x: 5, y: 5 } }).catch(() => undefined);
    await this.page.keyboard.press('Control+G');
    const input = this.page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: WAIT });
    await input.fill(`:${line}:${column}`);
    await this.page.keyboard.press('Enter');
    await input.waitFor({ state: 'hidden', timeout: WAIT });
  }

  /**
   * Where a token is drawn: the `nth` rendered line containing `lineContains`, then `token` at or after it.
   * Measured with a DOM Range, so it works however the grammar splits the line into spans.
   */
  async tokenBox(token: string, lineContains = token, nth = 0): Promise<{ x: number; y: number; width: number; height: number } | null> {
    return this.root.evaluate(
      (root, [token, lineContains, nth]) => {
        // No named helpers in here: the test transpiler would wrap them in a __name() the page lacks.
        const lines = Array.from(root.querySelectorAll<HTMLElement>('.view-lines .view-line'))
          .sort((a, b) => parseFloat(a.style.top || '0') - parseFloat(b.style.top || '0'))
          .filter((line) => (line.textContent ?? '').replace(/\u00a0/g, ' ').includes(lineContains as string));
        const line = lines[nth as number];
        if (!line) return null;
        const text = (line.textContent ?? '').replace(/\u00a0/g, ' ');
        const start = text.indexOf(token as string, text.indexOf(lineContains as string));
        const end = start + (token as string).length;
        const range = document.createRange();
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        let seen = 0;
        let startSet = false;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const length = node.textContent?.length ?? 0;
          if (!startSet && start < seen + length) {
            range.setStart(node, start - seen);
            startSet = true;
          }
          if (startSet && end <= seen + length) {
            range.setEnd(node, end - seen);
            break;
          }
          seen += length;
        }
        const rect = range.getBoundingClientRect();
        return rect.width > 0 ? { x: rect.x, y: rect.y, width: rect.width, height: rect.height } : null;
      },
      [token, lineContains, nth] as const,
    );
  }

  /** Waits until the token is drawn; returns its box. */
  async waitForToken(token: string, lineContains = token, nth = 0): Promise<{ x: number; y: number; width: number; height: number }> {
    const box = await poll(() => this.tokenBox(token, lineContains, nth), (b) => !!b, { timeoutMs: WAIT, pauseMs: 200 });
    if (box) return box;
    throw new Error(`The editor never showed ${token}${lineContains !== token ? ` on a line with ${lineContains}` : ''}`);
  }

  /**
   * Moves the mouse onto a token and returns the hover's text once it satisfies `accept`
   * (the first hover may be a problem's, or "Loading…").
   */
  async hover(token: string, accept: (hover: string) => boolean = (h) => h.trim().length > 0, lineContains = token): Promise<string> {
    const hoverWidget = this.page.locator('.monaco-hover:not(.hidden)');
    const deadline = Date.now() + WAIT;
    let last = '';
    for (let attempt = 0; Date.now() < deadline; attempt++) {
      const box = await this.waitForToken(token, lineContains);
      await this.page.mouse.move(box.x + box.width / 2 + (attempt % 3) - 1, box.y + box.height / 2);
      try {
        await hoverWidget.first().locator('.monaco-hover-content').waitFor({ state: 'visible', timeout: 3_000 });
        // The content can still be "Loading…" for a moment.
        const until = Date.now() + 3_000;
        while (Date.now() < until) {
          last = normalize((await hoverWidget.allInnerTexts()).join('\n'));
          if (accept(last) && !/^\s*Loading/.test(last)) return last;
          await this.page.waitForTimeout(200);
        }
      } catch {
        // Not shown yet: move away and back.
      }
      await this.page.mouse.move(box.x + box.width / 2, Math.max(0, box.y - 300));
      await this.page.waitForTimeout(300);
    }
    throw new Error(`No matching hover on ${token}. Last hover:\n${last}`);
  }

  hoverLocator(): Locator {
    return this.page.locator('.monaco-hover:not(.hidden)').first();
  }

  /** Ctrl+Space, then the labels the suggest widget shows (after `accept` holds). */
  async complete(accept: (labels: string[]) => boolean = (l) => l.length > 0): Promise<string[]> {
    const rows = this.page.locator('.editor-widget.suggest-widget.visible .monaco-list-row');
    return this.readList({
      key: 'Control+Space',
      rows,
      // Let the widget settle: a language server answers after the word-based suggestions.
      settleMs: 500,
      read: async () => (await rows.locator('.label-name').allInnerTexts()).map(normalize),
      accept,
      failure: (labels) => `Completion never offered what was expected. Last labels: ${labels.join(', ')}`,
    });
  }

  /**
   * The documentation pane of the focused suggestion (Ctrl+Space again toggles it), once `accept` holds.
   * The language server sends documentation on resolve, so this is where a lazy answer shows or not.
   */
  async suggestionDetails(accept: (text: string) => boolean): Promise<string> {
    const details = this.page.locator('.suggest-details-container .suggest-details');
    const read = async () => {
      if (!(await details.isVisible())) await this.page.keyboard.press('Control+Space');
      await this.page.waitForTimeout(300);
      return normalize(await details.innerText().catch(() => ''));
    };
    const text = await poll(read, accept, { timeoutMs: WAIT, pauseMs: 0 });
    if (accept(text)) return text;
    throw new Error(`The suggestion's documentation never showed what was expected. Last text: ${text}`);
  }

  /** Ctrl+. at the cursor; returns the titles of the offered code actions (widget left open). */
  async openQuickFixes(accept: (titles: string[]) => boolean = (t) => t.length > 0): Promise<string[]> {
    const rows = this.page.locator('.action-widget .monaco-list-row.action');
    return this.readList({
      key: 'Control+.',
      rows,
      // No lightbulb menu yet means diagnostics may still be on their way: wait before asking again.
      retryPauseMs: 500,
      read: async () => (await rows.allInnerTexts()).map((t) => normalize(t).trim()),
      accept,
      failure: (titles) => `Ctrl+. never offered what was expected. Offered: ${titles.join(' | ') || 'nothing'}`,
    });
  }

  /**
   * Presses `key` to open a list widget and reads its rows until `accept` holds, closing the widget with
   * Escape and asking again otherwise (the server's answer may not be in yet). The widget is left open.
   */
  private async readList(options: {
    key: string;
    rows: Locator;
    read: () => Promise<string[]>;
    accept: (entries: string[]) => boolean;
    failure: (last: string[]) => string;
    settleMs?: number;
    retryPauseMs?: number;
  }): Promise<string[]> {
    const deadline = Date.now() + WAIT;
    let entries: string[] = [];
    while (Date.now() < deadline) {
      await this.page.keyboard.press(options.key);
      try {
        await options.rows.first().waitFor({ state: 'visible', timeout: 5_000 });
        if (options.settleMs) await this.page.waitForTimeout(options.settleMs);
        entries = await options.read();
        if (options.accept(entries)) return entries;
      } catch {
        // Widget not shown yet.
      }
      await this.page.keyboard.press('Escape');
      if (options.retryPauseMs) await this.page.waitForTimeout(options.retryPauseMs);
    }
    throw new Error(options.failure(entries));
  }

  /** Opens the quick fixes and applies the one whose title matches, with the arrow keys and Enter. */
  async applyQuickFix(title: RegExp): Promise<string> {
    const titles = await this.openQuickFixes((t) => t.some((x) => title.test(x)));
    const chosen = titles.find((x) => title.test(x))!;
    const focused = this.page.locator('.action-widget .monaco-list-row.action.focused');
    for (let i = 0; i <= titles.length; i++) {
      const label = normalize((await focused.getAttribute('aria-label').catch(() => null)) ?? '');
      if (label === chosen) {
        await this.page.keyboard.press('Enter');
        await this.page.locator('.action-widget').waitFor({ state: 'hidden', timeout: WAIT }).catch(() => undefined);
        return chosen;
      }
      await this.page.keyboard.press('ArrowDown');
    }
    throw new Error(`Could not focus the quick fix "${chosen}" among: ${titles.join(' | ')}`);
  }

  /** Squiggles drawn in the editor (errors and warnings). */
  squiggles(): Locator {
    return this.root.locator('.squiggly-error, .squiggly-warning, .squiggly-info');
  }

  async save(): Promise<void> {
    await this.page.keyboard.press('Control+S');
    await this.page.locator('.part.editor .tab.active.dirty').waitFor({ state: 'detached', timeout: WAIT });
  }
}
