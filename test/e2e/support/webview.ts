/**
 * Webviews sit two iframes deep in VS Code: the host frame (iframe.webview) and the content frame
 * (#active-frame) that holds the extension's HTML.
 */
import type { FrameLocator, Page } from 'playwright-core';

/** The content frame of the webview whose host frame is visible (the open sidebar). */
export function webviewContent(page: Page): FrameLocator {
  return page.locator('iframe.webview.ready:visible').first().contentFrame().locator('iframe#active-frame').contentFrame();
}
