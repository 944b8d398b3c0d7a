/**
 * The server's and the CLI's message catalog: which language a reader gets, and the translator for it.
 * One catalog for both processes and the client: `l10n/bundle.l10n.<locale>.json`, keyed by the English
 * text (VS Code's format, which `vscode.l10n.t` reads in the extension host). The bundles are data bundled
 * into the core, keyed by a hash of that text (`messageHash.ts`), never read from disk here; the locale is
 * chosen by the edges (`server.ts` from the editor's display language and `zeroLens.language`, the CLI from
 * `--lang` and the environment) and arrives in the settings of every request (`ZeroLensSettings.locale`).
 */
import zhCn from './zhCnCatalog';
import { messageHash } from './messageHash';
import { bundleTranslator, english, formatMessage, readCall, type L10nMessage, type Translate } from '../protocol/l10n';

export type { L10nArg, L10nMessage, Phrase, Translate } from '../protocol/l10n';
export { andList, english, joinList, listSeparator, msg, say } from '../protocol/l10n';

/** The languages ZeRO Lens writes in, and `qps-ploc`, the pseudo-locale that shows what is not translated. */
export type Locale = 'en' | 'zh-cn' | 'qps-ploc';

/** `zeroLens.language` (and `initializationOptions.language`): `auto` follows the editor or the terminal. */
export type LanguageSetting = 'auto' | 'en' | 'zh-cn';
export const languageSettings: readonly LanguageSetting[] = ['auto', 'en', 'zh-cn'];

/** Translations per locale, `messageHash` of the English text → text. English needs none. */
const bundles: Readonly<Record<Exclude<Locale, 'en' | 'qps-ploc'>, Readonly<Record<string, string>>>> = {
  'zh-cn': zhCn,
};

/**
 * A BCP 47 tag (`zh-CN`, `zh-Hans`) or a POSIX locale (`zh_CN.UTF-8`, `C`) as one of ours. Chinese in its
 * simplified script reads zh-cn; any other language, traditional Chinese included (as VS Code does when an
 * extension has no bundle for it), reads English. Undefined for an empty value, so the next source is asked.
 */
export function normalizeLocale(tag: string | undefined | null): Locale | undefined {
  const value = (tag ?? '').trim().toLowerCase().replace(/_/g, '-').replace(/[.@].*$/, '');
  if (!value) return undefined;
  if (value === 'qps-ploc') return 'qps-ploc';
  const [language, ...rest] = value.split('-');
  if (language === 'zh') return rest.some((part) => ['tw', 'hk', 'mo', 'hant'].includes(part)) ? 'en' : 'zh-cn';
  return 'en';
}

/**
 * The locale of one server instance or CLI run: an explicit language (the setting, a flag) when it is not
 * `auto`, else the first of the display languages given (the editor's, or LC_ALL, LC_MESSAGES, LANG), else
 * English.
 */
export function resolveLocale(explicit: readonly (string | undefined | null)[], display: readonly (string | undefined | null)[]): Locale {
  for (const choice of explicit) {
    if (choice && choice.trim().toLowerCase() !== 'auto') {
      const locale = normalizeLocale(choice);
      if (locale) return locale;
    }
  }
  for (const tag of display) {
    const locale = normalizeLocale(tag);
    if (locale) return locale;
  }
  return 'en';
}

/** The environment variables a terminal program reads its message language from, in POSIX order. */
export function environmentLocale(env: Readonly<Record<string, string | undefined>>): (string | undefined)[] {
  return [env.LC_ALL, env.LC_MESSAGES, env.LANG];
}

const accented: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [c, [...'åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i]]),
);

/** What pseudo-localisation leaves as written: placeholders, code spans, link targets, URLs, codicons. */
const kept = /(\{[^}\s]+\}|`[^`]*`|\]\([^)]*\)|https?:\/\/[^\s)]+|\$\([a-z0-9~-]+\))|([A-Za-z])/g;

/**
 * `qps-ploc`: every letter of a catalog text accented and the text bracketed, so a text that reaches the
 * reader without going through the catalog stands out as plain ASCII.
 */
export function pseudoLocalize(text: string): string {
  return `［${text.replace(kept, (match, keep: string | undefined, letter: string | undefined) => keep ?? accented[letter!] ?? match)}］`;
}

const pseudo: Translate = ((first: string | L10nMessage, ...rest: unknown[]) => {
  const { message, args } = readCall(first, rest);
  return formatMessage(pseudoLocalize(message), args);
}) as Translate;

/**
 * A space between two Chinese characters (or a full-width mark and a character) is never Chinese: it comes from a
 * template that spaces a placeholder for Latin text ("{1} 中", glossary: a space between Chinese and Latin) filled
 * with Chinese ("顶层"). Only a single space goes, so aligned columns keep theirs.
 */
const spaceBetweenChinese = /(?<=[\u3000-\u303f\u4e00-\u9fff\uff01-\uff0f\uff1a-\uff20]) (?=[\u4e00-\u9fff\uff08])/g;

function chineseSpacing(translate: Translate): Translate {
  return ((first: string | L10nMessage, ...rest: unknown[]) => {
    const text = (translate as (first: string | L10nMessage, ...rest: unknown[]) => string)(first, ...rest);
    return text.includes(' ') ? text.replace(spaceBetweenChinese, '') : text;
  }) as Translate;
}

const translators: Record<Locale, Translate> = {
  en: english,
  'zh-cn': chineseSpacing(bundleTranslator(bundles['zh-cn'], messageHash)),
  'qps-ploc': pseudo,
};

/** The translator for a locale (English for anything unknown). */
export function translator(locale: Locale | undefined): Translate {
  return translators[locale ?? 'en'] ?? english;
}

/**
 * A text kept in data beside its English, as `<field>-<locale>` (the schema's `markdownDescription-zh-cn`
 * next to `markdownDescription`): the locale's text, the English when it has none, pseudo-localised English
 * in `qps-ploc`.
 */
export function localizedField<T extends object>(record: T, field: string, locale: Locale | undefined): string | undefined {
  const values = record as Record<string, unknown>;
  const text = values[field];
  if (typeof text !== 'string') return undefined;
  if (!locale || locale === 'en') return text;
  if (locale === 'qps-ploc') return pseudoLocalize(text);
  const translated = values[`${field}-${locale}`];
  return typeof translated === 'string' && translated ? translated : text;
}

/** The same for a list of texts (`markdownEnumDescriptions`). */
export function localizedList<T extends object>(record: T, field: string, locale: Locale | undefined): string[] | undefined {
  const values = record as Record<string, unknown>;
  const list = values[field];
  if (!Array.isArray(list)) return undefined;
  if (!locale || locale === 'en') return list as string[];
  if (locale === 'qps-ploc') return (list as string[]).map((text) => (typeof text === 'string' ? pseudoLocalize(text) : text));
  const translated = values[`${field}-${locale}`];
  return Array.isArray(translated) && translated.length === list.length ? (translated as string[]) : (list as string[]);
}
