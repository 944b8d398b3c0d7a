/**
 * The estimate surfaces of the editor in one locale (not a test file itself): the stage hover, the inline hints and
 * their tooltips, the estimate diagnostics and their quick-fix titles, in a config and a launch script, over an
 * in-memory workspace whose launches exercise every estimate message the server words.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import * as path from 'node:path';
import type { Diagnostic, InlayHint, MarkupContent } from 'vscode-languageserver-types';
import type { Locale } from '../../server/src/l10n';
import { getLanguageService } from '../../server/src/languageService';
import { withDefaults } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

export interface Surface {
  name: string;
  texts: string[];
}

/** The codes of the diagnostics the estimates layer (server/src/estimates) raises. */
export const estimateCodes = new Set(['estimate-exceeds-gpu-memory', 'estimate-exceeds-cpu-memory', 'auto-not-filled', 'client-optimizer-with-offload', 'zero3-save-without-gather', 'moe-without-leaf-module', 'zero-optimization-required']);

const uriOf = (name: string) => URI.file(path.join(workspaceRoot, name)).toString();

/** ZeRO-2 with optimizer offload and "auto" values, run by a plain deepspeed.initialize script on 8 GPUs. */
const offloadConfig = `{
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_clipping": "auto",
  "bf16": { "enabled": true },
  "zero_optimization": {
    "stage": 2,
    "offload_optimizer": { "device": "cpu" },
    "overlap_comm": "auto"
  }
}
`;
const plainScript = 'deepspeed --num_gpus 8 train.py --model_name_or_path Qwen/Qwen3-8B --deepspeed_config ds_config.json\n';
/** ZeRO-3 without the 16-bit gather, trained by the HF Trainer of a Python script, for an MoE model. */
const zero3Config = '{\n  "bf16": { "enabled": true },\n  "zero_optimization": { "stage": 3 }\n}\n';
const trainerScript = 'python train.py --model_name_or_path allenai/OLMoE-1B-7B-0924 --deepspeed zero3.json --bf16\n';
/** The same config launched by ms-swift on 8 GPUs: the launch hint, warning and its preset switches. */
const swiftScript = 'NPROC_PER_NODE=8 \\\nswift sft \\\n    --model Qwen/Qwen3-8B \\\n    --tuner_type full \\\n    --deepspeed zero1 \\\n    --max_length 8192\n';
/** A config nothing launches, with no stage: what is missing instead of numbers. */
const loneConfig = '{\n  "train_micro_batch_size_per_gpu": 1,\n  "zero_optimization": { "stage": 1 }\n}\n';

export async function estimateSurfaces(locale: Locale): Promise<Surface[]> {
  const files = { 'ds_config.json': offloadConfig, 'train.sh': plainScript, 'zero3.json': zero3Config, 'hf.sh': trainerScript, 'sft.sh': swiftScript, 'lone.json': loneConfig };
  const service = getLanguageService(memoryHosts(files));
  const settings = { ...withDefaults({ gpuMemoryGiB: 16, cpuMemoryGiB: 8 }), locale };
  const unknown = { ...withDefaults({}), locale };
  const config = (name: string) => TextDocument.create(uriOf(name), 'ds-config', 1, files[name as keyof typeof files]);
  const script = (name: string) => TextDocument.create(uriOf(name), 'shellscript', 1, files[name as keyof typeof files]);
  const whole = (document: TextDocument) => ({ start: { line: 0, character: 0 }, end: document.positionAt(document.getText().length) });
  const text = (value: string | MarkupContent | undefined) => (typeof value === 'string' ? value : (value?.value ?? ''));
  const hintTexts = (hints: InlayHint[]) => hints.flatMap((h) => [typeof h.label === 'string' ? h.label : h.label.map((p) => p.value + ' ' + text(p.tooltip)).join(' '), text(h.tooltip)]);
  const ours = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.source === 'zero-lens' && estimateCodes.has(String(d.code)));
  const messages = (diagnostics: Diagnostic[]) => diagnostics.flatMap((d) => [text(d.message), ...(d.relatedInformation ?? []).map((r) => r.message)]);

  const surfaces: Surface[] = [];
  const hovers: string[] = [];
  const hints: string[] = [];
  const diagnosticTexts: string[] = [];
  const titles: string[] = [];
  // zero3.json's context comes from a launcher default worded by launch/ ("python train.py runs one process"):
  // its hover and hints are left out, its diagnostics and fixes are ours.
  for (const [document, s, shown] of [
    [config('ds_config.json'), settings, true],
    [config('ds_config.json'), unknown, true],
    [config('zero3.json'), settings, false],
    [config('lone.json'), unknown, true],
    [config('lone.json'), { ...unknown, model: 'org/no-such-model' }, true],
    [config('lone.json'), { ...unknown, gpusPerNode: 8 }, true],
  ] as const) {
    if (shown) {
      const hover = await service.doHover(document, document.positionAt(document.getText().indexOf('"stage"') + 2), s);
      // The stage key's own documentation follows the estimate table after a rule: ds_config's, not ours.
      hovers.push(text(hover?.contents as MarkupContent).split('\n---\n')[0]);
      hints.push(...hintTexts(await service.getInlayHints(document, whole(document), s)));
    }
    const found = ours(await service.doValidation(document, s));
    diagnosticTexts.push(...messages(found));
    const actions = await service.getCodeActions(document, whole(document), { diagnostics: found }, s);
    titles.push(...actions.map((a) => a.title));
  }
  for (const name of ['sft.sh']) {
    const document = script(name);
    hints.push(...hintTexts(await service.getInlayHints(document, whole(document), settings)));
    const found = ours(await service.doValidation(document, settings));
    diagnosticTexts.push(...messages(found));
    const actions = await service.getCodeActions(document, whole(document), { diagnostics: found }, settings);
    titles.push(...actions.map((a) => a.title));
  }
  surfaces.push({ name: 'estimate hover tables', texts: hovers });
  surfaces.push({ name: 'estimate inline hints and tooltips', texts: hints });
  surfaces.push({ name: 'estimate diagnostics', texts: diagnosticTexts });
  surfaces.push({ name: 'estimate quick-fix titles', texts: titles });
  return surfaces;
}
