/**
 * How a text is asked for in the reader's language, shared by the server, the CLI and the client: the
 * semantics of `vscode.l10n.t` and `@vscode/l10n`, so one bundle format (`l10n/bundle.l10n.<locale>.json`,
 * keyed by the English text) serves both sides. The English text is the key and stays in the code where it
 * is read; `{0}` or `{name}` stand for the arguments. Where one English text needs two translations, the
 * object form adds a comment, and the key becomes `message/comment` (as in VS Code).
 *
 * This module only formats: the catalogs live in `server/src/l10n/` (the server and the CLI) and in VS Code
 * (the client, through `vscode.l10n.t`, which is a `Translate`).
 */

export type L10nArg = string | number | boolean;

export interface L10nMessage {
  message: string;
  args?: L10nArg[] | Record<string, L10nArg>;
  /** Context for the translator; part of the key. */
  comment: string | string[];
}

/** `t('Saved {0}', where)`, `t('Saved {where}', { where })`, `t({ message, args, comment })`. */
export interface Translate {
  (message: string, ...args: L10nArg[]): string;
  (message: string, args: Record<string, L10nArg>): string;
  (options: L10nMessage): string;
}

/** The bundle key of a message: the English text, or `text/comment` when it has a comment. */
export function messageKey(message: string | L10nMessage): string {
  if (typeof message === 'string') return message;
  const comment = Array.isArray(message.comment) ? message.comment.join('') : message.comment;
  return comment ? `${message.message}/${comment}` : message.message;
}

const placeholder = /{([^}]+)}/g;

/** Fills `{0}` / `{name}` as VS Code does: a placeholder without a value stays as written. */
export function formatMessage(template: string, args: readonly L10nArg[] | Record<string, L10nArg>): string {
  const values = args as Record<string, L10nArg | undefined>;
  if (Object.keys(values).length === 0) return template;
  return template.replace(placeholder, (match, name: string) => {
    const value = values[name];
    return value === undefined ? match : String(value);
  });
}

/** The English text and arguments of a call, whichever form it takes. */
export function readCall(first: string | L10nMessage, rest: unknown[]): { key: string; message: string; args: readonly L10nArg[] | Record<string, L10nArg> } {
  if (typeof first === 'string') {
    const args = rest.length === 1 && typeof rest[0] === 'object' && rest[0] !== null ? (rest[0] as Record<string, L10nArg>) : (rest as L10nArg[]);
    return { key: first, message: first, args };
  }
  return { key: messageKey(first), message: first.message, args: first.args ?? [] };
}

/**
 * A translator from a bundle (English key → text in the locale); a missing entry reads in English. `keyOf` names
 * the entry of a key where the bundle is keyed otherwise (the core's catalogs, by `messageHash`).
 */
export function bundleTranslator(bundle: Readonly<Record<string, string>>, keyOf: (key: string) => string = (key) => key): Translate {
  return ((first: string | L10nMessage, ...rest: unknown[]) => {
    const { key: english, message, args } = readCall(first, rest);
    const key = keyOf(english);
    const text = Object.prototype.hasOwnProperty.call(bundle, key) ? bundle[key] : undefined;
    return formatMessage(text || message, args);
  }) as Translate;
}

/** English: the text as written in the code. The default wherever no reader's language is known (tests). */
export const english: Translate = bundleTranslator({});

/**
 * A message kept in data and worded where it is shown: a flag's documentation in a table, what decides a
 * launcher's default. `msg('{0} runs one process', runs)` holds the English text and its arguments; `say(t, p)`
 * words it in the reader's language. The catalog checks read `msg('…')` as they read `t('…')`, so its first
 * argument is a literal too.
 */
export interface Phrase {
  readonly message: string;
  readonly args: readonly L10nArg[];
}

export function msg(message: string, ...args: L10nArg[]): Phrase {
  return { message, args };
}

/** A phrase in the reader's language (`english` for logs and identities). */
export function say(translate: Translate, phrase: Phrase): string {
  return translate(phrase.message, ...phrase.args);
}

/** ", " between the items of a list, "、" in Chinese: the one separator of every list a message names. */
export function listSeparator(t: Translate): string {
  return t({ message: ', ', comment: 'between the items of a list' });
}

/** "a, b, c" ("a、b、c"): a list of values or code tokens inside a message. */
export function joinList(t: Translate, items: readonly L10nArg[]): string {
  return items.join(listSeparator(t));
}

/** "a, b and c" ("a、b 和 c"): the same list when the sentence names all of them. */
export function andList(t: Translate, items: readonly L10nArg[]): string {
  if (items.length < 2) return items.join('');
  return t('{0} and {1}', joinList(t, items.slice(0, -1)), String(items[items.length - 1]));
}
