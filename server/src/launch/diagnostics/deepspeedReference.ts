import { baseName, isAbsolutePath, joinPath, relativePath } from '../../util/paths';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { Diagnostic } from 'vscode-languageserver-types';
import { describeUnread, type FileSystemHost, type Hosts } from '../../host';
import { editDistance } from '../../util/editDistance';
import type { SourceContext } from '../command/context';
import type { DeepSpeedReference } from '../facts';
import { launchDiagnostic } from './launchDiagnostic';
import type { FixSpec } from '../../diagnostics/fixData';
import { replaceText } from '../../diagnostics/textOps';
import { suggestPresets } from './didYouMean';
import { repairedInlineJsonDiagnostic } from './repairedInlineJson';
import { maxNestingDepth } from '../../util/nesting';

/** Who reads the value decides what it may be: only ms-swift knows preset names. */
export type ReferenceReader = 'ms-swift' | 'the Hugging Face Trainer' | 'LLaMA-Factory' | 'accelerate';

export async function firstExisting(fs: FileSystemHost, candidates: string[]): Promise<string | undefined> {
  for (const c of candidates) if (await fs.exists(c)) return c;
  return undefined;
}

/** Where a relative path was looked for, in words: next to this file, and at each workspace folder's root. */
export function placesTried(ctx: SourceContext, written: string): string {
  const places = new Map<string, string>();
  places.set(joinPath(ctx.fileDir, written), 'next to this file');
  for (const folder of ctx.folders) {
    const path = joinPath(folder, written);
    if (!places.has(path)) places.set(path, 'at the workspace root');
  }
  const words = [...places].map(([path, where]) => `${where} (${path})`);
  return words.length > 1 ? `neither ${words.slice(0, -1).join(', ')} nor ${words[words.length - 1]}` : `not ${words[0]}`;
}

/**
 * A file a launch names and ZeRO Lens cannot find. A relative path is opened against the working directory the
 * script is started from, which the script does not fix: a warning that names both places tried. An absolute
 * path that does not exist fails wherever it starts: an error.
 */
export function fileNotFound(
  ctx: SourceContext,
  start: number,
  end: number,
  what: string,
  written: string,
  candidates: string[],
  reader: string,
  details: Record<string, unknown> = {},
  hint = '',
): Diagnostic {
  const relative = !isAbsolutePath(written.trim()) && !written.trim().startsWith('~');
  const message = relative
    ? `${what} '${written}' is ${placesTried(ctx, written.trim())}: ${reader} opens a relative path from the working directory, which this file does not set, so it fails unless started where the file is.${hint}`
    : `${what} '${written}' does not exist; ${reader} fails at start.${hint}`;
  return launchDiagnostic(ctx, 'deepspeed-config-not-found', start, end, message, { path: written, candidates, ...details }, relative ? { severity: DiagnosticSeverity.Warning } : {});
}

/** Workspace JSON files with the same or a nearly equal name, as paths relative to this file (best first). */
async function similarJsonFiles(hosts: Hosts, ctx: SourceContext, written: string): Promise<string[]> {
  const wanted = baseName(written).toLowerCase();
  const scored = (await hosts.workspace.jsonFiles())
    .map((file) => ({ file, d: editDistance(baseName(file).toLowerCase(), wanted) }))
    .filter((x) => x.d <= Math.min(3, Math.floor(wanted.length / 5)))
    .sort((a, b) => a.d - b.d || a.file.localeCompare(b.file));
  return scored.slice(0, 2).map(({ file }) => {
    const rel = relativePath(ctx.fileDir, file);
    return rel.startsWith('.') ? rel : `./${rel}`;
  });
}

/** "Change to '<value>'" fixes for the written value, the first (best) one preferred. */
function changeTo(ctx: SourceContext, start: number, end: number, values: string[]): FixSpec[] {
  const text = ctx.document.getText();
  return values.map((value, i) => ({ id: 'change-value', title: `Change to '${value}'`, ops: [replaceText(text, start, end, value)], preferred: i === 0 }));
}

export async function checkDeepSpeedReference(
  ctx: SourceContext,
  hosts: Hosts,
  ref: DeepSpeedReference,
  reader: ReferenceReader,
): Promise<Diagnostic[]> {
  const { start, end } = ref.span;
  switch (ref.kind) {
    case 'preset':
      if (reader === 'ms-swift') return [];
      return [
        launchDiagnostic(
          ctx,
          'preset-not-valid-here',
          start,
          end,
          `'${ref.name}' is an ms-swift preset name; ${reader} needs the path of a DeepSpeed JSON config here. Write the JSON file (ms-swift's ${ref.name}.json is a good start) and pass its path.`,
          { preset: ref.name },
        ),
      ];
    case 'unknown': {
      if (await firstExisting(hosts.fs, ctx.candidates(ref.text))) return [];
      const suggestions = suggestPresets(ref.text);
      return [
        withSuggestions(ctx, 'unknown-deepspeed-preset', start, end, suggestions, { value: ref.text, suggestions }, (hint) =>
          `'${ref.text}' is neither an ms-swift preset (zero0, zero1, zero2, zero2_offload, zero3, zero3_offload) nor an existing JSON file; ms-swift fails at startup.${hint}`,
        ),
      ];
    }
    case 'file': {
      if (ref.written) return [];
      // Read rather than only looked for: a named pipe or a device by that name exists but is never read.
      for (const candidate of ref.candidates) {
        const read = await hosts.fs.readFile(candidate, 'config');
        if ('text' in read) return [];
        if (read.unread.reason !== 'missing') {
          return [launchDiagnostic(ctx, 'file-not-read', start, end, `ZeRO Lens did not read '${ref.path}': ${describeUnread(read.unread)}. Its settings are not checked and not estimated.`, { path: candidate, unread: read.unread.reason })];
        }
      }
      const suggestions = await similarJsonFiles(hosts, ctx, ref.path);
      const hint = suggestions.length ? ` Did you mean '${suggestions[0]}'?` : '';
      return [fileNotFound(ctx, start, end, 'DeepSpeed config', ref.path, ref.candidates, reader, { fixes: changeTo(ctx, start, end, suggestions) }, hint)];
    }
    case 'inline':
      if (ref.tooDeep) {
        return [launchDiagnostic(ctx, 'invalid-inline-deepspeed-json', start, end, `The inline DeepSpeed config nests deeper than ${maxNestingDepth} levels; ZeRO Lens does not read it. A DeepSpeed config nests a few levels.`)];
      }
      if (ref.repairedJson !== undefined) return [repairedInlineJsonDiagnostic(ctx, ref.span, ref.text, ref.repairedJson)];
      if (ref.json !== undefined && typeof ref.json === 'object' && ref.json !== null) return [];
      return [launchDiagnostic(ctx, 'invalid-inline-deepspeed-json', start, end, `The inline DeepSpeed config is not a JSON object; ${reader} cannot parse it.`)];
    default:
      return [];
  }
}

/** A value that names nothing ZeRO Lens can find, with a did-you-mean in the message and a fix per suggestion. */
function withSuggestions(
  ctx: SourceContext,
  code: 'unknown-deepspeed-preset',
  start: number,
  end: number,
  suggestions: string[],
  details: Record<string, unknown>,
  message: (hint: string) => string,
) {
  const hint = suggestions.length ? ` Did you mean '${suggestions[0]}'?` : '';
  return launchDiagnostic(ctx, code, start, end, message(hint), { ...details, fixes: changeTo(ctx, start, end, suggestions) });
}
