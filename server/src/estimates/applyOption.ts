import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from 'vscode-languageserver-types';
import { TextDocument as TextDocuments } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { english, optionLabel, readOption, sameOption, type ApplyOptionParams, type ApplyOptionResult, type Translate } from '../protocol';
import type { EstimatedKind } from '../feature';
import { parseConfigText, type ConfigParses } from '../dsconfig/parse';
import { currentOption } from '../training/analyze';
import { pathOf } from '../util/paths';
import type { TrainingService } from '../training/service';
import { presetSwitchEdit } from './presetSwitch';
import { stageSwitchEdit } from './stageActions';

/**
 * The same edit as the quick fix, for the sidebar's Apply and the "Switch ZeRO stage…" quick pick: in the
 * config itself, in the ms-swift preset a script names, or in the config file a script names.
 */
export async function applyOptionEdit(
  training: TrainingService,
  parses: ConfigParses,
  document: TextDocument,
  kind: EstimatedKind,
  params: ApplyOptionParams,
  t: Translate = english,
): Promise<ApplyOptionResult> {
  // Params come off the wire: any client may send anything.
  const target = readOption(params);
  if (!target) {
    return { edit: null, reason: t('Not a ZeRO option: stage must be 0, 1, 2 or 3, and offloadOptimizer (stages 1–3) and offloadParam (stage 3) "none", "cpu" or "nvme".') };
  }
  if (kind === 'ds-config') {
    const parsed = parses.parse(document);
    if (sameOption(currentOption(parsed.value), target)) return { edit: null, reason: t('The config already uses {0}.', optionLabel(target, t)) };
    const switched = stageSwitchEdit(document, parsed, target);
    return switched ? { edit: switched.edit } : { edit: null, reason: t('The config has JSON errors; fix them first so the edit cannot land in the wrong place.') };
  }
  const [launch] = await training.launchesOf(document);
  const config = launch && (await training.configOf(launch.deepspeed));
  if (!launch || !config) return { edit: null, reason: t('This script launches no DeepSpeed config (no --deepspeed or deepspeed: value ZeRO Lens can read).') };
  if (sameOption(currentOption(config.value), target)) return { edit: null, reason: t('The launch already uses {0}.', optionLabel(target, t)) };
  const ref = launch.deepspeed;
  if (ref.kind === 'preset') {
    // The preset may be written in the YAML the command names (`swift sft sft.yaml`): the edit goes there.
    if (ref.span.uri === document.uri) return presetSwitchEdit(document, ref, target, t);
    const text = await training.readText(pathOf(ref.span.uri), 'yaml');
    if (text === undefined) return { edit: null, reason: t('{0} cannot be read.', pathOf(ref.span.uri)) };
    return asOpened(presetSwitchEdit(TextDocuments.create(ref.span.uri, 'yaml', 0, text), ref, target, t), text);
  }
  if (ref.kind === 'file' && config.file) {
    const configDocument = TextDocuments.create(URI.file(config.file.path).toString(), 'ds-config', 0, config.file.text);
    const switched = stageSwitchEdit(configDocument, parseConfigText(config.file.text), target);
    return switched ? asOpened({ edit: switched.edit }, config.file.text) : { edit: null, reason: t('{0} has JSON errors; fix them first.', config.file.path) };
  }
  return { edit: null, reason: t('The DeepSpeed settings here are written inline ({0}); change them by hand.', ref.via) };
}

/**
 * An edit made on a file's text as read from disk, placed where an editor that opens the file has it: the editor
 * drops a UTF-8 BOM (VS Code decodes with `new TextDecoder()`, microsoft/vscode
 * src/vs/workbench/services/textfile/common/encoding.ts:87 at 006001da, and writes the BOM back on save), so every
 * character of the first line sits one place earlier. A text read from an open document has no BOM to account for.
 */
function asOpened(result: ApplyOptionResult, text: string): ApplyOptionResult {
  if (!result.edit?.changes || text.charCodeAt(0) !== 0xfeff) return result;
  const shift = (p: Position): Position => (p.line === 0 && p.character > 0 ? { line: 0, character: p.character - 1 } : p);
  const changes = Object.fromEntries(
    Object.entries(result.edit.changes).map(([uri, edits]) => [uri, edits.map((e) => ({ ...e, range: { start: shift(e.range.start), end: shift(e.range.end) } }))]),
  );
  return { ...result, edit: { ...result.edit, changes } };
}
