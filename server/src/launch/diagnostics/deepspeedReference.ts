import { baseName, isAbsolutePath, joinPath, relativePath } from '../../util/paths';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { Diagnostic } from 'vscode-languageserver-types';
import { describeUnread, type FileSystemHost, type Hosts } from '../../host';
import { editDistance } from '../../util/editDistance';
import type { SourceContext } from '../command/context';
import type { DeepSpeedReference } from '../facts';
import { launchDiagnostic } from './launchDiagnostic';
import type { FixSpec } from '../../diagnostics/fixData';
import { changeValueFix } from '../edits/valueEdit';
import type { CommandEnvironment } from '../shell/variables';
import { suggestPresets } from './didYouMean';
import { repairedInlineJsonDiagnostic } from './repairedInlineJson';
import { maxNestingDepth } from '../../util/nesting';
import { ACCELERATE, LLAMA_FACTORY, SWIFT } from '../../diagnostics/upstream';
import type { Translate } from '../../l10n';

/** Who reads the value decides what it may be: only ms-swift knows preset names. */
export type ReferenceReader = 'ms-swift' | 'the Hugging Face Trainer' | 'LLaMA-Factory' | 'accelerate';

/** The reader as a message names it: product names stay, the Trainer is said in the reader's language. */
export function readerName(reader: ReferenceReader, t: Translate): string {
  return reader === 'the Hugging Face Trainer' ? t('the Hugging Face Trainer') : reader;
}

/** " Did you mean 'x'?" after a message, or nothing; the space is in the key, since Chinese joins sentences without one. */
export function didYouMean(suggestion: string | undefined, t: Translate): string {
  return suggestion ? t(" Did you mean '{0}'?", suggestion) : '';
}

/**
 * Where each reader fails on a value that is no file and no JSON. ms-swift's json_parse_to_dict repairs it with
 * json_repair, which makes '' of a bare word or path, and json.loads('') raises; the others hand it to
 * accelerate's HfDeepSpeedConfig (the registry's citation).
 */
const swiftParseRaises = `${SWIFT}:swift/utils/utils.py#L432-435`;
function unreadableRaises(reader: string): string | undefined {
  return reader === 'ms-swift' ? swiftParseRaises : undefined;
}

/** Where a config file named on the command line that does not exist fails, for readers other than DeepSpeed's. */
export const missingFileRaises = {
  'LLaMA-Factory config': `${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L119`,
  'accelerate config': `${ACCELERATE}:src/accelerate/commands/config/config_args.py#L45-51`,
} as const;

export async function firstExisting(fs: FileSystemHost, candidates: string[]): Promise<string | undefined> {
  for (const c of candidates) if (await fs.exists(c)) return c;
  return undefined;
}

/** Where a relative path was looked for, in words: next to this file, and at each workspace folder's root. */
export function placesTried(ctx: SourceContext, written: string, t: Translate): string {
  const places = new Map<string, string>();
  places.set(joinPath(ctx.fileDir, written), t('next to this file'));
  for (const folder of ctx.folders) {
    const path = joinPath(folder, written);
    if (!places.has(path)) places.set(path, t('at the workspace root'));
  }
  const words = [...places].map(([path, where]) => t('{0} ({1})', where, path));
  if (words.length === 1) return t('not {0}', words[0]);
  return t('neither {0} nor {1}', words.slice(0, -1).reduce((a, b) => t('{0}, {1}', a, b)), words[words.length - 1]);
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
  t: Translate,
  details: Record<string, unknown> = {},
  hint = '',
  raises = unreadableRaises(reader),
): Diagnostic {
  const relative = !isAbsolutePath(written.trim()) && !written.trim().startsWith('~');
  const message = relative
    ? t("{0} '{1}' is {2}: {3} opens a relative path from the working directory, which this file does not set, so it fails unless started where the file is.", what, written, placesTried(ctx, written.trim(), t), reader) + hint
    : t("{0} '{1}' does not exist; {2} fails at start.", what, written, reader) + hint;
  return launchDiagnostic(ctx, 'deepspeed-config-not-found', start, end, message, { path: written, candidates, ...details }, relative ? { severity: DiagnosticSeverity.Warning } : { raises });
}

/**
 * The names near each missing one, per listing of the workspace's JSON files: a validation run lists them once
 * (validate.ts), and a script may name the same missing file in thousands of commands. Held as long as that
 * run's listing is.
 */
const nearNames = new WeakMap<string[], Map<string, string[]>>();

