import type { ModelArchitecture, ModelPart } from './types';

/**
 * The shipped catalog's compact form of an architecture (catalog.generated.json, written by
 * scripts/catalog/build.ts): a handful of numbers and bit flags instead of named fields, so 500 models fit
 * the size budget. `decodeShape(encodeShape(a))` gives `a` back (test/unit/catalog-codec.test.ts).
 */
export interface EncodedShape {
  /** vocab, hidden, intermediate, layers, heads, kv heads, head dim, flag bits, norms per layer. */
  s: number[];
  /** MoE: experts, per token, expert width, shared width, dense layers, gate/router flag bits. */
  m?: number[];
  /** MLA: q rank, kv rank, nope dim, rope dim, v dim. */
  a?: number[];
  /** Linear attention: layers, key heads, value heads, key dim, value dim, conv kernel. */
  l?: number[];
  /** Learned position rows. */
  p?: number;
  /** Parts: kind, name, params, largest layer, loaded (1/0). */
  t?: Array<[ModelPart['kind'], string, number, number, number]>;
}

const flagNames = [
  'tiedEmbeddings',
  'qkvBias',
  'oBias',
  'linearBias',
  'qkNorm',
  'qkNormAllHeads',
  'fusedQkv',
  'fusedGateUp',
  'lmHeadBias',
  'attnOutputGate',
  'dropout',
] as const;
const PLAIN_MLP = 1 << flagNames.length;
const LAYER_NORM = PLAIN_MLP << 1;
const NO_NORM = LAYER_NORM << 1;
const SHARED_GATE = 1;
const ROUTER_BIAS = 2;

export function encodeShape(a: ModelArchitecture): EncodedShape {
  let flags = 0;
  flagNames.forEach((name, bit) => {
    if (a[name]) flags |= 1 << bit;
  });
  if (a.mlp === 'plain') flags |= PLAIN_MLP;
  if (a.norm === 'layer') flags |= LAYER_NORM;
  if (a.norm === 'none') flags |= NO_NORM;
  const e: EncodedShape = {
    s: [a.vocabSize, a.hiddenSize, a.intermediateSize, a.numLayers, a.numHeads, a.numKvHeads, a.headDim, flags, a.normsPerLayer ?? 2],
  };
  if (a.moe) {
    const m = a.moe;
    e.m = [m.numExperts, m.expertsPerToken, m.moeIntermediateSize, m.sharedExpertIntermediateSize ?? 0, m.denseLayers ?? 0, (m.sharedExpertGate ? SHARED_GATE : 0) | (m.routerBias ? ROUTER_BIAS : 0)];
  }
  if (a.mla) e.a = [a.mla.qLoraRank, a.mla.kvLoraRank, a.mla.qkNopeHeadDim, a.mla.qkRopeHeadDim, a.mla.vHeadDim];
  const la = a.linearAttention;
  if (la) e.l = [la.layers, la.keyHeads, la.valueHeads, la.keyHeadDim, la.valueHeadDim, la.convKernel];
  if (a.positionEmbeddings) e.p = a.positionEmbeddings;
  if (a.parts?.length) e.t = a.parts.map((p) => [p.kind, p.name, p.params, p.largestLayer, p.loaded === false ? 0 : 1]);
  return e;
}

export function decodeShape(e: EncodedShape): ModelArchitecture {
  const [vocabSize, hiddenSize, intermediateSize, numLayers, numHeads, numKvHeads, headDim, flags, normsPerLayer] = e.s;
  const a: ModelArchitecture = {
    hiddenSize,
    numLayers,
    numHeads,
    numKvHeads,
    headDim,
    intermediateSize,
    vocabSize,
    tiedEmbeddings: false,
    mlp: flags & PLAIN_MLP ? 'plain' : 'gated',
  };
  flagNames.forEach((name, bit) => {
    if (flags & (1 << bit)) a[name] = true;
  });
  if (flags & LAYER_NORM) a.norm = 'layer';
  if (flags & NO_NORM) a.norm = 'none';
  if (normsPerLayer !== 2) a.normsPerLayer = normsPerLayer;
  if (e.m) {
    const [numExperts, expertsPerToken, moeIntermediateSize, shared, denseLayers, moeFlags] = e.m;
    a.moe = { numExperts, expertsPerToken, moeIntermediateSize };
    if (shared) a.moe.sharedExpertIntermediateSize = shared;
    if (denseLayers) a.moe.denseLayers = denseLayers;
    if (moeFlags & SHARED_GATE) a.moe.sharedExpertGate = true;
    if (moeFlags & ROUTER_BIAS) a.moe.routerBias = true;
  }
  if (e.a) {
    const [qLoraRank, kvLoraRank, qkNopeHeadDim, qkRopeHeadDim, vHeadDim] = e.a;
    a.mla = { qLoraRank, kvLoraRank, qkNopeHeadDim, qkRopeHeadDim, vHeadDim };
  }
  if (e.l) {
    const [layers, keyHeads, valueHeads, keyHeadDim, valueHeadDim, convKernel] = e.l;
    a.linearAttention = { layers, keyHeads, valueHeads, keyHeadDim, valueHeadDim, convKernel };
  }
  if (e.p) a.positionEmbeddings = e.p;
  if (e.t) {
    a.parts = e.t.map(([kind, name, params, largestLayer, loaded]) => {
      const part: ModelPart = { kind, name, params, largestLayer };
      if (!loaded) part.loaded = false;
      return part;
    });
  }
  return a;
}

/** The shipped catalog file. */
export interface CatalogFile {
  /** Where entries' facts come from: title, URL, licence. */
  sources: Array<{ title: string; url: string; licence: string }>;
  /** Distinct architectures; models point at them by index. */
  shapes: EncodedShape[];
  /** Family name (ms-swift model type or config model_type), indexed by models. */
  families: string[];
  /** [hub id, shape index, source index, family index, aliases (ModelScope ids, Instruct/Chat/-it variants)]. */
  models: Array<[string, number, number, number, string[]]>;
}
