/**
 * The message catalog's checks, shared by test/unit/l10n-*.test.ts and a command for people:
 *
 *   npm run l10n -- report [path…]   English literals shown to people outside the catalog (the phase-2 worklist)
 *   npm run l10n -- missing           messages the code uses that l10n/bundle.l10n.zh-cn.json lacks, as a JSON skeleton
 *   npm run l10n -- client-bundle DIR  writes DIR/bundle.l10n.<locale>.json with only the messages dist/client.js uses
 *   npm run l10n -- core-bundle DIR    the same for dist/core.js, keyed by messageHash (server/src/l10n/messageHash.ts)
 *
 * Messages are found with the TypeScript parser: calls of `t(…)`, `l10n.t(…)`, `vscode.l10n.t(…)` and `msg(…)` (a
 * message kept in data, worded where it is shown) whose first argument is a literal (or `{ message, comment }` of
 * literals). The lint flags string and template literals that
 * read as English words and are not catalog messages, log lines, thrown `Error`s, comparisons or keys; a line can
 * opt out with a `// l10n-ignore: <why>` comment on it or above it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import ts from 'typescript';
import { hashedCatalog } from '../server/src/l10n/messageHash';

export const repoRoot = path.resolve(__dirname, '..');

/** Where messages are looked for: every TypeScript source of the server, the CLI, the client and the webview. */
export const sourceRoots = ['server/src', 'client/src'];

export interface MessageUse {
  key: string;
  /** The English text (the key without its comment). */
  message: string;
  file: string;
  line: number;
}

export interface Finding {
  file: string;
  line: number;
  text: string;
}

export interface ScanResult {
  messages: MessageUse[];
  /** `t(x)` with a first argument that is not a literal: a message the checks cannot see. */
  dynamic: Finding[];
  /** English text shown to people that is not a catalog message. */
  literals: Finding[];
}

export function sourceFiles(roots: readonly string[] = sourceRoots): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.ts$/.test(name) && !/\.d\.ts$/.test(name)) out.push(full);
    }
  };
  for (const root of roots) walk(path.join(repoRoot, root));
  return out;
}

const relative = (file: string) => path.relative(repoRoot, file).split(path.sep).join('/');

/** The callee of a translation call: `t`, `x.t`, `l10n.t`, `vscode.l10n.t`, and `msg`, a message kept in data (protocol/l10n.ts). */
function isTranslateCall(node: ts.CallExpression): boolean {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text === 't' || callee.text === 'msg';
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 't';
}

function literalText(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return undefined;
}

function messageOf(call: ts.CallExpression): { key: string; message: string } | undefined {
  const first = call.arguments[0];
  const text = literalText(first);
  if (text !== undefined) return { key: text, message: text };
  if (first && ts.isObjectLiteralExpression(first)) {
    const prop = (name: string) =>
      first.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name)?.initializer;
    const message = literalText(prop('message'));
    const comment = literalText(prop('comment'));
    if (message !== undefined && comment !== undefined) return { key: comment ? `${message}/${comment}` : message, message };
  }
  return undefined;
}

/** Words a reader sees untranslated in every language: names of products, formats, units and hardware. */
const keptWords = new Set(
  'ZeRO Lens DeepSpeed NVMe GiB MiB KiB TiB GPU GPUs CPU CUDA LoRA QLoRA Qwen Llama Hugging Face ModelScope YAML JSON Adam AdamW Ascend RTX Trainer Markdown VS Code'.split(' '),
);

/**
 * Whether a literal reads as English for people: two plain words in a row ("no such file"), or one capitalised
 * word ("Apply", "Folder…"). Identifiers, keys, flags, paths, CSS classes, code spans and placeholders are not words.
 */
