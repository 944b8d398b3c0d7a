/** Shared by the ds_config validation, rules and code-action tests (not a test file itself). */
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type CodeAction, type Diagnostic } from 'vscode-languageserver-types';
import { defaultSettings, type ZeroLensSettings } from '../../server/src/settings';
import { validateConfig } from '../../server/src/dsconfig/validation/validate';
import { codeActions } from '../../server/src/dsconfig/codeActions/codeActions';
import { ConfigParses } from '../../server/src/dsconfig/parse';

/** The parses these tests share, as one language service instance owns them. */
const parses = new ConfigParses();

let version = 0;

export function docOf(text: string | object, languageId = 'ds-config', uri = 'file:///work/ds_config.json'): TextDocument {
  const body = typeof text === 'string' ? text : JSON.stringify(text, null, 2);
  return TextDocument.create(uri, languageId, ++version, body);
}

export function diagnose(text: string | object, options: { languageId?: string; settings?: Partial<ZeroLensSettings> } = {}): Diagnostic[] {
  return validateConfig(parses, docOf(text, options.languageId), { ...defaultSettings, ...options.settings });
}

export function codesOf(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => String(d.code));
}

export function withCode(diagnostics: Diagnostic[], code: string): Diagnostic[] {
  return diagnostics.filter((d) => d.code === code);
}

/** Each diagnostic as [code, dotted path, missing keys], for the required-key tests. */
export function missingKeysOf(diagnostics: Diagnostic[]): (string | undefined)[][] {
  return diagnostics.map((d) => {
    const data = d.data as { path: unknown[]; missing?: string[] };
    return [String(d.code), data.path.join('.'), data.missing?.join(',')];
  });
}

export function errorsOf(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error);
}

/** The text of a range, to assert exact ranges by what they cover. */
export function textAt(document: TextDocument, diagnostic: Diagnostic): string {
  return document.getText(diagnostic.range);
}

/** All quick fixes for the document's own diagnostics. */
export async function quickFixes(document: TextDocument, settings: ZeroLensSettings = defaultSettings): Promise<CodeAction[]> {
  const diagnostics = validateConfig(parses, document, settings);
  return codeActions(document, { start: { line: 0, character: 0 }, end: document.positionAt(document.getText().length) }, { diagnostics, only: ['quickfix'] }, settings);
}

export function applyAction(document: TextDocument, action: CodeAction): string {
  const edits = action.edit?.changes?.[document.uri] ?? [];
  return TextDocument.applyEdits(document, edits);
}

/** Applies the quick fix with this title and returns the new text. */
export async function fixed(text: string, title: string | RegExp): Promise<string> {
  const document = docOf(text);
  const actions = await quickFixes(document);
  const action = actions.find((a) => (typeof title === 'string' ? a.title === title : title.test(a.title)));
  assert.ok(action, `no action "${String(title)}" among ${JSON.stringify(actions.map((a) => a.title))}`);
  return applyAction(document, action);
}

/** A real-shaped HF-Trainer style ZeRO-2 config; tests override parts of it. */
export function baseConfig(): Record<string, any> {
  return {
    bf16: { enabled: 'auto' },
    optimizer: { type: 'AdamW', params: { lr: 'auto', betas: 'auto', eps: 'auto', weight_decay: 'auto' } },
    scheduler: { type: 'WarmupDecayLR', params: { warmup_min_lr: 'auto', warmup_max_lr: 'auto', warmup_num_steps: 'auto', total_num_steps: 'auto' } },
    zero_optimization: {
      stage: 2,
      allgather_partitions: true,
      allgather_bucket_size: 2e8,
      overlap_comm: true,
      reduce_scatter: true,
      reduce_bucket_size: 'auto',
      contiguous_gradients: true,
    },
    gradient_accumulation_steps: 'auto',
    gradient_clipping: 'auto',
    steps_per_print: 2000,
    train_batch_size: 'auto',
    train_micro_batch_size_per_gpu: 'auto',
    wall_clock_breakdown: false,
  };
}

/** baseConfig with `changes` deep-merged in; `undefined` deletes a key. */
export function configWith(changes: Record<string, any>, base: Record<string, any> = baseConfig()): Record<string, any> {
  const out: Record<string, any> = { ...base };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete out[key];
    else if (value && typeof value === 'object' && !Array.isArray(value) && out[key] && typeof out[key] === 'object' && !Array.isArray(out[key])) out[key] = configWith(value, out[key]);
    else out[key] = value;
  }
  return out;
}
