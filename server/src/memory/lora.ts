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

/** The token mixer's linears: softmax attention (MHA/GQA, fused qkv, MLA) or a Gated DeltaNet layer. */
function attentionLinears(a: ModelArchitecture, linearMixer: boolean): LinearShape[] {
  const h = a.hiddenSize;
  const shapes: LinearShape[] = [];
  if (linearMixer && a.linearAttention) {
    const la = a.linearAttention;
    const keyDim = la.keyHeads * la.keyHeadDim;
    const valueDim = la.valueHeads * la.valueHeadDim;
    shapes.push(
      { names: ['in_proj_qkvz', 'in_proj_qkv', 'in_proj_z'], dIn: h, dOut: 2 * keyDim + 2 * valueDim, copies: 1 },
      { names: ['in_proj_ba', 'in_proj_b', 'in_proj_a'], dIn: h, dOut: 2 * la.valueHeads, copies: 1 },
      { names: ['out_proj'], dIn: valueDim, dOut: h, copies: 1 },
    );
  } else if (a.mla) {
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
        { names: ['q_proj', 'wq'], dIn: h, dOut: a.attnOutputGate ? 2 * q : q, copies: 1 },
        { names: ['k_proj', 'wk'], dIn: h, dOut: kv, copies: 1 },
        { names: ['v_proj', 'wv'], dIn: h, dOut: kv, copies: 1 },
      );
    }
    shapes.push({ names: ['o_proj', 'wo', 'dense', 'out_proj'], dIn: q, dOut: h, copies: 1 });
  }
  return shapes;
}

