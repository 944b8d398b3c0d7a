import type { Diagnostic } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ParsedConfig } from '../dsconfig/parse';
import type { LaunchFacts } from '../launch/facts';
import { addZeroSection, lacksZeroSection, pluginPath, pluginRaises, pluginReader } from '../launch/deepspeedPlugin';
import { english } from '../l10n';
import { diagnosticData } from '../diagnostics/fixData';
import { makeDiagnostic } from '../diagnostics/makeDiagnostic';
import type { DiagnosticCode } from '../diagnostics/registry';
import { byPathThenCommand, where } from '../training/context';

/** The launch code, shared with the error at the script's `--deepspeed` value. */
export const zeroSectionCode: DiagnosticCode = 'zero-optimization-required';

/**
 * An error on a config without zero_optimization when a launch command in the workspace hands it to
 * accelerate's DeepSpeedPlugin, which refuses it; nothing when no such command is known (plain DeepSpeed
 * runs it at stage 0). At the first key (or the `{` of an empty object), with a fix that adds stage 0.
 */
export function zeroSectionDiagnostic(document: TextDocument, parsed: ParsedConfig, launches: LaunchFacts[]): Diagnostic | undefined {
  const root = parsed.root;
  if (root?.type !== 'object' || !lacksZeroSection(parsed.value)) return undefined;
  const using = launches.filter((l) => pluginReader(l)).sort(byPathThenCommand);
  const first = using[0];
  if (!first) return undefined;
  const key = root.children?.[0]?.children?.[0];
  const start = key?.offset ?? root.offset;
  const end = key ? key.offset + key.length : root.offset + 1;
  const others = using.length > 1 ? ` (and ${using.length - 1} other launch command${using.length > 2 ? 's' : ''})` : '';
  const data = diagnosticData(document, {
    path: [],
    launch: where(first),
    fixes: [{ id: 'add-zero-section', title: 'Add "zero_optimization": { "stage": 0 }', ops: [{ op: 'set', path: ['zero_optimization'], value: { stage: 0 } }], preferred: true }],
  });
  const range = { start: document.positionAt(start), end: document.positionAt(end) };
  return makeDiagnostic(
    zeroSectionCode,
    range,
    `This config has no zero_optimization section, and ${where(first)}${others} trains with it: ${pluginPath(pluginReader(first)!, english)}, and ${pluginRaises(english)}. ${addZeroSection(english)}`,
    data,
  );
}

