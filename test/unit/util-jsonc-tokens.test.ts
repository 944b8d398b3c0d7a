import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as jsonc from 'jsonc-parser';
import { ParseErrorCode, ScanError, Token } from '../../server/src/util/jsoncTokens';

/** The library's enums as its runtime exports them (the type declarations are const enums). */
const runtime = jsonc as unknown as Record<'SyntaxKind' | 'ScanError' | 'ParseErrorCode', Record<string, number>>;

test('the token table names each scanner token the way jsonc-parser scans it', () => {
  const text = '{}[],:null true false "s" 1 // line\n/* block */ bare';
  const scanner = jsonc.createScanner(text, false);
  const kinds: number[] = [];
  for (let kind: number = scanner.scan(); ; kind = scanner.scan()) {
    kinds.push(kind);
    if (kind === Token.EOF) break;
  }
  const T = Token;
  assert.deepEqual(kinds, [
    T.OpenBrace, T.CloseBrace, T.OpenBracket, T.CloseBracket, T.Comma, T.Colon,
    T.Null, T.Trivia, T.True, T.Trivia, T.False, T.Trivia, T.String, T.Trivia, T.Number, T.Trivia,
    T.LineComment, T.LineBreak, T.BlockComment, T.Trivia, T.Unknown, T.EOF,
  ]);
  const libraryNames: Record<keyof typeof Token, string> = {
    OpenBrace: 'OpenBraceToken',
    CloseBrace: 'CloseBraceToken',
    OpenBracket: 'OpenBracketToken',
    CloseBracket: 'CloseBracketToken',
    Comma: 'CommaToken',
    Colon: 'ColonToken',
    Null: 'NullKeyword',
    True: 'TrueKeyword',
    False: 'FalseKeyword',
    String: 'StringLiteral',
    Number: 'NumericLiteral',
    LineComment: 'LineCommentTrivia',
    BlockComment: 'BlockCommentTrivia',
    LineBreak: 'LineBreakTrivia',
    Trivia: 'Trivia',
    Unknown: 'Unknown',
    EOF: 'EOF',
  };
  for (const [ours, theirs] of Object.entries(libraryNames)) assert.equal(Token[ours as keyof typeof Token], runtime.SyntaxKind[theirs], ours);
});

test('scan errors and parse error codes match jsonc-parser member for member', () => {
  for (const [name, value] of Object.entries(ScanError)) assert.equal(runtime.ScanError[name], value, name);
  for (const [name, value] of Object.entries(ParseErrorCode)) assert.equal(runtime.ParseErrorCode[name], value, name);
  const libraryCount = (e: Record<string, number>) => Object.values(e).filter((v) => typeof v === 'number').length;
  assert.equal(Object.keys(ScanError).length, libraryCount(runtime.ScanError));
  assert.equal(Object.keys(ParseErrorCode).length, libraryCount(runtime.ParseErrorCode));
  assert.equal(Object.keys(Token).length, libraryCount(runtime.SyntaxKind));
});