/** The two files of `listing` whose names are nearest `wanted` (lower case), best first. */
function nearestFiles(listing: string[], wanted: string): string[] {
  return listing
    .map((file) => ({ file, d: editDistance(baseName(file).toLowerCase(), wanted) }))
    .filter((x) => x.d <= Math.min(3, Math.floor(wanted.length / 5)))
    .sort((a, b) => a.d - b.d || a.file.localeCompare(b.file))
    .slice(0, 2)
    .map(({ file }) => file);
}

/** Workspace JSON files with the same or a nearly equal name, as paths relative to this file (best first). */
async function similarJsonFiles(hosts: Hosts, ctx: SourceContext, written: string): Promise<string[]> {
  const wanted = baseName(written).toLowerCase();
  const listing = await hosts.workspace.jsonFiles();
  let near = nearNames.get(listing);
  if (!near) nearNames.set(listing, (near = new Map()));
  let scored = near.get(wanted);
  if (!scored) near.set(wanted, (scored = nearestFiles(listing, wanted)));
  return scored.map((file) => {
    const rel = relativePath(ctx.fileDir, file);
    return rel.startsWith('.') ? rel : `./${rel}`;
  });
}

/**
 * "Change to '<value>'" fixes for the written value, the first (best) one preferred; a value written as a variable
 * is changed where the script sets it, or has none (launch/edits/valueEdit.ts).
 */
function changeTo(ctx: SourceContext, start: number, end: number, values: string[], t: Translate, env: CommandEnvironment | undefined): FixSpec[] {
  const text = ctx.document.getText();
  return values.flatMap((value, i) => changeValueFix(text, start, end, value, env, t("Change to '{0}'", value), t, i === 0).fixes);
}

export async function checkDeepSpeedReference(
  ctx: SourceContext,
  hosts: Hosts,
  ref: DeepSpeedReference,
  reader: ReferenceReader,
  t: Translate,
  /** The command's variables; undefined for a YAML value. */
  env?: CommandEnvironment,
): Promise<Diagnostic[]> {
  const { start, end } = ref.span;
  const name = readerName(reader, t);
  switch (ref.kind) {
    case 'preset':
      if (reader === 'ms-swift') return [];
      return [
        launchDiagnostic(
          ctx,
          'preset-not-valid-here',
          start,
          end,
          t("'{0}' is an ms-swift preset name; {1} needs the path of a DeepSpeed JSON config here. Write the JSON file (ms-swift's {0}.json is a good start) and pass its path.", ref.name, name),
          { preset: ref.name },
        ),
      ];
    case 'unknown': {
      if (await firstExisting(hosts.fs, ctx.candidates(ref.text))) return [];
      const suggestions = suggestPresets(ref.text);
      return [
        withSuggestions(ctx, 'unknown-deepspeed-preset', start, end, suggestions, { value: ref.text, suggestions }, t, env, (hint) =>
          t("'{0}' is neither an ms-swift preset (zero0, zero1, zero2, zero2_offload, zero3, zero3_offload) nor an existing JSON file; ms-swift fails at startup.", ref.text) + hint,
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
          return [launchDiagnostic(ctx, 'file-not-read', start, end, t("ZeRO Lens did not read '{0}': {1}. Its settings are not checked and not estimated.", ref.path, describeUnread(read.unread)), { path: candidate, unread: read.unread.reason })];
        }
      }
      const suggestions = await similarJsonFiles(hosts, ctx, ref.path);
      const fixes = changeTo(ctx, start, end, suggestions, t, env);
      const hint = didYouMean(suggestions[0], t) + (suggestions.length ? changeValueFix(ctx.document.getText(), start, end, suggestions[0], env, '', t).note : '');
      return [fileNotFound(ctx, start, end, t('DeepSpeed config'), ref.path, ref.candidates, name, t, { fixes }, hint)];
    }
    case 'inline':
      if (ref.tooDeep) {
        return [launchDiagnostic(ctx, 'invalid-inline-deepspeed-json', start, end, t('The inline DeepSpeed config nests deeper than {0} levels; ZeRO Lens does not read it. A DeepSpeed config nests a few levels.', maxNestingDepth))];
      }
      if (ref.repairedJson !== undefined) return [repairedInlineJsonDiagnostic(ctx, ref.span, ref.text, ref.repairedJson, t)];
      if (ref.json !== undefined && typeof ref.json === 'object' && ref.json !== null) return [];
      return [launchDiagnostic(ctx, 'invalid-inline-deepspeed-json', start, end, t('The inline DeepSpeed config is not a JSON object; {0} cannot parse it.', name), {}, { raises: unreadableRaises(reader) })];
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
  t: Translate,
  env: CommandEnvironment | undefined,
  message: (hint: string) => string,
) {
  return launchDiagnostic(ctx, code, start, end, message(didYouMean(suggestions[0], t)), { ...details, fixes: changeTo(ctx, start, end, suggestions, t, env) });
}
