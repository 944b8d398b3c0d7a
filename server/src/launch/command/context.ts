import type { TextDocument } from 'vscode-languageserver-textdocument';
import { dirName, isAbsolutePath, joinPath, normalizePath, pathOf } from '../../util/paths';
import type { Fact, SourceSpan } from '../facts';
import { english, say, type Phrase } from '../../l10n';

/** What every launcher model needs to know about the file it reads. */
export class SourceContext {
  readonly uri: string;
  readonly filePath: string;
  readonly fileDir: string;

  constructor(
    readonly document: TextDocument,
    /** Workspace folders: ms-swift and HF resolve relative paths against the working directory, usually one of these. */
    readonly folders: string[],
  ) {
    this.uri = document.uri;
    this.filePath = pathOf(document.uri);
    this.fileDir = dirName(this.filePath);
  }

  span(start: number, end: number): SourceSpan {
    const range = { start: this.document.positionAt(start), end: this.document.positionAt(end) };
    return { uri: this.uri, range, start, end, line: range.start.line + 1 };
  }

  /** A fact; `via` is a name as written (`--max_length`) or, for what decides a default, a phrase (`msg(…)`). */
  fact<T>(value: T, start: number, end: number, via: string | Phrase, isDefault = false): Fact<T> {
    const fact: Fact<T> = typeof via === 'string' ? { value, span: this.span(start, end), via } : { value, span: this.span(start, end), via: say(english, via), viaText: via };
    if (isDefault) fact.isDefault = true;
    return fact;
  }

  /** Absolute paths a relative path may mean: next to this file first, then in each workspace folder. */
  candidates(file: string): string[] {
    if (!file) return [];
    if (isAbsolutePath(file)) return [normalizePath(file)];
    const all = [joinPath(this.fileDir, file), ...this.folders.map((f) => joinPath(f, file))];
    return [...new Set(all)];
  }
}

export function parseInteger(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*-?\d+\s*$/.test(text)) return undefined;
  return Number(text);
}

/** argparse/HfArgumentParser booleans: true|false|yes|no|t|f|y|n|1|0. */
export function parseBool(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  const t = text.toLowerCase();
  if (['true', 'yes', 't', 'y', '1'].includes(t)) return true;
  if (['false', 'no', 'f', 'n', '0'].includes(t)) return false;
  return undefined;
}
