/**
 * jsonc-parser's scanner and parser codes by name. Its `SyntaxKind`, `ScanError` and `ParseErrorCode` are
 * ambient const enums, which code compiled with isolatedModules cannot read, so their values are copied here
 * once (test/unit/util-jsonc-tokens.test.ts checks them against the library's runtime objects).
 */

export const Token = {
  OpenBrace: 1,
  CloseBrace: 2,
  OpenBracket: 3,
  CloseBracket: 4,
  Comma: 5,
  Colon: 6,
  Null: 7,
  True: 8,
  False: 9,
  String: 10,
  Number: 11,
  LineComment: 12,
  BlockComment: 13,
  LineBreak: 14,
  Trivia: 15,
  Unknown: 16,
  EOF: 17,
} as const;

export const ScanError = {
  None: 0,
  UnexpectedEndOfComment: 1,
  UnexpectedEndOfString: 2,
  UnexpectedEndOfNumber: 3,
  InvalidUnicode: 4,
  InvalidEscapeCharacter: 5,
  InvalidCharacter: 6,
} as const;

export const ParseErrorCode = {
  InvalidSymbol: 1,
  InvalidNumberFormat: 2,
  PropertyNameExpected: 3,
  ValueExpected: 4,
  ColonExpected: 5,
  CommaExpected: 6,
  CloseBraceExpected: 7,
  CloseBracketExpected: 8,
  EndOfFileExpected: 9,
  InvalidCommentToken: 10,
  UnexpectedEndOfComment: 11,
  UnexpectedEndOfString: 12,
  UnexpectedEndOfNumber: 13,
  InvalidUnicode: 14,
  InvalidEscapeCharacter: 15,
  InvalidCharacter: 16,
} as const;

/** Comments, line breaks and other whitespace: tokens that carry no JSON. */
export function isTrivia(token: number): boolean {
  return token === Token.LineComment || token === Token.BlockComment || token === Token.LineBreak || token === Token.Trivia;
}

/** A string, number, `true`, `false` or `null`. */
export function isLiteral(token: number): boolean {
  return token === Token.String || token === Token.Number || token === Token.True || token === Token.False || token === Token.Null;
}

/** `{` or `[`: a token that opens a container. */
export function opensContainer(token: number): boolean {
  return token === Token.OpenBrace || token === Token.OpenBracket;
}

/** `}` or `]`: a token that closes a container. */
export function closesContainer(token: number): boolean {
  return token === Token.CloseBrace || token === Token.CloseBracket;
}
