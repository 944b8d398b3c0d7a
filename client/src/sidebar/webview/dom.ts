/**
 * A tiny element builder. Text always goes through textContent and attributes through setAttribute,
 * so no message can inject markup; `on*` attributes are refused (handlers are attached in code).
 */
import type webviewIcons from './icons.json';

/**
 * A codicon the sidebar shows. The build ships a font holding only the glyphs that icons.json lists
 * (scripts/lib/codiconSubset.mjs), so a name outside it would draw nothing.
 */
export type WebviewIcon = keyof typeof webviewIcons;

export type Attrs = Record<string, string | number | boolean | null | undefined>;
export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs, children?: Child[]): HTMLElementTagNameMap[K];
export function h(tag: string, attrs?: Attrs, children?: Child[]): HTMLElement;
export function h(tag: string, attrs: Attrs = {}, children: Child[] = []): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (/^on/i.test(name)) throw new Error(`inline handler attribute ${name} refused`);
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

export function icon(name: WebviewIcon): HTMLElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

/**
 * A vscode-button with `icon` drawn before its label, or alone (`icon-only`). The glyph is a span of the page's own
 * (slotted into the button), not the element's `icon` attribute: that draws it in the button's shadow root, which
 * loads the codicon stylesheet again for each new button, and every render builds new buttons, so the glyphs
 * blinked out until it had loaded (seen in a screenshot taken right after one).
 */
export function button(attrs: Attrs & { icon?: WebviewIcon }, children: Child[] = []): HTMLElement {
  const { icon: name, ...rest } = attrs;
  const label = children.some((child) => child !== null && child !== undefined && child !== false);
  if (!name) return h('vscode-button', rest, children);
  const glyph = icon(name);
  if (!label) return h('vscode-button', { ...rest, 'icon-only': true }, [glyph]);
  glyph.setAttribute('slot', 'content-before');
  return h('vscode-button', rest, [glyph, ...children]);
}

/** Only theme variables reach inline colour properties (set through the CSSOM, which the CSP allows). */
export function themeColor(variable: string): string {
  return /^--vscode-[A-Za-z0-9-]+$/.test(variable) ? `var(${variable})` : 'var(--vscode-foreground)';
}

/** A fraction (0..1) as a CSS percentage, clamped so bad numbers cannot break the layout. */
export function percent(fraction: number): string {
  const value = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  return `${(value * 100).toFixed(3)}%`;
}