export function looksLikeEnglish(text: string): boolean {
  const stripped = text
    .replace(/`[^`]*`/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\$\([a-z0-9~-]+\)/g, ' ')
    .replace(/\{[^}\s]*\}/g, ' ')
    // Markup and command-line syntax: <tags>, <placeholders>, [optional parts], --flags.
    .replace(/<[^<>]*>/g, ' ')
    .replace(/\[[^[\]]*\]/g, ' ')
    .replace(/(^|\s)--?[a-z][\w-]*/g, ' ')
    .replace(/\u0000/g, ' ');
  const words = stripped.split(/\s+/).map((token) => {
    const bare = token.replace(/^[("'“‘[<*]+|[)"'”’\]>*.,;:!?…]+$/g, '');
    return /^[A-Za-z][a-z]+$/.test(bare) && !keptWords.has(bare) ? bare : '';
  });
  for (let i = 1; i < words.length; i++) if (words[i] && words[i - 1]) return true;
  const real = words.filter(Boolean);
  return real.length === 1 && stripped.trim().split(/\s+/).length === 1 && /^[A-Z][a-z]{2,}$/.test(real[0]);
}

/** Calls whose string arguments are for developers (logs, internal errors), not for the people the UI serves. */
function isDeveloperCall(call: ts.CallExpression): boolean {
  const callee = call.expression;
  const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
  const target = ts.isPropertyAccessExpression(callee) ? callee.expression.getText() : '';
  if (/^(console|connection\.console|log|this\.log(\?)?)$/.test(target)) return true;
  return ['appendLine', 'require', 'getElementById', 'querySelector', 'querySelectorAll', 'closest', 'matches', 'setAttribute', 'getAttribute', 'addEventListener', 'removeEventListener', 'executeCommand', 'registerCommand', 'getConfiguration', 'createElement'].includes(name);
}

/** Lines a `// l10n-ignore: why` covers (its own, or the next when it stands alone), and `l10n-ignore-start` … `-end`. */
function ignoredLines(source: ts.SourceFile): Set<number> {
  const lines = new Set<number>();
  let inRegion = false;
  source.text.split('\n').forEach((line, i) => {
    if (/\/\/\s*l10n-ignore-start\b/.test(line)) inRegion = true;
    if (inRegion) lines.add(i + 1);
    if (/\/\/\s*l10n-ignore-end\b/.test(line)) inRegion = false;
    else if (/\/\/\s*l10n-ignore\b/.test(line)) {
      lines.add(i + 1);
      if (/^\s*\/\//.test(line)) lines.add(i + 2);
    }
  });
  return lines;
}

/** Messages, dynamic translation calls and English literals of the given files. */
export function scan(files: readonly string[] = sourceFiles()): ScanResult {
  const result: ScanResult = { messages: [], dynamic: [], literals: [] };
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    const ignored = ignoredLines(source);
    const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    const catalogNodes = new Set<ts.Node>();

    const visit = (node: ts.Node, exempt: boolean): void => {
      if (ts.isCallExpression(node)) {
        if (isTranslateCall(node) && node.arguments.length > 0) {
          const found = messageOf(node);
          if (found) {
            result.messages.push({ ...found, file: relative(file), line: lineOf(node) });
            catalogNodes.add(node.arguments[0]);
          } else {
            result.dynamic.push({ file: relative(file), line: lineOf(node), text: node.getText(source).slice(0, 80) });
          }
        }
        if (isDeveloperCall(node)) exempt = true;
      }
      if (catalogNodes.has(node)) return;
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && /^(Error|TypeError|RangeError)$/.test(node.expression.text)) exempt = true;
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isLiteralTypeNode(node)) return;
      if (ts.isCaseClause(node)) {
        // `case 'value':` compares; the clause's statements may show text.
        for (const statement of node.statements) visit(statement, exempt);
        return;
      }
      if (ts.isBinaryExpression(node) && /^(===|!==|==|!=)$/.test(node.operatorToken.getText(source))) return;
      if (ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node)) {
        // The key is a name, the value may be shown.
        visit(node.initializer ?? node.name, exempt);
        return;
      }
      if (ts.isElementAccessExpression(node)) {
        visit(node.expression, exempt);
        return;
      }
      const isString = ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);
      if ((isString || ts.isTemplateExpression(node)) && !exempt) {
        const line = lineOf(node);
        const shown = isString ? (node as ts.StringLiteral).text : [(node as ts.TemplateExpression).head.text, ...(node as ts.TemplateExpression).templateSpans.map((s) => s.literal.text)].join('\u0000');
        if (!ignored.has(line) && looksLikeEnglish(shown)) result.literals.push({ file: relative(file), line, text: shown.replace(/\u0000/g, '${…}').slice(0, 100) });
        if (isString) return;
      }
      ts.forEachChild(node, (child) => visit(child, exempt));
    };
    visit(source, false);
  }
  return result;
}

