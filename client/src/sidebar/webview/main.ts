/**
 * The sidebar webview: renders validated messages from the extension and sends intents back.
 * State (the last picture, the catalog, open sections) survives hide/show via getState/setState.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import './sidebar.css';
import { parseHostMessage, parseWebviewStrings, type CatalogEntry, type HostUpdate, type WebviewMessage, type WebviewStrings } from '../messages';
import { renderChart } from './chart';
import { button, h, icon } from './dom';
import { ContextForm } from './inputs';
import { renderTable } from './table';
import { historyStepOf } from './historyKeys';

interface VsCodeApi<S> {
  postMessage(message: WebviewMessage): void;
  getState(): S | undefined;
  setState(state: S): void;
}
declare function acquireVsCodeApi<S>(): VsCodeApi<S>;

interface SavedState {
  update?: HostUpdate;
  catalog?: CatalogEntry[];
  contextOpen?: boolean;
}

const vscode = acquireVsCodeApi<SavedState>();
let state: SavedState = vscode.getState() ?? {};
const save = (patch: Partial<SavedState>) => {
  state = { ...state, ...patch };
  vscode.setState(state);
};

const root = document.getElementById('zl-root')!;
// The words the extension translated for this page (html.ts); without them there is nothing to say.
const strings: WebviewStrings = readStrings(root);
const heading = h('header', { class: 'zl-header' });
const status = h('p', { class: 'zl-status', role: 'status', 'aria-live': 'polite' });
const notice = h('p', { class: 'zl-notice', role: 'status', 'aria-live': 'polite', hidden: true });
const picture = h('section', { class: 'zl-picture', 'aria-label': strings.picture });
const numbers = h('section', { class: 'zl-numbers', 'aria-label': strings.numbers });
const form = new ContextForm(strings, {
  setSetting: (key, value) => vscode.postMessage({ type: 'setSetting', key, value }),
  pickModelFolder: () => vscode.postMessage({ type: 'pickModelFolder' }),
  openSettings: () => vscode.postMessage({ type: 'openSettings' }),
});
const context = h('vscode-collapsible', { heading: strings.trainingContext, class: 'zl-context', open: state.contextOpen ?? true }, [form.element]);
context.addEventListener('vsc-collapsible-toggle', (event) => save({ contextOpen: !!(event as CustomEvent<{ open?: boolean }>).detail?.open }));
root.replaceChildren(heading, status, notice, picture, numbers, context);
document.addEventListener('keydown', (event) => {
  const step = historyStepOf(event);
  if (!step) return;
  event.preventDefault();
  vscode.postMessage({ type: step });
});

function readStrings(element: HTMLElement): WebviewStrings {
  const parsed = parseWebviewStrings(JSON.parse(element.dataset.strings ?? 'null'));
  if (!parsed) throw new Error('ZeRO Lens sidebar: the page has no strings');
  return parsed;
}

function render(update: HostUpdate): void {
  const { vm } = update;
  // While a new answer is on its way, keep the old picture and only mark the view busy.
  root.setAttribute('aria-busy', vm.status === 'loading' ? 'true' : 'false');
  if (vm.status === 'loading' && state.update?.vm.status === 'ready' && state.update.vm.uri === vm.uri) return;

  const refresh = button({ secondary: true, icon: 'refresh', 'aria-label': strings.refresh, title: strings.refresh });
  refresh.addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
  heading.replaceChildren(
    h('div', { class: 'zl-file' }, [
      icon('file'),
      h('strong', {}, [vm.fileName ?? strings.noFile]),
      vm.kindLabel ? h('span', { class: 'zl-kind' }, [vm.kindLabel]) : null,
    ]),
    refresh,
  );
  status.textContent = vm.message;
  status.hidden = vm.message === '';

  const focused = focusKey();
  picture.replaceChildren(
    ...[
      renderChart(vm, strings, {
        apply: (option, applyButton) => {
          applyButton.setAttribute('disabled', '');
          vscode.postMessage({ type: 'apply', option });
        },
      }),
    ].filter((n): n is HTMLElement => n !== null),
  );
  const table = renderTable(vm, strings);
  numbers.replaceChildren(...(table ? [table] : []));
  numbers.hidden = !table;
  restoreFocus(focused);
  form.update(vm, update.settings);
  save({ update });
}

/** The focused segment (bar + role) or apply button, so a refresh does not throw keyboard users out. */
function focusKey(): string | null {
  const active = document.activeElement as HTMLElement | null;
  if (!active || !picture.contains(active)) return null;
  const bar = active.closest<HTMLElement>('[data-key]');
  return bar ? `${bar.dataset.key}|${active.dataset.role ?? 'apply'}` : null;
}

function restoreFocus(key: string | null): void {
  if (!key) return;
  const [bar, role] = key.split('|');
  const target =
    role === 'apply'
      ? picture.querySelector<HTMLElement>(`[data-testid="zl-apply"][data-key="${CSS.escape(bar)}"]`)
      : picture.querySelector<HTMLElement>(`.zl-track[data-key="${CSS.escape(bar)}"] [data-role="${CSS.escape(role)}"]`);
  if (!target) return;
  target.tabIndex = 0;
  target.focus();
}

let noticeTimer: ReturnType<typeof setTimeout> | undefined;
function showNotice(level: 'info' | 'error', text: string): void {
  notice.textContent = text;
  notice.hidden = false;
  notice.classList.toggle('zl-notice-error', level === 'error');
  notice.setAttribute('role', level === 'error' ? 'alert' : 'status');
  clearTimeout(noticeTimer);
  if (level === 'info') noticeTimer = setTimeout(() => (notice.hidden = true), 6000);
  // A failed apply re-enables its button.
  picture.querySelectorAll<HTMLElement>('[data-testid="zl-apply"]:not([data-current="true"])').forEach((button) => button.removeAttribute('disabled'));
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = parseHostMessage(event.data);
  if (!parsed.ok) return;
  const message = parsed.value;
  switch (message.type) {
    case 'update':
      render(message);
      break;
    case 'catalog':
      form.setCatalog(message.entries);
      save({ catalog: message.entries });
      break;
    case 'notice':
      showNotice(message.level, message.text);
      break;
  }
});

if (state.catalog) form.setCatalog(state.catalog);
// Saved state is re-validated: it may come from an older version of this view.
const saved = state.update ? parseHostMessage(state.update) : undefined;
if (saved?.ok && saved.value.type === 'update') render(saved.value);
vscode.postMessage({ type: 'ready' });
