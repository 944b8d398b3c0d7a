/**
 * Every edit ZeRO Lens offers on the corpus's real files (ds_configs, launch scripts, accelerate, LLaMA-Factory
 * and ms-swift YAML, FSDP and ms-swift argument JSON), each also written with CRLF line ends, tab indentation, a
 * UTF-8 BOM, no final newline and Chinese comments (one of them per file, in turn): the quick fixes of every diagnostic, the stage and preset
 * moves offered without one, "Fix all" and the sidebar's apply-option edit. Each must keep what it does not
 * change as the user wrote it (line ends, BOM, final newline, indentation, non-ASCII lines, comments), leave the
 * file parsing as well as before, and not be offered again with another result once applied.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse, type ParseError } from 'jsonc-parser';
import { parseAllDocuments } from 'yaml';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { CodeAction, CompletionItem, CompletionList, Diagnostic, Range, TextEdit } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { withDefaults } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from '../unit/context-hosts';
import { assertLineEndsKept, checkConfigAction, checkScriptAction, editsOf } from './fixCheck';

const corpus = path.resolve(__dirname, '../corpus');
const manifest = JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { file: string; kind: string }[];
const kinds = ['ds-config', 'launch-script', 'accelerate-yaml', 'llamafactory-yaml', 'swift-yaml', 'fsdp-config', 'swift-args-json'];
const settings = withDefaults({ model: 'Qwen/Qwen3-8B', gpusPerNode: 8, gpuMemoryGiB: 24 });
const isJson = (kind: string) => kind === 'ds-config' || kind === 'fsdp-config' || kind.endsWith('json');

/** The variants of a file, each as a user may have written it. */
const variants: [string, (text: string, kind: string) => string][] = [
  ['as written', (t) => t],
  ['CRLF', (t) => t.replace(/\r?\n/g, '\r\n')],
  ['tabs', (t, kind) => (isJson(kind) ? t.replace(/^( {2})+/gm, (m) => '\t'.repeat(m.length / 2)) : t)],
  ['BOM', (t) => '\ufeff' + t],
  ['no final newline', (t) => t.replace(/(\r?\n)+$/, '')],
  [
    'Chinese comments',
    (t, kind) => {
      if (isJson(kind)) return t.replace(/\{/, '{ // 中文注释：显存\n').replace(/,(\r?\n)/, ', // 优化器状态$1');
      const lines = t.split('\n');
      lines.splice(lines[0].startsWith('#!') ? 1 : 0, 0, '# 中文注释：显存与梯度');
      return lines.join('\n');
    },
  ],
];

/**
 * Each file as written and one other variant, turning with the file's place in the manifest: every variant still
 * meets every kind of file, at a third of the cost of all of them on every file (npm test's ten minutes).
 */
function variantsFor(index: number, pool: typeof variants): typeof variants {
  const others = pool.filter(([v]) => v !== 'as written');
  const picked = others[index % others.length];
  return pool.filter((v) => v[0] === 'as written' || v === picked);
}

function parseErrors(text: string, kind: string): number {
  if (kind === 'launch-script') return 0;
  if (isJson(kind)) {
    const errors: ParseError[] = [];
    parse(text.replace(/^\ufeff/, ' '), errors, { allowTrailingComma: true });
    return errors.length;
  }
  return parseAllDocuments(text.replace(/^\ufeff/, '')).reduce((n, d) => n + ('errors' in d ? d.errors.length : 0), 0);
}

/** What every edit keeps of the text it does not change. */
function checkKept(what: string, kind: string, variant: string, document: TextDocument, edits: TextEdit[], dropsBom = /byte order mark/.test(what)): string {
  const before = document.getText();
  const after = TextDocument.applyEdits(document, edits);
  const show = `${what}\nbefore: ${JSON.stringify(before.slice(0, 400))}\nafter:  ${JSON.stringify(after.slice(0, 400))}`;
  // The BOM's own fix (the HF Trainer's json.load refuses it) is the one edit that may remove it.
  if (!dropsBom) assert.equal(after.startsWith('\ufeff'), before.startsWith('\ufeff'), `BOM: ${show}`);
  assert.equal(after.endsWith('\n'), before.endsWith('\n'), `final newline: ${show}`);
  assertLineEndsKept(what, before, after);
  if (!before.includes('\r')) assert.ok(!after.includes('\r'), `a CR in an LF file: ${show}`);
  for (const e of edits) {
    if (variant === 'tabs' && isJson(kind)) assert.doesNotMatch(e.newText, /\n {2,}\S/, `spaces in a tab-indented file: ${show}`);
    if (!/\n\t/.test(before)) assert.doesNotMatch(e.newText, /\n\t/, `a tab in a space-indented file: ${show}`);
  }
  assert.ok(parseErrors(after, kind) <= parseErrors(before, kind), `parses worse: ${show}`);
  return after;
}

async function actionsOf(ls: ReturnType<typeof getLanguageService>, document: TextDocument, diagnostic: Diagnostic): Promise<CodeAction[]> {
  return (await ls.getCodeActions(document, diagnostic.range, { diagnostics: [diagnostic], only: ['quickfix'] }, settings)).filter((a) => a.edit);
}

test('every edit on the corpus files and their CRLF, tab, BOM, no-final-newline and Chinese-comment variants keeps the rest of the file', { timeout: 600_000 }, async () => {
  let documents = 0;
  let checked = 0;
  // Every other corpus file (every kind keeps several): npm test's ten minutes.
  for (const [index, entry] of manifest.filter((e) => kinds.includes(e.kind)).filter((_, i) => i % 2 === 0).entries()) {
    const original = readFileSync(path.join(corpus, entry.file), 'utf8');
    const name = path.basename(entry.file);
    const uri = URI.file(path.join(workspaceRoot, name)).toString();
    const languageId = isJson(entry.kind) ? 'json' : entry.kind === 'launch-script' ? 'shellscript' : 'yaml';
    for (const [variant, make] of variantsFor(index, variants)) {
      const text = make(original, entry.kind);
      if (variant !== 'as written' && text === original) continue;
      const ls = getLanguageService(memoryHosts({}));
      const document = TextDocument.create(uri, languageId, 1, text);
      documents++;
      const where = `${entry.file} (${variant})`;
      const diagnostics = await ls.doValidation(document, settings);
      const check = (action: CodeAction, diagnostic: Diagnostic | undefined): string => {
        checked++;
        if (entry.kind === 'ds-config') checkConfigAction(document, action, diagnostic);
        else if (entry.kind === 'launch-script' && diagnostic) checkScriptAction(document, action, diagnostic);
        return checkKept(`"${action.title}" on ${where}`, entry.kind, variant, document, editsOf(action, uri));
      };
      for (const diagnostic of diagnostics) {
        for (const action of await actionsOf(ls, document, diagnostic)) {
          const after = check(action, diagnostic);
          // Applied, the same fix of the same finding is gone or changes nothing more.
          const again = TextDocument.create(uri, languageId, 2, after);
          const fresh = getLanguageService(memoryHosts({}));
          for (const d of (await fresh.doValidation(again, settings)).filter((d) => d.code === diagnostic.code && d.message === diagnostic.message)) {
            for (const second of (await actionsOf(fresh, again, d)).filter((a) => a.title === action.title)) {
              assert.equal(TextDocument.applyEdits(again, editsOf(second, uri)), after, `"${action.title}" is offered again on ${where}`);
            }
          }
        }
      }
      // The moves offered where the stage or the DeepSpeed reference is written, without a diagnostic.
      const lines = text.split('\n');
      for (let line = 0; line < lines.length; line++) {
        const at = lines[line].search(/stage|deepspeed/i);
        if (at < 0) continue;
        const position = { line, character: at + 1 };
        for (const action of await ls.getCodeActions(document, { start: position, end: position }, { diagnostics: [], only: ['quickfix'] }, settings)) {
          if (action.edit) check(action, undefined);
        }
      }
      // "Fix all", and once more on its result: nothing left to do.
      const all = { start: { line: 0, character: 0 }, end: document.positionAt(text.length) };
      for (const action of await ls.getCodeActions(document, all, { diagnostics, only: ['source.fixAll.zeroLens'] }, settings)) {
        if (!action.edit) continue;
        checked++;
        const bomFix = diagnostics.some((d) => d.code === 'utf8-bom');
        const after = checkKept(`"Fix all" on ${where}`, entry.kind, variant, document, editsOf(action, uri), bomFix);
        const again = TextDocument.create(uri, languageId, 2, after);
        const fresh = getLanguageService(memoryHosts({}));
        const rest = await fresh.doValidation(again, settings);
        const range = { start: { line: 0, character: 0 }, end: again.positionAt(after.length) };
        for (const second of await fresh.getCodeActions(again, range, { diagnostics: rest, only: ['source.fixAll.zeroLens'] }, settings)) {
          if (second.edit) assert.equal(TextDocument.applyEdits(again, editsOf(second, uri)), after, `"Fix all" twice on ${where}`);
        }
      }
      // The sidebar's Apply.
      for (const option of [{ stage: 0 }, { stage: 1 }, { stage: 2, offloadOptimizer: 'cpu' }, { stage: 3 }, { stage: 3, offloadOptimizer: 'cpu', offloadParam: 'cpu' }] as const) {
        const result = await ls.getApplyOptionEdit(document, { uri, offloadOptimizer: 'none', offloadParam: 'none', ...option }, settings);
        if (!result.edit) continue;
        checked++;
        checkKept(`Apply ${JSON.stringify(option)} on ${where}`, entry.kind, variant, document, result.edit.changes![uri]);
      }
    }
  }
  assert.ok(documents > 300, `${documents} documents`);
  assert.ok(checked > 2_400, `${checked} edits checked`);
  console.log(`checked ${checked} edits on ${documents} documents`);
});

/** An item's edits, its snippet's tab stops at their defaults (an empty value as 0), in the LSP's order. */
function completionEdits(item: CompletionItem, defaults: CompletionList['itemDefaults']): TextEdit[] {
  const main = (item.textEdit as TextEdit | undefined) ?? { range: defaults!.editRange as Range, newText: item.textEditText ?? item.insertText ?? item.label };
  const snippet = (item.insertTextFormat ?? defaults?.insertTextFormat) === 2;
  const newText = snippet
    ? main.newText.replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, '$1').replace(/\$\{\d+:([^}]*)\}/g, '$1').replace(/(: |\[)\$\d+/g, '$10').replace(/\$\d+/g, '').replace(/\\([$}\\])/g, '$1')
    : main.newText;
  return [{ range: main.range, newText }, ...(item.additionalTextEdits ?? [])];
}

