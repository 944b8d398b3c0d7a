import type { Diagnostic } from 'vscode-languageserver-types';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ParsedConfig } from '../dsconfig/parse';
import type { LaunchFacts } from '../launch/facts';
import { addZeroSection, lacksZeroSection, pluginPath, pluginRaises, pluginReader } from '../launch/deepspeedPlugin';
import { diagnosticData } from '../diagnostics/fixData';
import { makeDiagnostic } from '../diagnostics/makeDiagnostic';
import type { DiagnosticCode } from '../diagnostics/registry';
import { english, type Translate } from '../protocol';
import { byPathThenCommand, where } from '../training/context';

/** The launch code, shared with the error at the script's `--deepspeed` value. */
export const zeroSectionCode: DiagnosticCode = 'zero-optimization-required';

/**
 * An error on a config without zero_optimization when a launch command in the workspace hands it to
 * accelerate's DeepSpeedPlugin, which refuses it; nothing when no such command is known (plain DeepSpeed
 * runs it at stage 0). At the first key (or the `{` of an empty object), with a fix that adds stage 0.
 */
export function zeroSectionDiagnostic(document: TextDocument, parsed: ParsedConfig, launches: LaunchFacts[], t: Translate = english): Diagnostic | undefined {
  const root = parsed.root;
  if (root?.type !== 'object' || !lacksZeroSection(parsed.value)) return undefined;
  const using = launches.filter((l) => pluginReader(l)).sort(byPathThenCommand);
  const first = using[0];
  if (!first) return undefined;
  const key = root.children?.[0]?.children?.[0];
  const start = key?.offset ?? root.offset;
  const end = key ? key.offset + key.length : root.offset + 1;
  const others = using.length > 2 ? t(' (and {0} other launch commands)', using.length - 1) : using.length > 1 ? t(' (and 1 other launch command)') : '';
  const data = diagnosticData(document, {
    path: [],
    launch: where(first),
    fixes: [{ id: 'add-zero-section', title: t('Add {0}', '"zero_optimization": { "stage": 0 }'), ops: [{ op: 'set', path: ['zero_optimization'], value: { stage: 0 } }], preferred: true }],
  });
  const range = { start: document.positionAt(start), end: document.positionAt(end) };
  return makeDiagnostic(
    zeroSectionCode,
    range,
    t('This config has no zero_optimization section, and {0}{1} trains with it: {2}, and {3}. {4}', where(first, t), others, pluginPath(pluginReader(first)!, t), pluginRaises(t), addZeroSection(t)),
    data,
  );
}

