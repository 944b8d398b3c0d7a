import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DeepSpeedReference, SwiftPresetName } from '../launch/facts';
import { swiftPresets } from '../launch/swiftPresets';
import { english, optionLabel, sameOption, type ApplyOptionResult, type Translate, type ZeroOption } from '../protocol';

/** The ms-swift preset that is exactly `target`, if there is one (zero0 … zero3_offload). */
export function presetFor(target: ZeroOption): SwiftPresetName | undefined {
  return Object.values(swiftPresets).find((p) => sameOption(p, target))?.name;
}

/** Replaces the preset name after `--deepspeed` (quotes and everything around it stay). */
export function presetSwitchEdit(document: TextDocument, ref: DeepSpeedReference & { kind: 'preset' }, target: ZeroOption, t: Translate = english): ApplyOptionResult {
  const name = presetFor(target);
  if (!name) {
    return {
      edit: null,
      reason: t('ms-swift has no preset for {0} (presets: zero0, zero1, zero2, zero2_offload, zero3, zero3_offload). Point {1} at a JSON config to use it.', optionLabel(target, t), ref.via),
    };
  }
  const written = document.getText().slice(ref.span.start, ref.span.end);
  const at = written.indexOf(ref.name);
  if (at < 0) return { edit: null, reason: t('The {0} value is built from variables; change it by hand to {1}.', ref.via, name) };
  const start = ref.span.start + at;
  const range = { start: document.positionAt(start), end: document.positionAt(start + ref.name.length) };
  return { edit: { changes: { [document.uri]: [{ range, newText: name }] } } };
}
