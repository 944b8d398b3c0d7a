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

/**
 * Waits until VS Code has certainly seen the webview lose the focus, and says whether the focus may go back to
 * it: not when the user has clicked or typed in an editor meanwhile, moving its cursor (their next keys are meant
 * for that editor). A click that leaves the cursor where it was sends no event and is not seen.
 */
export function afterWebviewBlurIsSeen(): Promise<boolean> {
  return new Promise((resolve) => {
    let userMoved = false;
    const watch = vscode.window.onDidChangeTextEditorSelection((event) => {
      if (event.kind === vscode.TextEditorSelectionChangeKind.Mouse || event.kind === vscode.TextEditorSelectionChangeKind.Keyboard) userMoved = true;
    });
    setTimeout(() => {
      watch.dispose();
      resolve(!userMoved);
    }, FOCUS_SETTLE_MS);
  });
}
