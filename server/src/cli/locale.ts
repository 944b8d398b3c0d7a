/**
 * The language a CLI run writes in: `--lang` (anywhere on the command line), else the terminal's locale
 * (LC_ALL, LC_MESSAGES, LANG, in that order, as POSIX programs read it), else English. The editor's
 * `zeroLens.language` is not read: in a terminal the terminal's language is the one to follow.
 */
import { environmentLocale, normalizeLocale, resolveLocale, type Locale } from '../l10n';

export interface LangOption {
  /** The arguments without `--lang`. */
  args: string[];
  /** What `--lang` said, normalised; undefined when absent. */
  lang?: Locale;
  /** `--lang` without a value. */
  invalid?: true;
}

/** Takes `--lang X` / `--lang=X` out of the arguments (not after `--`). */
export function takeLangOption(argv: readonly string[]): LangOption {
  const args: string[] = [];
  let lang: Locale | undefined;
  let invalid: true | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      args.push(...argv.slice(i));
      break;
    }
    if (arg === '--lang' || arg.startsWith('--lang=')) {
      const value = arg === '--lang' ? argv[++i] : arg.slice('--lang='.length);
      const locale = value === undefined || value.startsWith('-') ? undefined : normalizeLocale(value);
      if (locale) lang = locale;
      else invalid = true;
      continue;
    }
    args.push(arg);
  }
  return { args, lang, invalid };
}

/** The run's locale from the option and the environment. */
export function cliLocale(lang: Locale | undefined, env: Readonly<Record<string, string | undefined>>): Locale {
  return resolveLocale([lang], environmentLocale(env));
}
