/**
 * Ctrl+Z and Ctrl+Shift+Z (Cmd on macOS; Ctrl+Y too) pressed in the sidebar. Inside a webview VS Code's own
 * undo does not reach the editor, so after "Apply" the keys would do nothing; the sidebar asks the extension
 * to step its document instead. In a text field the keys keep undoing the typing.
 */
export type HistoryStep = 'undo' | 'redo';

export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** The elements the event passed through, innermost first (Event.composedPath()). */
  composedPath(): unknown[];
}

/** Text entry elements, including the vscode-elements fields whose input sits in a shadow root. */
const textEntry = /^(INPUT|TEXTAREA|VSCODE-TEXTFIELD|VSCODE-TEXTAREA|VSCODE-SINGLE-SELECT)$/;

function isTextEntry(element: unknown): boolean {
  if (!element || typeof element !== 'object') return false;
  const { tagName, isContentEditable } = element as { tagName?: unknown; isContentEditable?: unknown };
  return isContentEditable === true || (typeof tagName === 'string' && textEntry.test(tagName.toUpperCase()));
}

/** The history step a key press asks for, or undefined (other keys, or typing in a field). */
export function historyStepOf(event: KeyPress): HistoryStep | undefined {
  if (event.altKey || event.ctrlKey === event.metaKey) return undefined; // exactly one of Ctrl / Cmd
  const key = event.key.toLowerCase();
  const step = key === 'z' ? (event.shiftKey ? 'redo' : 'undo') : key === 'y' && !event.shiftKey ? 'redo' : undefined;
  if (!step || event.composedPath().some(isTextEntry)) return undefined;
  return step;
}
