import type { ParamCount } from './paramCount';
import type { ModelArchitecture, ModelParallelSpec } from './types';

/**
 * What one GPU holds of the model under tensor, pipeline, context and expert parallelism (docs/memory-model.md,
 * "Tensor and pipeline parallelism").
 *
 * Megatron-Core: the attention and MLP matrices of a layer are split over TP (ColumnParallelLinear /
 * RowParallelLinear), the embedding and the output head too (VocabParallelEmbedding, vocab-parallel cross-entropy);
 * routed experts over EP × expert-TP; each pipeline stage holds ⌈L/PP⌉ layers, the first one the embedding and the
 * last one the head, so the heaviest stage holds the layers and one of the two. Context parallel splits the sequence,
 * not the weights. Data parallel is what is left: world ÷ (TP·PP·CP) for dense weights, world ÷ (EP·ETP·PP) for experts.
 *
 * DeepSpeed AutoTP (`tensor_parallel.autotp_size`): the decoder's linear layers are split over the TP group
 * (module_inject/auto_tp.py, LinearLayer / LinearAllreduce); embeddings, norms and the output head stay whole on
 * every rank. ZeRO then partitions over the data-parallel group, world ÷ TP.
 */
export interface ParallelShare {
  /** Parameters one GPU holds (the heaviest pipeline stage). */
  paramsPerGpu: number;
  /** Of those, expert parameters (sharded by the expert data-parallel group). */
  expertParamsPerGpu: number;
  /** Data-parallel sizes: for dense weights and for experts. */
  dataParallel: number;
  expertDataParallel: number;
  /** The factor by which the layers' activations shrink per GPU. */
  activationSplit: number;
  /** The largest single module one GPU holds (a gather or save buffer). */
  largestLayerPerGpu: number;
}

/** Expert parameters of all MoE layers (routed experts only). */
function expertParams(arch: ModelArchitecture): number {
  const m = arch.moe;
  if (!m) return 0;
  const mats = arch.mlp === 'gated' ? 3 : 2;
  const moeLayers = arch.numLayers - Math.min(arch.numLayers, m.denseLayers ?? 0);
  return mats * arch.hiddenSize * m.moeIntermediateSize * m.numExperts * moeLayers;
}

/**
 * Activations per GPU shrink by TP·CP with sequence parallelism; without it only the attention and MLP internals
 * split: per layer sbh·(10 + 24/t) instead of 34·sbh (Korthikanti et al. 2022, Table 2).
 */
export function activationSplit(tp: number, cp: number, sequenceParallel: boolean): number {
  const t = Math.max(1, tp);
  return Math.max(1, cp) * (sequenceParallel || t === 1 ? t : 34 / (10 + 24 / t));
}

export function parallelShare(spec: ModelParallelSpec, gpus: number, counts: ParamCount | undefined, arch: ModelArchitecture | undefined, totalParams: number, largestLayerParams: number): ParallelShare {
  const tp = Math.max(1, spec.tp);
  const pp = Math.max(1, spec.pp);
  const cp = Math.max(1, spec.cp);
  const ep = Math.max(1, spec.ep);
  const etp = Math.max(1, spec.etp ?? tp);
  if (spec.kind === 'autotp') {
    const linear = counts?.decoderLinear ?? Math.round(totalParams * 0.9);
    return {
      paramsPerGpu: totalParams - linear + linear / tp,
      expertParamsPerGpu: 0,
      dataParallel: Math.max(1, Math.floor(gpus / tp)),
      expertDataParallel: Math.max(1, Math.floor(gpus / tp)),
      // AutoTP has no sequence parallelism: the layer inputs are whole on every rank.
      activationSplit: activationSplit(tp, 1, false),
      largestLayerPerGpu: largestLayerParams,
    };
  }
  const embedding = counts?.embedding ?? largestLayerParams;
  const head = counts ? counts.lmHead || counts.embedding : largestLayerParams;
  const experts = arch ? expertParams(arch) : 0;
  const parts = counts?.parts ?? 0;
  const layersTotal = Math.max(1, arch?.numLayers ?? 32);
  const stageLayers = Math.ceil(layersTotal / pp) / layersTotal;
  const blocks = Math.max(0, totalParams - (counts ? counts.embedding + counts.lmHead : largestLayerParams) - parts - experts);
  const expertPerGpu = (experts * stageLayers) / (ep * etp);
  // The heaviest stage: the first (embedding, towers) or, with PP = 1, the only one (embedding and head).
  const ends = pp === 1 ? embedding + (counts ? counts.lmHead : 0) : Math.max(embedding, head);
  const perGpu = (blocks * stageLayers) / tp + expertPerGpu + ends / tp + parts;
  return {
    paramsPerGpu: perGpu,
    expertParamsPerGpu: expertPerGpu,
    dataParallel: Math.max(1, Math.floor(gpus / (tp * pp * cp))),
    expertDataParallel: Math.max(1, Math.floor(gpus / (ep * etp * pp))),
    activationSplit: activationSplit(tp, cp, spec.sequenceParallel !== false),
    largestLayerPerGpu: Math.max(embedding / tp, largestLayerParams / tp),
  };
}

/** "TP 2 · PP 1 · EP 1" for notes and labels (identifiers, the same in every language). */
export function parallelLabel(spec: ModelParallelSpec): string {
  if (spec.kind === 'autotp') return `AutoTP ${spec.tp}`;
  const parts = [`TP ${spec.tp}`, `PP ${spec.pp}`];
  if (spec.cp > 1) parts.push(`CP ${spec.cp}`);
  if (spec.ep > 1) parts.push(`EP ${spec.ep}`);
  // l10n-ignore: product and size names (TP 2 · PP 4) read the same in every language
  return `Megatron ${parts.join(' · ')}`;
}
