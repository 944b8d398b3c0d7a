/**
 * Format Document on 2,000 generated ds_configs (any JSON values, nested, minified or indented with spaces or tabs,
 * CRLF, comments after commas and on lines of their own, trailing commas, with or without a final line break):
 * the tokens (values, keys, punctuation, comments) are exactly the ones written, a second format changes nothing,
 * and the final line break is kept.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createScanner } from 'jsonc-parser';
import { Token } from '../../server/src/util/jsoncTokens';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { formatConfig } from '../../server/src/dsconfig/structure/formatting';

/** What the formatter must not touch: every token but whitespace and line breaks, as written. */
function tokens(text: string): string[] {
  const scanner = createScanner(text, false);
  const out: string[] = [];
  for (let kind: number = scanner.scan(); kind !== Token.EOF; kind = scanner.scan()) {
    if (kind !== Token.Trivia && kind !== Token.LineBreak) out.push(text.slice(scanner.getTokenOffset(), scanner.getTokenOffset() + scanner.getTokenLength()));
  }
  return out;
}

const style = fc.record({
  indent: fc.constantFrom<string | number>(0, 2, 4, '\t'),
  crlf: fc.boolean(),
  finalBreak: fc.boolean(),
  // Where comments go: after the n-th comma (a line comment ends its line), and a block comment after the first brace.
  lineComments: fc.array(fc.nat(40), { maxLength: 4 }),
  blockComment: fc.boolean(),
  trailingComma: fc.boolean(),
});
const options = fc.record({ tabSize: fc.constantFrom(2, 4), insertSpaces: fc.boolean(), insertFinalNewline: fc.boolean() });
const runs = Number(process.env.PROPERTY_RUNS ?? 2000);

type Style = typeof style extends fc.Arbitrary<infer T> ? T : never;

function render(value: unknown, s: Style): string {
  let text = JSON.stringify(value, null, s.indent) ?? 'null';
  // Comments go after comma tokens (never inside a string that holds a comma).
  const scanner = createScanner(text, false);
  const commas: number[] = [];
  for (let kind: number = scanner.scan(); kind !== Token.EOF; kind = scanner.scan()) if (kind === Token.Comma) commas.push(scanner.getTokenOffset());
  for (const [n, at] of [...commas.entries()].reverse()) if (s.lineComments.includes(n)) text = `${text.slice(0, at + 1)} // note ${n}\n${text.slice(at + 1)}`;
  if (s.blockComment) text = text.replace(/^\{/, '{ /* tuned */');
  if (s.trailingComma) text = text.replace(/\}$/, (close) => (text.length > 2 ? `,${close}` : close));
  if (s.finalBreak) text += '\n';
  return s.crlf ? text.replace(/\n/g, '\r\n') : text;
}

test(`Format Document on ${runs} generated configs keeps every token, is idempotent and keeps the final line break`, { timeout: 300_000 }, () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }), style, options, (value, s, o) => {
      const text = render(value, s);
      const document = TextDocument.create('file:///w/ds_config.json', 'ds-config', 1, text);
      const formatted = TextDocument.applyEdits(document, formatConfig(document, undefined, o));
      assert.deepEqual(tokens(formatted), tokens(text));
      const again = TextDocument.create('file:///w/ds_config.json', 'ds-config', 2, formatted);
      assert.deepEqual(formatConfig(again, undefined, o), [], `formatting twice changes nothing:\n${formatted}`);
      if (text.endsWith('\n')) assert.ok(formatted.endsWith(s.crlf ? '\r\n' : '\n'), 'the final line break stays');
      if (text.includes('\r\n')) assert.ok(!/[^\r]\n/.test(formatted), 'CRLF throughout, as the file has them');
    }),
    { numRuns: runs },
  );
});
