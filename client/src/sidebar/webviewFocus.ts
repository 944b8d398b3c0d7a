/**
 * Giving the sidebar the focus back right after the editor took it can fail: VS Code learns that a webview
 * lost the focus by polling it every 250 ms (trackFocus in vs/workbench/contrib/webview/browser/pre/index.html),
 * and a blur reported after a focus request cancels that request's inner half (WebviewElement focus: the
 * 50 ms delayed step returns when !isFocused). The keys then go nowhere. Asking after one poll has certainly
 * run avoids the race.
 */
import * as vscode from 'vscode';

const WEBVIEW_FOCUS_POLL_MS = 250;
const FOCUS_SETTLE_MS = 2 * WEBVIEW_FOCUS_POLL_MS;
/** How late the window's report of a click or key in an editor may reach the extension host under load. */
const LATE_REPORT_MS = 1000;

function userMovedIn(event: vscode.TextEditorSelectionChangeEvent): boolean {
  return event.kind === vscode.TextEditorSelectionChangeKind.Mouse || event.kind === vscode.TextEditorSelectionChangeKind.Keyboard;
}

/**
 * Waits until VS Code has certainly seen the webview lose the focus, and says whether the focus may go back to
 * it: not when the user has clicked or typed in an editor meanwhile, moving its cursor (their next keys are meant
 * for that editor). A click that leaves the cursor where it was sends no event and is not seen.
 */
export function afterWebviewBlurIsSeen(): Promise<boolean> {
  return new Promise((resolve) => {
    let userMoved = false;
    const watch = vscode.window.onDidChangeTextEditorSelection((event) => {
      if (userMovedIn(event)) userMoved = true;
    });
    setTimeout(() => {
      watch.dispose();
      resolve(!userMoved);
    }, FOCUS_SETTLE_MS);
  });
}

/**
 * Gives `show` the focus, and takes it back to an editor whose click or key VS Code reports only afterwards: the
 * report travels from the window to the extension host and, under load, arrives after the settle time, though the
 * user clicked before the sidebar took the focus (with the sidebar focused, no click or key moves an editor's
 * cursor). The user's editor keeps the focus they gave it either way.
 */
export async function focusBackUnlessUserMoved(show: () => void): Promise<void> {
  show();
  await new Promise<void>((resolve) => {
    const watch = vscode.window.onDidChangeTextEditorSelection((event) => {
      if (!userMovedIn(event)) return;
      done();
      const { document, viewColumn } = event.textEditor;
      void vscode.window.showTextDocument(document, { viewColumn, preserveFocus: false });
    });
    const timer = setTimeout(() => done(), LATE_REPORT_MS);
    const done = () => {
      clearTimeout(timer);
      watch.dispose();
      resolve();
    };
  });
}
