/**
 * How many of ms-swift's own example scripts that use `--deepspeed` get a per-GPU estimate when opened with
 * no settings, and what the others are missing. Run by hand against a fetched ms-swift checkout (a git dir):
 *
 *   node --import tsx scripts/catalog/measure-swift-examples.ts <ms-swift git dir> [--rev HEAD] [--json]
 *
 * It extracts `examples/` at the revision into a temporary folder (the workspace, so relative config paths
 * resolve as they do for someone who opened the checkout), then asks the real language service for each
 * script's inlay hints, the way the editor does. Model caches on this machine are hidden (an empty home and
 * environment): the share is what a fresh install shows.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService } from '../../server/src/languageService';
import { nodeFileSystem, NodeWorkspace } from '../../server/src/nodeHost';
import { defaultSettings } from '../../server/src/settings';

interface Outcome {
  file: string;
  estimate?: string;
  /** Why there is no estimate: the analysis' missing inputs and model problem, or why the file is not read. */
  missing?: string;
}

function usage(): never {
  console.error('usage: measure-swift-examples.ts <ms-swift git dir> [--rev REV] [--json]');
  process.exit(2);
}

const args = process.argv.slice(2);
const gitDir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--rev') ?? usage();
const rev = args.includes('--rev') ? args[args.indexOf('--rev') + 1] ?? usage() : 'HEAD';
const asJson = args.includes('--json');

const git = (...gitArgs: string[]) => execFileSync('git', ['-C', gitDir, ...gitArgs], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

async function main(): Promise<void> {
const root = mkdtempSync(path.join(tmpdir(), 'swift-examples-'));
const emptyHome = mkdtempSync(path.join(tmpdir(), 'swift-examples-home-'));
try {
  execFileSync('sh', ['-c', `git -C "$0" archive "$1" examples | tar -x -C "$2"`, gitDir, rev, root]);
  // `git grep -l` exits 1 when nothing matches; treat that as an empty list.
  let listed = '';
  try {
    listed = git('grep', '-l', '-e', '--deepspeed', rev, '--', 'examples');
  } catch {
    listed = '';
  }
  const files = listed.split('\n').filter(Boolean).map((l) => l.slice(rev.length + 1)).sort();

  const fs = { ...nodeFileSystem, homeDir: emptyHome, env: {} };
  const service = getLanguageService({ fs, workspace: new NodeWorkspace([root]) });
  const outcomes: Outcome[] = [];
  for (const file of files) outcomes.push(await measure(file));

  const withEstimate = outcomes.filter((o) => o.estimate).length;
  const share = files.length ? (100 * withEstimate) / files.length : 0;
  if (asJson) {
    console.log(JSON.stringify({ revision: git('rev-parse', rev).trim(), scripts: files.length, withEstimate, share, outcomes }, null, 2));
  } else {
    for (const o of outcomes) console.log(`${o.estimate ? 'estimate' : 'MISSING '}  ${o.file}  ${o.estimate ?? o.missing}`);
    console.log(`\n${withEstimate} of ${files.length} example scripts using --deepspeed show a per-GPU estimate (${share.toFixed(1)}%).`);
  }

  /** The sentence the `--deepspeed` hover gives for a missing estimate ("No memory estimate yet: …"). */
  async function hoverReason(document: TextDocument): Promise<string | undefined> {
    const text = document.getText();
    const flag = text.indexOf('--deepspeed');
    if (flag < 0) return undefined;
    const value = text.slice(flag + '--deepspeed'.length).search(/[^\s=]/);
    const hover = await service.doHover(document, document.positionAt(flag + '--deepspeed'.length + value + 1), defaultSettings);
    const markdown = hover && typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : '';
    return /No memory estimate yet: ([^[\n]*)/.exec(markdown)?.[1]?.trim();
  }

  async function measure(file: string): Promise<Outcome> {
    const absolute = path.join(root, file);
    const language = /\.(sh|bash|zsh)$/.test(file) ? 'shellscript' : /\.ya?ml$/.test(file) ? 'yaml' : 'plaintext';
    const document = TextDocument.create(pathToFileURL(absolute).toString(), language, 1, readFileSync(absolute, 'utf8'));
    if (!service.classify(document, defaultSettings)) return { file, missing: `not a launch script ZeRO Lens reads (${path.extname(file) || 'no extension'})` };
    const whole = { start: { line: 0, character: 0 }, end: document.positionAt(document.getText().length) };
    const hints = await service.getInlayHints(document, whole, defaultSettings);
    const label = hints.map((h) => (typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join(''))).find((l) => /\/GPU/.test(l));
    if (label) return { file, estimate: label.trim() };
    const view = await service.getEstimateView(document, defaultSettings);
    const reasons = [view?.missing.length ? `missing: ${view.missing.join(', ')}` : undefined, await hoverReason(document)].filter(Boolean);
    return { file, missing: reasons.join('; ') || 'no estimate and no reason given' };
  }
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(emptyHome, { recursive: true, force: true });
}
}

void main();
