import { exactArray } from '../../util/exactArrays';
import type { Word } from '../shell/types';

/** One `--flag [value…]` occurrence on a command line. */
export interface Option {
  /** Normalised name: leading dashes removed, `-` → `_` (argparse accepts both spellings). */
  name: string;
  /** The flag as written, e.g. `--train-type` (without `=value`). */
  written: string;
  word: Word;
  /** Offsets of the flag name itself. */
  nameStart: number;
  nameEnd: number;
  /** `--flag=value`: the value part of the same word. */
  inline?: { text: string; start: number; end: number };
  /** Separate value words (several for nargs='+' flags). */
  values: Word[];
}

export interface ParsedOptions {
  options: Option[];
  /** Words that are neither flags nor flag values. */
  positionals: Word[];
  /** Index in the input of the first word handed to a child program (launchers), or words.length. */
  restIndex: number;
}

export interface OptionSpec {
  /** Flags that never take a value (store_true). */
  booleans?: ReadonlySet<string>;
  /** Short flag → normalised long name (`-H` → `hostfile`). */
  shortAliases?: Readonly<Record<string, string>>;
  /** Stop at the first positional (the training script); everything after belongs to it. */
  stopAtPositional?: boolean;
  /** A flag takes every following non-flag word (HfArgumentParser nargs='+'); otherwise at most one. */
  multiValue?: boolean;
  /** Words to treat as neither flags nor values (env assignments written after the command). */
  skip?: (word: Word) => boolean;
}

export function normaliseFlag(flag: string): string {
  return flag.replace(/^-+/, '').replace(/-/g, '_');
}

/** A word that starts a flag: `-x`, `--xyz`; not a negative number or a lone `-`. */
export function isFlagWord(word: Word): boolean {
  const v = word.value;
  return v.startsWith('-') && v.length > 1 && !/^-[\d.]/.test(v);
}

export function parseOptions(words: Word[], spec: OptionSpec = {}): ParsedOptions {
  const options: Option[] = [];
  const positionals: Word[] = [];
  let i = 0;
  let current: Option | undefined;
  for (; i < words.length; i++) {
    const word = words[i];
    if (spec.skip?.(word)) {
      current = undefined;
      continue;
    }
    if (word.value === '--' && !word.quoted) {
      current = undefined;
      if (spec.stopAtPositional) {
        i++;
        break;
      }
      continue;
    }
    if (isFlagWord(word)) {
      current = flagOption(word, spec);
      options.push(current);
      if (current.inline || spec.booleans?.has(current.name)) current = undefined;
      continue;
    }
    if (current && (spec.multiValue || current.values.length === 0)) {
      current.values.push(word);
      continue;
    }
    current = undefined;
    if (spec.stopAtPositional) break;
    positionals.push(word);
  }
  for (const option of options) option.values = exactArray(option.values);
  return { options: exactArray(options), positionals: exactArray(positionals), restIndex: i };
}

function flagOption(word: Word, spec: OptionSpec): Option {
  const eqInValue = word.value.indexOf('=');
  const written = eqInValue >= 0 ? word.value.slice(0, eqInValue) : word.value;
  const short = spec.shortAliases?.[written];
  const name = short ?? normaliseFlag(written);
  // Offsets: the flag name is unquoted in practice, so its raw text starts the word.
  const nameStart = word.start + Math.max(0, word.raw.indexOf(written));
  const nameEnd = nameStart + written.length;
  const option: Option = { name, written, word, nameStart, nameEnd, values: [] };
  if (eqInValue >= 0) {
    const rawEq = word.raw.indexOf('=');
    const start = rawEq >= 0 ? word.start + rawEq + 1 : word.end;
    option.inline = { text: word.value.slice(eqInValue + 1), start, end: word.end };
  }
  return option;
}

/** Last occurrence wins, as with argparse. */
export function lastOption(parsed: ParsedOptions, ...names: string[]): Option | undefined {
  for (let i = parsed.options.length - 1; i >= 0; i--) if (names.includes(parsed.options[i].name)) return parsed.options[i];
  return undefined;
}

/** Start/end offsets of an option's (first) value, whether inline or separate. */
export function valueRange(option: Option): { start: number; end: number } | undefined {
  if (option.inline) return { start: option.inline.start, end: option.inline.end };
  const v = option.values[0];
  return v ? { start: v.start, end: v.end } : undefined;
}

/**
 * Offsets covering the flag and its values (at most `maxValues`), for a fix that removes the flag: it stops
 * at the end of the last value word, and never takes a word with an open quote (a typo that swallows the
 * rest of the file into one word, which is not the flag's value).
 */
export function optionExtent(option: Option, maxValues = Infinity): { start: number; end: number } {
  let end = option.word.end;
  for (const value of option.values.slice(0, maxValues)) {
    if (openQuote(value)) break;
    end = value.end;
  }
  return { start: option.word.start, end };
}

/** A word that starts a quote it never closes: the parser ran it to the end of the text. */
function openQuote(word: Word): boolean {
  const quote = word.raw[0];
  return (quote === "'" || quote === '"') && (word.raw.length < 2 || word.raw[word.raw.length - 1] !== quote);
}
