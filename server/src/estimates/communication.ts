import { english, type EstimateResult, type Translate, type ZeroStage } from '../protocol';

/**
 * How an option moves parameters per step, besides reducing the gradients:
 * - `after-step`: ZeRO 0–2, DDP, FSDP NO_SHARD: the trained gradients are reduce-scattered and the updated
 *   partitions all-gathered, as much as one all-reduce (2Ψₜ); frozen weights never move.
 * - `forward-and-backward`: ZeRO-3 and FSDP FULL_SHARD gather every parameter, frozen ones included, in forward and
 *   again in backward (2Ψ), and reduce-scatter the trained gradients (Ψₜ).
 * - `forward`: FSDP SHARD_GRAD_OP gathers once, in forward, and keeps the parameters to backward (Ψ + Ψₜ).
 */
export type GatherPattern = 'after-step' | 'forward-and-backward' | 'forward';

/** A ZeRO stage's pattern: stage 3 gathers in forward and backward, stages 0–2 after the step. */
export function zeroGathers(stage: ZeroStage): GatherPattern {
  return stage === 3 ? 'forward-and-backward' : 'after-step';
}

type Params = EstimateResult['params'];

/** Only part of the model trains (LoRA): Ψₜ is then worth naming beside Ψ. */
function trainsPart(params: Params | undefined): params is Params {
  return params !== undefined && params.trainable > 0 && params.trainable < params.total;
}

/**
 * The "Comm. / step" cell: elements moved per step in copies of the parameters, and the ratio to plain data
 * parallelism's all-reduce of the same gradients (ZeRO paper §7: 2Ψ for stages 0–2, 3Ψ for stage 3 when everything
 * trains). With LoRA the trained part Ψₜ is a sliver of Ψ, and gathering the frozen weights is what ZeRO-3 costs:
 * "2Ψ + Ψₜ (381×)". Without the parameter counts (no model), the full fine-tuning form.
 */
export function communicationCell(pattern: GatherPattern, params?: Params): string {
  const partial = trainsPart(params);
  const total = params?.total ?? 1;
  const trained = partial ? params.trainable : total;
  const moved = pattern === 'forward-and-backward' ? 2 * total + trained : pattern === 'forward' ? total + trained : 2 * trained;
  const ratio = `(${formatRatio(moved / (2 * trained))}×)`;
  if (!partial) return `${pattern === 'forward-and-backward' ? '3Ψ' : '2Ψ'} ${ratio}`;
  if (pattern === 'after-step') return `2Ψₜ ${ratio}`;
  return `${pattern === 'forward' ? 'Ψ' : '2Ψ'} + Ψₜ ${ratio}`;
}

/** 1, 1.5, 2.3, then whole numbers: the ratio's size is what matters. */
function formatRatio(ratio: number): string {
  if (ratio >= 10) return Math.round(ratio).toLocaleString('en-US');
  return String(Math.round(ratio * 10) / 10);
}

/** What Ψ (and Ψₜ, when only part of the model trains) stand for under the tables. */
export function communicationLegend(params: Params | undefined, t: Translate = english): string {
  if (trainsPart(params)) {
    return t("Ψ: one copy of the 16-bit parameters; Ψₜ: of the trained ones. Stages 0–2 reduce-scatter the trained gradients and all-gather the updated ones (2Ψₜ per step, as much as plain data parallelism's all-reduce); ZeRO-3 all-gathers every parameter, frozen ones included, in forward and again in backward (2Ψ + Ψₜ).");
  }
  return t("Ψ: one copy of the 16-bit parameters. Stages 0–2 reduce-scatter the gradients and all-gather the updated parameters (2Ψ per step, as much as plain data parallelism's all-reduce); ZeRO-3 all-gathers the parameters in forward and again in backward instead (3Ψ).");
}