test('key completions on the corpus configs (CRLF, tabs, Chinese comments), on a new line or at a line end, leave valid JSON and every comment', { timeout: 600_000 }, async () => {
  let items = 0;
  const ls = getLanguageService(memoryHosts({}));
  for (const [index, entry] of manifest.filter((e) => e.kind === 'ds-config').entries()) {
    const original = readFileSync(path.join(corpus, entry.file), 'utf8');
    for (const [variant, make] of variantsFor(index, variants.filter(([v]) => v !== 'BOM' && v !== 'no final newline'))) {
      const text = make(original, entry.kind);
      if (variant !== 'as written' && text === original) continue;
      if (parseErrors(text, entry.kind) > 0) continue;
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      const lines = text.split(eol);
      for (let line = 1; line < lines.length - 1; line += Math.max(1, Math.floor(lines.length / 6))) {
        const indent = /^[ \t]*/.exec(lines[line])![0];
        const cases = [
          { text: [...lines.slice(0, line + 1), indent, ...lines.slice(line + 1)].join(eol), position: { line: line + 1, character: indent.length } },
          { text, position: { line, character: lines[line].length } },
        ];
        for (const at of cases) {
          const document = TextDocument.create(`file:///ws/${path.basename(entry.file)}`, 'json', 1, at.text);
          const list = await ls.doComplete(document, at.position, settings);
          const picked = [...list.items.filter((i) => i.kind !== 15).slice(0, 2), ...list.items.filter((i) => i.kind === 15).slice(0, 1)];
          for (const item of picked) {
            items++;
            const after = TextDocument.applyEdits(document, completionEdits(item, list.itemDefaults));
            const where = `"${item.label}" at ${at.position.line}:${at.position.character} of ${entry.file} (${variant})`;
            assert.ok(parseErrors(after, entry.kind) === 0, `${where}:\n${after}`);
            for (const comment of at.text.match(/\/\/[^\r\n]*/g) ?? []) assert.ok(after.includes(comment), `${where} loses ${comment}`);
          }
        }
      }
    }
  }
  assert.ok(items > 5000, `${items} items`);
  console.log(`applied ${items} completion items`);
});
