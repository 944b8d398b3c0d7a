import type { ParamCount } from './paramCount';
import type { LoraSpec, ModelArchitecture } from './types';

/**
 * LoRA adapter parameters: r · (d_in + d_out) per adapted linear layer, summed over layers and the
 * targeted modules. Frozen base weights keep only their storage bytes (see `frozenWeightBytes`).
 */

/** A linear layer in one decoder block, with the names PEFT `target_modules` uses for it. */
interface LinearShape {
  names: string[];
  dIn: number;
  dOut: number;
  /** How many of them in one layer (routed experts). */
  copies: number;
}

const allLinear = new Set(['all-linear', 'all_linear', 'all']);

function blockLinears(a: ModelArchitecture, inter: number, experts: number, shared: number): LinearShape[] {
  const h = a.hiddenSize;
  const shapes: LinearShape[] = [];
  if (a.mla) {
    const m = a.mla;
    const n = a.numHeads;
    shapes.push(
      { names: ['q_a_proj', 'q_proj'], dIn: h, dOut: m.qLoraRank, copies: 1 },
      { names: ['q_b_proj', 'q_proj'], dIn: m.qLoraRank, dOut: n * (m.qkNopeHeadDim + m.qkRopeHeadDim), copies: 1 },
      { names: ['kv_a_proj_with_mqa', 'k_proj', 'v_proj'], dIn: h, dOut: m.kvLoraRank + m.qkRopeHeadDim, copies: 1 },
      { names: ['kv_b_proj', 'k_proj', 'v_proj'], dIn: m.kvLoraRank, dOut: n * (m.qkNopeHeadDim + m.vHeadDim), copies: 1 },
      { names: ['o_proj'], dIn: n * m.vHeadDim, dOut: h, copies: 1 },
    );
  } else {
    const q = a.numHeads * a.headDim;
    const kv = a.numKvHeads * a.headDim;
    if (a.fusedQkv) {
      shapes.push({ names: ['qkv_proj', 'wqkv', 'query_key_value', 'q_proj', 'k_proj', 'v_proj'], dIn: h, dOut: q + 2 * kv, copies: 1 });
    } else {
      shapes.push(
        { names: ['q_proj', 'wq'], dIn: h, dOut: q, copies: 1 },
        { names: ['k_proj', 'wk'], dIn: h, dOut: kv, copies: 1 },
        { names: ['v_proj', 'wv'], dIn: h, dOut: kv, copies: 1 },
      );
    }
    shapes.push({ names: ['o_proj', 'wo', 'dense', 'out_proj'], dIn: q, dOut: h, copies: 1 });
  }
  const mlp = (i: number, copies: number) => {
    if (a.mlp === 'plain') {
      shapes.push({ names: ['up_proj', 'fc1', 'c_fc'], dIn: h, dOut: i, copies }, { names: ['down_proj', 'fc2', 'c_proj'], dIn: i, dOut: h, copies });
    } else if (a.fusedGateUp) {
      shapes.push(
        { names: ['gate_up_proj', 'dense_h_to_4h', 'gate_proj', 'up_proj'], dIn: h, dOut: 2 * i, copies },
        { names: ['down_proj', 'dense_4h_to_h'], dIn: i, dOut: h, copies },
      );
    } else {
      shapes.push(
        { names: ['gate_proj', 'w1'], dIn: h, dOut: i, copies },
        { names: ['up_proj', 'w3'], dIn: h, dOut: i, copies },
        { names: ['down_proj', 'w2'], dIn: i, dOut: h, copies },
      );
    }
  };
  if (inter > 0) mlp(inter, experts);
  if (shared > 0) mlp(shared, 1);
  return shapes;
}

function adapterParams(shapes: LinearShape[], rank: number, targets: Set<string>, all: boolean): number {
  let sum = 0;
  for (const s of shapes) if (all || s.names.some((n) => targets.has(n))) sum += s.copies * rank * (s.dIn + s.dOut);
  return sum;
}

/**
 * Trainable adapter parameters. "all-linear" means every linear in the decoder blocks (q, k, v, o, gate,
 * up, down, and each routed and shared expert's), but not the MoE router and not the output head,
 * as PEFT does.
 */
export function loraTrainableParams(a: ModelArchitecture, spec: LoraSpec): number {
  const targets = new Set(spec.targetModules.map((t) => t.trim().toLowerCase()));
  const all = spec.targetModules.some((t) => allLinear.has(t.trim().toLowerCase()));
  const r = spec.rank;
  if (!a.moe) return a.numLayers * adapterParams(blockLinears(a, a.intermediateSize, 1, 0), r, targets, all);
  const m = a.moe;
  const denseLayers = m.firstDenseLayers ?? 0;
  const dense = adapterParams(blockLinears(a, a.intermediateSize, 1, 0), r, targets, all);
  const moe = adapterParams(blockLinears(a, m.moeIntermediateSize, m.numExperts, m.sharedExpertIntermediateSize ?? 0), r, targets, all);
  return denseLayers * dense + (a.numLayers - denseLayers) * moe;
}

/**
 * Without an architecture, a rough adapter count. We guess a Llama-like shape: 32 layers, hidden size
 * h from params ≈ 12·L·h², an MLP width ≈ 3.5h, so d_in + d_out ≈ 2h for attention projections and
 * ≈ 4.5h for MLP projections.
 */
export function loraTrainableParamsRough(totalParams: number, spec: LoraSpec): number {
  const layers = 32;
  const h = Math.sqrt(totalParams / (12 * layers));
  const targets = spec.targetModules.map((t) => t.trim().toLowerCase());
  const all = targets.some((t) => allLinear.has(t));
  const attention = ['q_proj', 'k_proj', 'v_proj', 'o_proj'];
  const mlp = ['gate_proj', 'up_proj', 'down_proj'];
  const widths = all
    ? attention.length * 2 + mlp.length * 4.5
    : targets.reduce((sum, t) => sum + (attention.includes(t) ? 2 : mlp.includes(t) ? 4.5 : 0), 0);
  return Math.round(layers * spec.rank * widths * h);
}

/** NF4: 4 bits per weight + 8-bit block absmax per 64 weights + fp32 second-level constant per 256 blocks. */
export const NF4_DOUBLE_QUANT_BYTES = 0.5 + 1 / 64 + 4 / (64 * 256);
/** NF4 without double quantisation: 4 bits + fp32 absmax per 64 weights. */
export const NF4_BYTES = 0.5 + 4 / 64;

/**
 * Storage bytes of the frozen base model. Quantisation applies to the decoder's linear weights only;
 * embeddings, norms, biases and the output head stay in the training dtype (bitsandbytes' default).
 */
export function frozenWeightBytes(counts: Pick<ParamCount, 'total' | 'decoderLinear'> | undefined, totalParams: number, dtypeBytes: number, spec: LoraSpec): number {
  if (!spec.quantBits) return totalParams * dtypeBytes;
  const perWeight = spec.quantBits === 8 ? 1 : spec.doubleQuant === false ? NF4_BYTES : NF4_DOUBLE_QUANT_BYTES;
  // Without an architecture we cannot tell linear weights from the rest; assume 90% are linear.
  const linear = counts ? counts.decoderLinear : Math.round(totalParams * 0.9);
  return linear * perWeight + (totalParams - linear) * dtypeBytes;
}
