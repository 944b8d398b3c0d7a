import { InlayHintKind, type InlayHint } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import { stageHintText } from '../../context/present';
import type { LaunchFacts } from '../facts';
import type { LaunchEstimator } from '../estimates';

/** `≈ 19.2 GiB/GPU · Qwen3-8B · 4 GPUs` after each `--deepspeed` value (or `--zero_stage`, `deepspeed:`). */
export async function launchInlayHints(all: LaunchFacts[], estimator: LaunchEstimator, settings: ZeroLensSettings): Promise<InlayHint[]> {
  const hints: InlayHint[] = [];
  for (const written of all) {
    const effective = await estimator.effective(written);
    if (!effective) continue;
    const current = await estimator.current(effective.facts, settings);
    if (!current) continue;
    const { analysis, result } = current;
    const label = stageHintText(result, analysis.model!.displayName, analysis.context.gpusPerNode!.value, analysis.context.nodes.value, analysis.gpuMemoryBytes);
    hints.push({ position: effective.anchor.range.end, label, kind: InlayHintKind.Type, paddingLeft: true, tooltip: `Per-GPU memory estimate for ${analysis.configPath}` });
  }
  return hints;
}
