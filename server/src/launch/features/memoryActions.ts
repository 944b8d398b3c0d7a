import type { Diagnostic } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import { gib } from '../../context/present';
import type { LaunchFacts, SwiftPresetName } from '../facts';
import type { LaunchEstimator } from '../estimates';
import type { SourceContext } from '../command/context';
import type { FixSpec } from '../../diagnostics/fixData';
import { replaceText } from '../../diagnostics/textOps';
import { launchDiagnostic } from '../diagnostics/launchDiagnostic';

/** Presets a `--deepspeed` value may switch to, most memory-saving last. */
const switchTargets: SwiftPresetName[] = ['zero2', 'zero3', 'zero3_offload'];

/** A preset switch and whether its estimate fits the GPU (null: no estimate). */
export interface PresetSwitch {
  fix: FixSpec;
  fits: boolean | null;
}

/** ms-swift launches can change preset in place; others would need their JSON edited (the ds_config hints do that). */
function canSwitchPreset(facts: LaunchFacts): boolean {
  const ref = facts.deepspeed;
  // The value must be in this document (not in a YAML the command names) for an in-place edit.
  return (facts.launcher === 'swift' || facts.launcher === 'swift-yaml') && !!ref && ref.kind !== 'unresolved' && ref.span.uri === facts.uri;
}

/** "Switch to zero3 (≈ 14.1 GiB/GPU)" fixes on the `--deepspeed` value of `text`, the first that fits preferred. */
export async function presetSwitchFixes(facts: LaunchFacts, text: string, estimator: LaunchEstimator, settings: ZeroLensSettings): Promise<PresetSwitch[]> {
  if (!canSwitchPreset(facts)) return [];
  const ref = facts.deepspeed!;
  const current = ref.kind === 'preset' ? ref.name : undefined;
  const switches: PresetSwitch[] = [];
  for (const name of switchTargets) {
    if (name === current) continue;
    const result = await estimator.withPreset(facts, settings, name);
    const title = result ? `Switch to ${name} (≈ ${gib(result.perGpu.total)}/GPU${result.fits === false ? ', does not fit' : ''})` : `Switch to ${name}`;
    switches.push({ fix: { id: 'switch-preset', title, ops: [replaceText(text, ref.span.start, ref.span.end, name)] }, fits: result?.fits ?? null });
  }
  const firstFit = switches.find((s) => s.fits === true);
  if (firstFit) firstFit.fix.preferred = true;
  return switches;
}

/** Estimate over `zeroLens.gpuMemoryGiB`, with the switches that would fit. */
export async function memoryDiagnostics(ctx: SourceContext, all: LaunchFacts[], estimator: LaunchEstimator, settings: ZeroLensSettings): Promise<Diagnostic[]> {
  if (!settings.gpuMemoryGiB) return [];
  const out: Diagnostic[] = [];
  for (const written of all) {
    const effective = await estimator.effective(written);
    if (!effective) continue;
    const { facts, anchor } = effective;
    const current = await estimator.current(facts, settings);
    if (!current || current.result.fits !== false) continue;
    const fixes = (await presetSwitchFixes(facts, ctx.document.getText(), estimator, settings)).filter((s) => s.fits !== false).map((s) => s.fix);
    out.push(
      launchDiagnostic(
        ctx,
        'estimate-exceeds-gpu-memory',
        anchor.start,
        anchor.end,
        `Estimated ≈ ${gib(current.result.perGpu.total)} per GPU for ${current.analysis.model!.displayName}, more than the ${settings.gpuMemoryGiB} GiB GPU (zeroLens.gpuMemoryGiB).`,
        { perGpuBytes: current.result.perGpu.total, gpuMemoryGiB: settings.gpuMemoryGiB, fixes },
      ),
    );
  }
  return out;
}
