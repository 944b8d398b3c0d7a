// The codicon font and stylesheet the sidebar webview loads, cut down to the icons it shows
// (client/src/sidebar/webview/icons.json): the whole font and stylesheet take 67 KiB of the VSIX, these few glyphs 2.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import subsetFont from 'subset-font';
import { repoRoot } from './paths.mjs';

export const iconListFile = path.join(repoRoot, 'client/src/sidebar/webview/icons.json');
const codiconsDist = path.join(repoRoot, 'node_modules/@vscode/codicons/dist');

/** The icon names the webview is typed against. */
export function webviewIconNames() {
  return Object.keys(JSON.parse(readFileSync(iconListFile, 'utf8')));
}

/** Every `.codicon-NAME:before { content: "\XXXX" }` of the upstream stylesheet, as NAME → code point. */
export function codePoints(css) {
  const points = new Map();
  for (const match of css.matchAll(/\.codicon-([\w-]+):before\s*\{\s*content:\s*"\\([0-9a-fA-F]+)"\s*\}/g)) points.set(match[1], parseInt(match[2], 16));
  return points;
}

/**
 * The upstream stylesheet's head (licence, @font-face, the base `.codicon` rule), up to its modifiers and icons:
 * the modifiers only concern icons the webview does not ship (sync, loading, gear).
 */
function stylesheetHead(css) {
  const end = css.search(/\/\*-+\s*\*\s*Modifiers/);
  if (end < 0) throw new Error('@vscode/codicons: codicon.css has no Modifiers section to cut at');
  return css.slice(0, end).trimEnd();
}

/** The subset font (TrueType) and its stylesheet for `names`; the same inputs give the same bytes. */
export async function buildCodiconSubset(names = webviewIconNames()) {
  const css = readFileSync(path.join(codiconsDist, 'codicon.css'), 'utf8');
  const points = codePoints(css);
  const unknown = names.filter((name) => !points.has(name));
  if (unknown.length) throw new Error(`${path.relative(repoRoot, iconListFile)}: no codicon named ${unknown.join(', ')} in @vscode/codicons`);
  const text = String.fromCodePoint(...names.map((name) => points.get(name)));
  const ttf = await subsetFont(readFileSync(path.join(codiconsDist, 'codicon.ttf')), text, { targetFormat: 'truetype' });
  const hash = createHash('md5').update(ttf).digest('hex');
  const head = stylesheetHead(css).replace(/url\("\.\/codicon\.ttf\?[0-9a-f]*"\)/, `url("./codicon.ttf?${hash}")`);
  if (!head.includes(hash)) throw new Error('@vscode/codicons: codicon.css has no @font-face url("./codicon.ttf?…") to point at the subset');
  const rules = names.map((name) => `.codicon-${name}:before { content: "\\${points.get(name).toString(16)}" }`);
  return { ttf, css: `${head}\n\n${rules.join('\n')}\n` };
}