/**
 * Whether the lint fails or only reports, per file: the first matching prefix wins. Phase 1 migrated the client,
 * the webview, the CLI's own texts, the catalog and the ds_config hover and completion; phase 2 the estimates, the
 * estimate CLI, the estimator's notes and tables (memory/), the training layer, the hosts and the shared layer;
 * phase 3 the last ds_config rules and the launch flag tables. Every source now fails: a folder could go back to
 * 'report' only while it is being migrated.
 */
export const lintModes: readonly [prefix: string, mode: 'fail' | 'report'][] = [
  ['client/src/', 'fail'],
  ['server/src/', 'fail'],
];

export function lintMode(file: string): 'fail' | 'report' {
  return lintModes.find(([prefix]) => file.startsWith(prefix))?.[1] ?? 'fail';
}

export function readBundle(locale: string): Record<string, string> {
  return JSON.parse(readFileSync(path.join(repoRoot, 'l10n', `bundle.l10n.${locale}.json`), 'utf8')) as Record<string, string>;
}

/** The shipped locales besides English (the bundles in l10n/). */
export function bundleLocales(): string[] {
  return readdirSync(path.join(repoRoot, 'l10n'))
    .map((name) => /^bundle\.l10n\.(.+)\.json$/.exec(name)?.[1])
    .filter((locale): locale is string => !!locale)
    .sort();
}

/** The extension's entry point, as scripts/build.mjs bundles it into dist/client.js. */
export const clientEntryPoint = 'client/src/extension.ts';

/**
 * Our TypeScript files that dist/client.js holds, as esbuild resolves them: client/src and the shared protocol
 * (server/src/protocol/, whose labels and units the extension translates with `vscode.l10n.t`).
 */
export function clientSourceFiles(): string[] {
  return bundledSourceFiles(clientEntryPoint, ['vscode']);
}

/** The core's entry point, as scripts/build.mjs bundles it into dist/core.js. */
export const coreEntryPoint = 'server/src/bundle.ts';

/** Our TypeScript files that dist/core.js holds (the server, the CLI and what they share), as esbuild resolves them. */
export function coreSourceFiles(): string[] {
  return bundledSourceFiles(coreEntryPoint, []);
}

function bundledSourceFiles(entryPoint: string, external: string[]): string[] {
  const { metafile } = esbuild.buildSync({
    entryPoints: [path.join(repoRoot, entryPoint)],
    absWorkingDir: repoRoot,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    external,
    mainFields: ['module', 'main'],
    outdir: 'dist',
    logLevel: 'silent',
  });
  return Object.keys(metafile.inputs)
    .filter((input) => /^(client|server)\/src\/.*\.ts$/.test(input))
    .sort()
    .map((input) => path.join(repoRoot, input));
}

/**
 * The client's share of a locale's catalog: the translations of the messages dist/client.js uses, by key. VS
 * Code reads it for `vscode.l10n.t` (package.json's "l10n"); the server and the CLI bundle their own share
 * into dist/core.js (`coreBundle`). A message the catalog lacks is left out (VS Code shows the English);
 * test/unit/l10n-catalog.test.ts fails on it.
 */
export function clientBundle(locale: string, messages: readonly MessageUse[] = scan(clientSourceFiles()).messages): Record<string, string> {
  const bundle = readBundle(locale);
  const keys = [...new Set(messages.map((m) => m.key))].filter((key) => key in bundle).sort();
  return Object.fromEntries(keys.map((key) => [key, bundle[key]]));
}

/** Writes `dir/bundle.l10n.<locale>.json` for every shipped locale (dist/l10n in the build), and nothing else there. */
export function writeClientBundles(dir: string): string[] {
  const messages = scan(clientSourceFiles()).messages;
  return writeBundles(dir, (locale) => clientBundle(locale, messages));
}

function writeBundles(dir: string, bundleOf: (locale: string) => Record<string, string>): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return bundleLocales().map((locale) => {
    const file = path.join(dir, `bundle.l10n.${locale}.json`);
    writeFileSync(file, JSON.stringify(bundleOf(locale)));
    return file;
  });
}

/**
 * A locale's catalog as dist/core.js bundles it: the translations of the messages the core uses, keyed by
 * `messageHash` of the English text, which the code holds already (server/src/l10n/messageHash.ts). Throws
 * when two of those messages share a hash, since the core's translator could not tell them apart.
 */
export function coreBundle(locale: string, messages: readonly MessageUse[] = scan(coreSourceFiles()).messages): Record<string, string> {
  const keys = [...new Set(messages.map((m) => m.key))].sort();
  return hashedCatalog(readBundle(locale), keys);
}

