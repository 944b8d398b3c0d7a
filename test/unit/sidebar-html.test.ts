import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSidebarHtml, contentSecurityPolicy, createNonce } from '../../client/src/sidebar/html';

const cspSource = 'https://file+.vscode-resource.vscode-cdn.net';
const base = `${cspSource}/ext/dist`;
const html = (nonce = createNonce()) =>
  buildSidebarHtml({ cspSource, nonce, scriptUri: `${base}/webview.js`, styleUri: `${base}/webview.css`, codiconUri: `${base}/codicon.css` });

test('a strict Content-Security-Policy meta tag comes first in the head', () => {
  const nonce = createNonce();
  const page = html(nonce);
  const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page);
  assert.ok(meta, 'CSP meta present');
  assert.ok(page.indexOf(meta[0]) < page.indexOf('<link'), 'CSP before any resource');
  const policy = meta[1];
  assert.equal(policy, contentSecurityPolicy(cspSource, nonce));
  const directives = new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  assert.deepEqual(directives.get('default-src'), ["'none'"]);
  assert.deepEqual(directives.get('script-src'), [`'nonce-${nonce}'`]);
  assert.deepEqual(directives.get('style-src'), [cspSource, `'nonce-${nonce}'`]);
  assert.deepEqual(directives.get('font-src'), [cspSource]);
  assert.deepEqual(directives.get('img-src'), [cspSource, 'data:']);
  assert.ok(!policy.includes('unsafe'), 'no unsafe-inline / unsafe-eval');
});

test('every script carries the nonce and loads a local file; there is no inline script', () => {
  const nonce = createNonce();
  const page = html(nonce);
  const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.equal(scripts.length, 1);
  for (const [, attrs, body] of scripts) {
    assert.match(attrs, new RegExp(`nonce="${nonce}"`));
    assert.ok(attrs.includes(`src="${base}/webview.js"`), attrs);
    assert.equal(body.trim(), '', 'no inline script body');
  }
  for (const [tag] of page.matchAll(/<link\b[^>]*>/g)) assert.match(tag, new RegExp(`nonce="${nonce}"`));
  assert.match(page, /<link id="vscode-codicon-stylesheet" rel="stylesheet" nonce="[^"]+" href="[^"]+codicon\.css">/);
});

test('no inline handlers, no inline styles and no remote resources', () => {
  const page = html();
  assert.doesNotMatch(page, /\son[a-z]+\s*=/i);
  assert.doesNotMatch(page, /\sstyle\s*=/i);
  assert.doesNotMatch(page, /<style\b/i);
  assert.doesNotMatch(page, /http:\/\//);
  for (const [, url] of page.matchAll(/(?:src|href)="([^"]*)"/g)) assert.ok(url.startsWith(`${base}/`), `local resource: ${url}`);
  for (const [url] of page.matchAll(/https:\/\/[^\s"'<>;]+/g)) assert.ok(url.startsWith(cspSource), `only the webview resource origin: ${url}`);
});

test('nonces are 32 alphanumerics and differ per render', () => {
  const nonces = new Set(Array.from({ length: 200 }, createNonce));
  assert.equal(nonces.size, 200);
  for (const nonce of nonces) assert.match(nonce, /^[A-Za-z0-9]{32}$/);
});

test('attribute values are escaped', () => {
  const page = buildSidebarHtml({ cspSource, nonce: 'abc', scriptUri: `${base}/a"b.js`, styleUri: `${base}/s.css`, codiconUri: `${base}/c.css` });
  assert.ok(page.includes(`${base}/a&quot;b.js`));
  assert.ok(!page.includes('a"b.js'));
});
