/**
 * The sidebar's HTML shell: a strict Content-Security-Policy, one nonce'd module script, the bundled
 * stylesheet and the codicon stylesheet. Pure, so the policy is tested without an editor.
 * Everything visible is built by the script from validated messages, in words the extension translated and
 * wrote into the page (`data-strings` on the root element, JSON the script reads).
 */
import { randomBytes } from 'node:crypto';
import { english, type Translate } from '../../../server/src/protocol';
import { webviewStrings } from './webviewStrings';

export interface SidebarHtmlInput {
  /** `webview.cspSource`: the origin of the extension's local resources. */
  cspSource: string;
  nonce: string;
  /** `asWebviewUri` strings of dist/webview.js, dist/webview.css and dist/codicon.css. */
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  /** VS Code's display language (`vscode.env.language`), for the page's `lang` (default `en`). */
  lang?: string;
  /** The reader's translator (`vscode.l10n.t`); English by default. */
  t?: Translate;
}

/** 32 alphanumerics from a CSPRNG, new for every render. */
export function createNonce(): string {
  return randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, '').padEnd(32, '0').slice(0, 32);
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join('; ');
}

export function buildSidebarHtml(input: SidebarHtmlInput): string {
  const { nonce } = input;
  const t = input.t ?? english;
  const attr = escapeAttribute;
  return `<!DOCTYPE html>
<html lang="${attr(input.lang ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(input.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link id="vscode-codicon-stylesheet" rel="stylesheet" nonce="${attr(nonce)}" href="${attr(input.codiconUri)}">
<link rel="stylesheet" nonce="${attr(nonce)}" href="${attr(input.styleUri)}">
<title>${text(t('ZeRO Lens memory'))}</title>
</head>
<body>
<main id="zl-root" aria-busy="true" data-strings="${attr(JSON.stringify(webviewStrings(t)))}">
<p class="zl-status" role="status">${text(t('Loading the memory estimate…'))}</p>
</main>
<script type="module" nonce="${attr(nonce)}" src="${attr(input.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