/** Writes `dir/bundle.l10n.<locale>.json`, the core's catalog, for every shipped locale, and nothing else there. */
export function writeCoreBundles(dir: string): string[] {
  const messages = scan(coreSourceFiles()).messages;
  return writeBundles(dir, (locale) => coreBundle(locale, messages));
}

/** The schema's prose: what people read in hovers, completion, diagnostics and fixes. */
export const schemaProseFields = ['markdownDescription', 'description', 'title', 'deprecationMessage', 'errorMessage', 'markdownEnumDescriptions', 'enumDescriptions', 'message', 'uncheckedBounds', 'uncheckedEnum', 'keywordsOf', 'label', 'from'];

/** The schemas whose prose people read: ds_config's keys, the FSDP options, Megatron's parallel sizes. */
export const schemaFiles = ['schemas/ds_config.schema.json', 'schemas/fsdp.schema.json', 'schemas/megatron.schema.json'];

/** Every prose text of the schemas with its translation, walking keywords (not property names). */
export function schemaTexts(): { where: string; field: string; english: string | string[]; chinese: unknown }[] {
  const out: { where: string; field: string; english: string | string[]; chinese: unknown }[] = [];
  for (const file of schemaFiles) out.push(...schemaFileTexts(file));
  return out;
}

function schemaFileTexts(file: string): { where: string; field: string; english: string | string[]; chinese: unknown }[] {
  const schema = JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8')) as unknown;
  const out: { where: string; field: string; english: string | string[]; chinese: unknown }[] = [];
  // ds_config's places read as before (`/properties/…`); the others carry their file's name.
  const root = file === schemaFiles[0] ? '' : path.basename(file);
  const walk = (node: unknown, where: string, names: boolean) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${where}/${i}`, false));
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(record)) {
      if (!names && schemaProseFields.includes(key) && (typeof value === 'string' || Array.isArray(value))) {
        out.push({ where, field: key, english: value as string | string[], chinese: record[`${key}-zh-cn`] });
        continue;
      }
      if (!names && key.endsWith('-zh-cn')) {
        const base = key.slice(0, -'-zh-cn'.length);
        if (!(base in record)) out.push({ where, field: key, english: '', chinese: value });
        continue;
      }
      walk(value, `${where}/${key}`, !names && ['properties', 'patternProperties', 'definitions'].includes(key));
    }
  };
  walk(schema, root, false);
  return out;
}

if (require.main === module) {
  const [command = 'report', ...paths] = process.argv.slice(2);
  if (command === 'client-bundle') {
    if (paths.length !== 1) throw new Error('usage: l10n client-bundle <output folder>');
    for (const file of writeClientBundles(path.resolve(paths[0]))) console.log(`${relative(file)}: ${Object.keys(JSON.parse(readFileSync(file, 'utf8'))).length} client messages`);
  } else if (command === 'core-bundle') {
    if (paths.length !== 1) throw new Error('usage: l10n core-bundle <output folder>');
    for (const file of writeCoreBundles(path.resolve(paths[0]))) console.log(`${relative(file)}: ${Object.keys(JSON.parse(readFileSync(file, 'utf8'))).length} core messages`);
  } else {
    report(command, paths);
  }
}

/** `report` and `missing` over the given files or folders (every source when none). */
function report(command: string, paths: string[]): void {
  const result = scan(paths.length ? paths.map((p) => path.resolve(p)).flatMap((p) => (statSync(p).isDirectory() ? sourceFiles([path.relative(repoRoot, p)]) : [p])) : sourceFiles());
  if (command === 'missing') {
    const bundle = readBundle('zh-cn');
    const missing = [...new Set(result.messages.map((m) => m.key))].filter((key) => !(key in bundle));
    console.log(JSON.stringify(Object.fromEntries(missing.map((key) => [key, ''])), null, 2));
  } else {
    const byMode = { fail: 0, report: 0 };
    for (const finding of result.literals) {
      byMode[lintMode(finding.file)]++;
      console.log(`${finding.file}:${finding.line}: [${lintMode(finding.file)}] ${finding.text}`);
    }
    for (const finding of result.dynamic) console.log(`${finding.file}:${finding.line}: [dynamic message] ${finding.text}`);
    console.log(`${result.literals.length} English literals outside the catalog (${byMode.fail} in folders that fail, ${byMode.report} reported); ${result.messages.length} catalog messages.`);
  }
}
