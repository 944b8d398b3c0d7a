import { countParams } from './paramCount';
import type { ModelArchitecture } from './types';

/**
 * A generic decoder shape for a parameter count alone (a model id that states its size but whose family the
 * catalog lacks): what activations and LoRA adapters are counted from when nothing better is known. Llama-3-like,
 * because that is what most current decoders are: RMSNorm, gated MLP of width 3.5h (Llama-3-8B: 14336 = 3.5 ·
 * 4096), heads of 128 with 8 KV heads, an untied 128k vocabulary, and about 128 of width per layer (Llama-3.2-1B
 * 2048/16, Llama-3-8B 4096/32, Llama-3-70B 8192/80 = 102). The width is the multiple of 128 whose count comes
 * closest to the stated size. The stated size stays the parameter count; this supplies only the shape.
 */
export const GENERIC_VOCAB = 128_000;

export function genericArchitecture(total: number): ModelArchitecture {
  let best: ModelArchitecture | undefined;
  let bestGap = Infinity;
  for (let h = 256; h <= 32_768; h += 128) {
    const arch = shapeOfWidth(h);
    const gap = Math.abs(Math.log(countParams(arch).total / total));
    if (gap < bestGap) {
      best = arch;
      bestGap = gap;
    }
  }
  return best!;
}

function shapeOfWidth(h: number): ModelArchitecture {
  const heads = h / 128;
  return {
    hiddenSize: h,
    numLayers: Math.max(2, Math.round(h / 128)),
    numHeads: heads,
    numKvHeads: Math.min(8, heads),
    headDim: 128,
    // 3.5h rounded up to a multiple of 256, as model families round their MLP widths.
    intermediateSize: Math.ceil((3.5 * h) / 256) * 256,
    vocabSize: GENERIC_VOCAB,
    tiedEmbeddings: false,
    mlp: 'gated',
  };
}

/**
 * A rough largest layer when only a count is known: a 128k vocabulary × the hidden size of a 32-layer model that
 * size. Never more than the model itself: below about 43M parameters the formula exceeds the count, and DeepSpeed's
 * own estimators (4 × largest layer at ZeRO-3) and the gathers would then charge more than the whole model.
 */
export function largestLayerGuess(totalParams: number): number {
  return Math.min(totalParams, Math.round(GENERIC_VOCAB * Math.sqrt(totalParams / (12 * 32))));
}
