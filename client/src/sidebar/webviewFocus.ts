/**
 * Giving the sidebar the focus back right after the editor took it can fail: VS Code learns that a webview
 * lost the focus by polling it every 250 ms (trackFocus in vs/workbench/contrib/webview/browser/pre/index.html),
 * and a blur reported after a focus request cancels that request's inner half (WebviewElement focus: the
 * 50 ms delayed step returns when !isFocused). The keys then go nowhere. Asking after one poll has certainly
 * run avoids the race.
 */
const WEBVIEW_FOCUS_POLL_MS = 250;
const FOCUS_SETTLE_MS = 2 * WEBVIEW_FOCUS_POLL_MS;

export function afterWebviewBlurIsSeen(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, FOCUS_SETTLE_MS));
}