/** The MLP's linears: `experts` copies of a width-`inter` MLP and one shared expert of width `shared`. */
function mlpLinears(a: ModelArchitecture, inter: number, experts: number, shared: number): LinearShape[] {
  const h = a.hiddenSize;
  const shapes: LinearShape[] = [];
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

interface Targets {
  names: Set<string>;
  all: boolean;
}

function targetsOf(spec: LoraSpec): Targets {
  const names = spec.targetModules.map((t) => t.trim().toLowerCase());
  return { names: new Set(names), all: names.some((t) => allLinear.has(t)) };
}

function adapted(s: LinearShape, t: Targets): boolean {
  return t.all || s.names.some((n) => t.names.has(n));
}

/**
 * The linears of each kind of decoder layer (dense or MoE MLP, softmax or linear attention), with how many
 * layers of that kind there are. Which layers mix which way does not matter for the sums, only how many.
 */
function layerKinds(a: ModelArchitecture): Array<{ layers: number; shapes: LinearShape[] }> {
  const linearLayers = Math.min(a.numLayers, a.linearAttention?.layers ?? 0);
  const mixers = [
    { layers: a.numLayers - linearLayers, shapes: attentionLinears(a, false) },
    { layers: linearLayers, shapes: attentionLinears(a, true) },
  ];
  if (!a.moe) return [...mixers, { layers: a.numLayers, shapes: mlpLinears(a, a.intermediateSize, 1, 0) }];
  const m = a.moe;
  const denseLayers = Math.min(a.numLayers, m.denseLayers ?? 0);
  return [
    ...mixers,
    { layers: denseLayers, shapes: mlpLinears(a, a.intermediateSize, 1, 0) },
    { layers: a.numLayers - denseLayers, shapes: mlpLinears(a, m.moeIntermediateSize, m.numExperts, m.sharedExpertIntermediateSize ?? 0) },
  ];
}

/**
 * Elements of the largest weight bitsandbytes quantises (every linear of the decoder blocks; the output head stays
 * unquantised): training dequantises one such weight at a time to 16 bits for its matmul (estimate.ts).
 */
export function largestQuantizedLinear(a: ModelArchitecture): number {
  let largest = 0;
  for (const kind of layerKinds(a)) if (kind.layers > 0) for (const s of kind.shapes) largest = Math.max(largest, s.dIn * s.dOut);
  return largest;
}

/**
 * Trainable adapter parameters. "all-linear" means every linear in the decoder blocks (q, k, v, o, gate,
 * up, down, and each routed and shared expert's), but not the MoE router and not the output head,
 * as PEFT does.
 */
export function loraTrainableParams(a: ModelArchitecture, spec: LoraSpec): number {
  const t = targetsOf(spec);
  let sum = 0;
  for (const kind of layerKinds(a)) {
    for (const s of kind.shapes) if (adapted(s, t)) sum += kind.layers * s.copies * spec.rank * (s.dIn + s.dOut);
  }
  return sum;
}

/** Weights of the linears the adapters wrap (d_in · d_out each): what LoRA freezes. */
export function loraAdaptedWeights(a: ModelArchitecture, spec: LoraSpec): number {
  const t = targetsOf(spec);
  let sum = 0;
  for (const kind of layerKinds(a)) {
    for (const s of kind.shapes) if (adapted(s, t)) sum += kind.layers * s.copies * s.dIn * s.dOut;
  }
  return sum;
}

/**
 * The largest single adapter tensor: lora_A is r × d_in and lora_B is d_out × r, so r · max(d_in, d_out)
 * over the adapted linears (each routed expert has its own). ZeRO-1/2 offload sizes buffers by the largest
 * trainable parameter.
 */
export function loraLargestParam(a: ModelArchitecture, spec: LoraSpec): number {
  const t = targetsOf(spec);
  let largest = 0;
  for (const kind of layerKinds(a)) {
    if (kind.layers <= 0) continue;
    for (const s of kind.shapes) if (adapted(s, t)) largest = Math.max(largest, spec.rank * Math.max(s.dIn, s.dOut));
  }
  return largest;
}

/**
 * Without an architecture, a rough guess from a Llama-like shape: 32 layers, hidden size h from
 * params ≈ 12·L·h², an MLP width ≈ 3.5h, so d_in + d_out ≈ 2h for attention projections (h each side) and
 * ≈ 4.5h for MLP projections (h and 3.5h). Counts how many of each the targets adapt.
 */
function roughShape(totalParams: number, spec: LoraSpec): { layers: number; h: number; attention: number; mlp: number } {
  const layers = 32;
  const h = Math.sqrt(totalParams / (12 * layers));
  const targets = spec.targetModules.map((t) => t.trim().toLowerCase());
  const attentionNames = ['q_proj', 'k_proj', 'v_proj', 'o_proj'];
  const mlpNames = ['gate_proj', 'up_proj', 'down_proj'];
  if (targets.some((t) => allLinear.has(t))) return { layers, h, attention: attentionNames.length, mlp: mlpNames.length };
  return { layers, h, attention: targets.filter((t) => attentionNames.includes(t)).length, mlp: targets.filter((t) => mlpNames.includes(t)).length };
}

/** Adapter parameters without an architecture (see `roughShape`). */
export function loraTrainableParamsRough(totalParams: number, spec: LoraSpec): number {
  const g = roughShape(totalParams, spec);
  return Math.round(g.layers * spec.rank * (g.attention * 2 + g.mlp * 4.5) * g.h);
}

/** The largest adapter tensor without an architecture: r·3.5h with an MLP target, else r·h (see `roughShape`). */
export function loraLargestParamRough(totalParams: number, spec: LoraSpec): number {
  const g = roughShape(totalParams, spec);
  return Math.round(spec.rank * g.h * (g.mlp > 0 ? 3.5 : g.attention > 0 ? 1 : 0));
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

/**
 * Input elements per token of one (average) decoder layer's adapted linears: `perLinear` sums every adapted linear's
 * input (what LoRA's own copies hold), `unique` counts each distinct input once (q, k and v share theirs, so do gate
 * and up). Routed experts see only the tokens routed to them, so top-k of them count.
 */
export function loraInputWidths(a: ModelArchitecture, spec: LoraSpec): { perLinear: number; unique: number } {
  const t = targetsOf(spec);
  let perLinear = 0;
  let unique = 0;
  for (const kind of layerKinds(a)) {
    const share = kind.layers / Math.max(1, a.numLayers);
    const seen = new Set<string>();
    for (const s of kind.shapes) {
      if (!adapted(s, t)) continue;
      const copies = s.copies > 1 && a.moe ? a.moe.expertsPerToken : s.copies;
      perLinear += share * copies * s.dIn;
      // Linears reading the block's input (q/k/v, gate/up) share one tensor; the others read their own.
      const input = s.dIn === a.hiddenSize && !s.names.includes('o_proj') && !s.names.includes('down_proj') ? `h:${s.names.some((n) => /gate|up|fc1|w1|w3|dense_h_to_4h/.test(n)) ? 'mlp' : 'attn'}` : s.names[0];
      if (!seen.has(input)) {
        seen.add(input);
        unique += share * copies * s.dIn;
      }
    }
  }
  return { perLinear, unique };
}
