import type { ModelArchitecture } from './types';

/**
 * Built-in model catalog: architecture facts copied from each model's config.json (see
 * docs/memory-model.md). Counts are never stored here; `catalog.ts` computes them.
 * `id` is the Hugging Face hub id; `aliases` are other hub ids (Instruct/-it/-chat variants, renamed orgs)
 * and ModelScope ids. Variants share the base model's architecture, hence its count.
 */
export interface CatalogRecord {
  id: string;
  displayName: string;
  aliases: string[];
  architecture: ModelArchitecture;
}

interface DenseFacts {
  V: number;
  h: number;
  I: number;
  L: number;
  heads: number;
  kv: number;
  /** head_dim; defaults to h / heads. */
  d?: number;
  tied?: boolean;
  extra?: Partial<ModelArchitecture>;
}

function dense(f: DenseFacts): ModelArchitecture {
  return {
    hiddenSize: f.h,
    numLayers: f.L,
    numHeads: f.heads,
    numKvHeads: f.kv,
    headDim: f.d ?? f.h / f.heads,
    intermediateSize: f.I,
    vocabSize: f.V,
    tiedEmbeddings: f.tied ?? false,
    mlp: 'gated',
    ...f.extra,
  };
}

const qwen2 = (V: number, h: number, I: number, L: number, heads: number, kv: number, tied: boolean) =>
  dense({ V, h, I, L, heads, kv, tied, extra: { qkvBias: true } });
const qwen3 = (h: number, I: number, L: number, heads: number, tied: boolean) =>
  dense({ V: 151936, h, I, L, heads, kv: 8, d: 128, tied, extra: { qkNorm: true } });
const gemma2 = (h: number, I: number, L: number, heads: number, kv: number, d: number) =>
  dense({ V: 256000, h, I, L, heads, kv, d, tied: true, extra: { normsPerLayer: 4 } });

/** SigLIP vision tower of the multimodal Gemma 3 sizes (4b/12b/27b), identical in all three. */
const GEMMA3_VISION_TOWER = 416_866_032;
/** SigLIP output width, the input side of Gemma 3's multimodal projector. */
const GEMMA3_VISION_WIDTH = 1152;
function gemma3(V: number, h: number, I: number, L: number, heads: number, kv: number, d: number, vision: boolean) {
  const extra: Partial<ModelArchitecture> = { normsPerLayer: 4, qkNorm: true };
  if (vision) {
    // projector = mm_input_projection (1152×h) + mm_soft_emb_norm (1152)
    extra.extraParams = GEMMA3_VISION_TOWER + GEMMA3_VISION_WIDTH * h + GEMMA3_VISION_WIDTH;
    extra.extraParamsNote = 'SigLIP vision tower and multimodal projector';
  }
  return dense({ V, h, I, L, heads, kv, d, tied: true, extra });
}

const ms = (org: string, name: string) => `${org}/${name}`;

export const catalogRecords: CatalogRecord[] = [
  // Qwen2.5 (ModelScope uses the same org and names)
  { id: 'Qwen/Qwen2.5-0.5B', displayName: 'Qwen2.5-0.5B', aliases: ['Qwen/Qwen2.5-0.5B-Instruct'], architecture: qwen2(151936, 896, 4864, 24, 14, 2, true) },
  { id: 'Qwen/Qwen2.5-1.5B', displayName: 'Qwen2.5-1.5B', aliases: ['Qwen/Qwen2.5-1.5B-Instruct'], architecture: qwen2(151936, 1536, 8960, 28, 12, 2, true) },
  { id: 'Qwen/Qwen2.5-3B', displayName: 'Qwen2.5-3B', aliases: ['Qwen/Qwen2.5-3B-Instruct'], architecture: qwen2(151936, 2048, 11008, 36, 16, 2, true) },
  { id: 'Qwen/Qwen2.5-7B', displayName: 'Qwen2.5-7B', aliases: ['Qwen/Qwen2.5-7B-Instruct'], architecture: qwen2(152064, 3584, 18944, 28, 28, 4, false) },
  { id: 'Qwen/Qwen2.5-14B', displayName: 'Qwen2.5-14B', aliases: ['Qwen/Qwen2.5-14B-Instruct'], architecture: qwen2(152064, 5120, 13824, 48, 40, 8, false) },
  { id: 'Qwen/Qwen2.5-32B', displayName: 'Qwen2.5-32B', aliases: ['Qwen/Qwen2.5-32B-Instruct', 'Qwen/QwQ-32B'], architecture: qwen2(152064, 5120, 27648, 64, 40, 8, false) },
  { id: 'Qwen/Qwen2.5-72B', displayName: 'Qwen2.5-72B', aliases: ['Qwen/Qwen2.5-72B-Instruct'], architecture: qwen2(152064, 8192, 29568, 80, 64, 8, false) },
  // Qwen3 dense
  { id: 'Qwen/Qwen3-0.6B', displayName: 'Qwen3-0.6B', aliases: ['Qwen/Qwen3-0.6B-Base'], architecture: qwen3(1024, 3072, 28, 16, true) },
  { id: 'Qwen/Qwen3-1.7B', displayName: 'Qwen3-1.7B', aliases: ['Qwen/Qwen3-1.7B-Base'], architecture: qwen3(2048, 6144, 28, 16, true) },
  { id: 'Qwen/Qwen3-4B', displayName: 'Qwen3-4B', aliases: ['Qwen/Qwen3-4B-Base', 'Qwen/Qwen3-4B-Instruct-2507', 'Qwen/Qwen3-4B-Thinking-2507'], architecture: qwen3(2560, 9728, 36, 32, true) },
  { id: 'Qwen/Qwen3-8B', displayName: 'Qwen3-8B', aliases: ['Qwen/Qwen3-8B-Base'], architecture: qwen3(4096, 12288, 36, 32, false) },
  { id: 'Qwen/Qwen3-14B', displayName: 'Qwen3-14B', aliases: ['Qwen/Qwen3-14B-Base'], architecture: qwen3(5120, 17408, 40, 40, false) },
  { id: 'Qwen/Qwen3-32B', displayName: 'Qwen3-32B', aliases: [], architecture: qwen3(5120, 25600, 64, 64, false) },
  // Qwen3 MoE
  {
    id: 'Qwen/Qwen3-30B-A3B',
    displayName: 'Qwen3-30B-A3B',
    aliases: ['Qwen/Qwen3-30B-A3B-Base', 'Qwen/Qwen3-30B-A3B-Instruct-2507', 'Qwen/Qwen3-30B-A3B-Thinking-2507'],
    architecture: dense({ V: 151936, h: 2048, I: 6144, L: 48, heads: 32, kv: 4, d: 128, extra: { qkNorm: true, moe: { numExperts: 128, expertsPerToken: 8, moeIntermediateSize: 768 } } }),
  },
  {
    id: 'Qwen/Qwen3-235B-A22B',
    displayName: 'Qwen3-235B-A22B',
    aliases: ['Qwen/Qwen3-235B-A22B-Instruct-2507', 'Qwen/Qwen3-235B-A22B-Thinking-2507'],
    architecture: dense({ V: 151936, h: 4096, I: 12288, L: 94, heads: 64, kv: 4, d: 128, extra: { qkNorm: true, moe: { numExperts: 128, expertsPerToken: 8, moeIntermediateSize: 1536 } } }),
  },
  // Llama 3.x (ModelScope: LLM-Research)
  {
    id: 'meta-llama/Llama-3.2-1B',
    displayName: 'Llama-3.2-1B',
    aliases: ['meta-llama/Llama-3.2-1B-Instruct', ms('LLM-Research', 'Llama-3.2-1B'), ms('LLM-Research', 'Llama-3.2-1B-Instruct')],
    architecture: dense({ V: 128256, h: 2048, I: 8192, L: 16, heads: 32, kv: 8, d: 64, tied: true }),
  },
  {
    id: 'meta-llama/Llama-3.2-3B',
    displayName: 'Llama-3.2-3B',
    aliases: ['meta-llama/Llama-3.2-3B-Instruct', ms('LLM-Research', 'Llama-3.2-3B'), ms('LLM-Research', 'Llama-3.2-3B-Instruct')],
    architecture: dense({ V: 128256, h: 3072, I: 8192, L: 28, heads: 24, kv: 8, d: 128, tied: true }),
  },
  {
    id: 'meta-llama/Llama-3.1-8B',
    displayName: 'Llama-3.1-8B',
    aliases: [
      'meta-llama/Llama-3.1-8B-Instruct',
      'meta-llama/Meta-Llama-3.1-8B',
      'meta-llama/Meta-Llama-3.1-8B-Instruct',
      'meta-llama/Meta-Llama-3-8B',
      'meta-llama/Meta-Llama-3-8B-Instruct',
      ms('LLM-Research', 'Meta-Llama-3.1-8B'),
      ms('LLM-Research', 'Meta-Llama-3.1-8B-Instruct'),
      ms('LLM-Research', 'Meta-Llama-3-8B-Instruct'),
      ms('LLM-Research', 'Llama-3.1-8B-Instruct'),
    ],
    architecture: dense({ V: 128256, h: 4096, I: 14336, L: 32, heads: 32, kv: 8 }),
  },
  {
    id: 'meta-llama/Llama-3.1-70B',
    displayName: 'Llama-3.1-70B',
    aliases: [
      'meta-llama/Llama-3.1-70B-Instruct',
      'meta-llama/Meta-Llama-3.1-70B',
      'meta-llama/Meta-Llama-3.1-70B-Instruct',
      ms('LLM-Research', 'Meta-Llama-3.1-70B-Instruct'),
      ms('LLM-Research', 'Llama-3.1-70B-Instruct'),
    ],
    architecture: dense({ V: 128256, h: 8192, I: 28672, L: 80, heads: 64, kv: 8 }),
  },
  {
    id: 'meta-llama/Llama-3.3-70B-Instruct',
    displayName: 'Llama-3.3-70B',
    aliases: [ms('LLM-Research', 'Llama-3.3-70B-Instruct')],
    architecture: dense({ V: 128256, h: 8192, I: 28672, L: 80, heads: 64, kv: 8 }),
  },
  {
    id: 'meta-llama/Llama-3.1-405B',
    displayName: 'Llama-3.1-405B',
    aliases: ['meta-llama/Llama-3.1-405B-Instruct', 'meta-llama/Meta-Llama-3.1-405B', 'meta-llama/Meta-Llama-3.1-405B-Instruct', ms('LLM-Research', 'Meta-Llama-3.1-405B-Instruct')],
    architecture: dense({ V: 128256, h: 16384, I: 53248, L: 126, heads: 128, kv: 8 }),
  },
  // Mistral / Mixtral
  {
    id: 'mistralai/Mistral-7B-v0.1',
    displayName: 'Mistral-7B-v0.1',
    aliases: ['mistralai/Mistral-7B-Instruct-v0.1', ms('AI-ModelScope', 'Mistral-7B-v0.1'), ms('AI-ModelScope', 'Mistral-7B-Instruct-v0.1')],
    architecture: dense({ V: 32000, h: 4096, I: 14336, L: 32, heads: 32, kv: 8 }),
  },
  {
    id: 'mistralai/Mistral-7B-v0.3',
    displayName: 'Mistral-7B-v0.3',
    aliases: ['mistralai/Mistral-7B-Instruct-v0.3', ms('LLM-Research', 'Mistral-7B-Instruct-v0.3'), ms('AI-ModelScope', 'Mistral-7B-v0.3')],
    architecture: dense({ V: 32768, h: 4096, I: 14336, L: 32, heads: 32, kv: 8 }),
  },
  {
    id: 'mistralai/Mixtral-8x7B-v0.1',
    displayName: 'Mixtral-8x7B',
    aliases: ['mistralai/Mixtral-8x7B-Instruct-v0.1', ms('AI-ModelScope', 'Mixtral-8x7B-v0.1'), ms('AI-ModelScope', 'Mixtral-8x7B-Instruct-v0.1')],
    architecture: dense({ V: 32000, h: 4096, I: 14336, L: 32, heads: 32, kv: 8, extra: { moe: { numExperts: 8, expertsPerToken: 2, moeIntermediateSize: 14336 } } }),
  },
  // DeepSeek-V3: main model; the MTP module in the checkpoint is not loaded for training.
  {
    id: 'deepseek-ai/DeepSeek-V3',
    displayName: 'DeepSeek-V3',
    aliases: ['deepseek-ai/DeepSeek-V3-Base', 'deepseek-ai/DeepSeek-V3-0324'],
    architecture: dense({
      V: 129280,
      h: 7168,
      I: 18432,
      L: 61,
      heads: 128,
      kv: 128,
      d: 192,
      extra: {
        mla: { qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 },
        moe: { numExperts: 256, expertsPerToken: 8, moeIntermediateSize: 2048, sharedExpertIntermediateSize: 2048, firstDenseLayers: 3, routerBias: true },
      },
    }),
  },
  // Gemma 2 (ModelScope: LLM-Research)
  { id: 'google/gemma-2-2b', displayName: 'gemma-2-2b', aliases: ['google/gemma-2-2b-it', ms('LLM-Research', 'gemma-2-2b-it'), ms('LLM-Research', 'gemma-2-2b')], architecture: gemma2(2304, 9216, 26, 8, 4, 256) },
  { id: 'google/gemma-2-9b', displayName: 'gemma-2-9b', aliases: ['google/gemma-2-9b-it', ms('LLM-Research', 'gemma-2-9b-it'), ms('LLM-Research', 'gemma-2-9b')], architecture: gemma2(3584, 14336, 42, 16, 8, 256) },
  { id: 'google/gemma-2-27b', displayName: 'gemma-2-27b', aliases: ['google/gemma-2-27b-it', ms('LLM-Research', 'gemma-2-27b-it'), ms('LLM-Research', 'gemma-2-27b')], architecture: gemma2(4608, 36864, 46, 32, 16, 128) },
  // Gemma 3: 1b is text only; 4b/12b/27b checkpoints include the vision tower.
  { id: 'google/gemma-3-1b-pt', displayName: 'gemma-3-1b', aliases: ['google/gemma-3-1b-it', ms('LLM-Research', 'gemma-3-1b-it'), ms('LLM-Research', 'gemma-3-1b-pt')], architecture: gemma3(262144, 1152, 6912, 26, 4, 1, 256, false) },
  { id: 'google/gemma-3-4b-pt', displayName: 'gemma-3-4b', aliases: ['google/gemma-3-4b-it', ms('LLM-Research', 'gemma-3-4b-it'), ms('LLM-Research', 'gemma-3-4b-pt')], architecture: gemma3(262208, 2560, 10240, 34, 8, 4, 256, true) },
  { id: 'google/gemma-3-12b-pt', displayName: 'gemma-3-12b', aliases: ['google/gemma-3-12b-it', ms('LLM-Research', 'gemma-3-12b-it'), ms('LLM-Research', 'gemma-3-12b-pt')], architecture: gemma3(262208, 3840, 15360, 48, 16, 8, 256, true) },
  { id: 'google/gemma-3-27b-pt', displayName: 'gemma-3-27b', aliases: ['google/gemma-3-27b-it', ms('LLM-Research', 'gemma-3-27b-it'), ms('LLM-Research', 'gemma-3-27b-pt')], architecture: gemma3(262208, 5376, 21504, 62, 32, 16, 128, true) },
  // GLM-4 (THUDM moved to zai-org; ModelScope: ZhipuAI)
  {
    id: 'THUDM/glm-4-9b-chat',
    displayName: 'glm-4-9b-chat',
    aliases: ['THUDM/glm-4-9b', 'zai-org/glm-4-9b-chat', 'zai-org/glm-4-9b', ms('ZhipuAI', 'glm-4-9b-chat'), ms('ZhipuAI', 'glm-4-9b')],
    architecture: dense({ V: 151552, h: 4096, I: 13696, L: 40, heads: 32, kv: 2, d: 128, extra: { qkvBias: true, fusedQkv: true, fusedGateUp: true } }),
  },
  {
    id: 'THUDM/GLM-4-9B-0414',
    displayName: 'GLM-4-9B-0414',
    aliases: ['zai-org/GLM-4-9B-0414', ms('ZhipuAI', 'GLM-4-9B-0414')],
    architecture: dense({ V: 151552, h: 4096, I: 13696, L: 40, heads: 32, kv: 2, d: 128, extra: { qkvBias: true, normsPerLayer: 4, fusedGateUp: true } }),
  },
  // InternLM2.5 (ModelScope: Shanghai_AI_Laboratory)
  {
    id: 'internlm/internlm2_5-7b',
    displayName: 'InternLM2.5-7B',
    aliases: ['internlm/internlm2_5-7b-chat', ms('Shanghai_AI_Laboratory', 'internlm2_5-7b-chat'), ms('Shanghai_AI_Laboratory', 'internlm2_5-7b')],
    architecture: dense({ V: 92544, h: 4096, I: 14336, L: 32, heads: 32, kv: 8, extra: { fusedQkv: true } }),
  },
  // Phi (ModelScope: LLM-Research)
  {
    id: 'microsoft/Phi-3-mini-4k-instruct',
    displayName: 'Phi-3-mini',
    aliases: ['microsoft/Phi-3-mini-128k-instruct', 'microsoft/Phi-3.5-mini-instruct', ms('LLM-Research', 'Phi-3-mini-4k-instruct'), ms('LLM-Research', 'Phi-3-mini-128k-instruct'), ms('LLM-Research', 'Phi-3.5-mini-instruct')],
    architecture: dense({ V: 32064, h: 3072, I: 8192, L: 32, heads: 32, kv: 32, extra: { fusedQkv: true, fusedGateUp: true } }),
  },
  {
    id: 'microsoft/Phi-3-medium-4k-instruct',
    displayName: 'Phi-3-medium',
    aliases: ['microsoft/Phi-3-medium-128k-instruct', ms('LLM-Research', 'Phi-3-medium-4k-instruct'), ms('LLM-Research', 'Phi-3-medium-128k-instruct')],
    architecture: dense({ V: 32064, h: 5120, I: 17920, L: 40, heads: 40, kv: 10, extra: { fusedQkv: true, fusedGateUp: true } }),
  },
  {
    id: 'microsoft/phi-4',
    displayName: 'Phi-4',
    aliases: [ms('LLM-Research', 'phi-4')],
    architecture: dense({ V: 100352, h: 5120, I: 17920, L: 40, heads: 40, kv: 10, extra: { fusedQkv: true, fusedGateUp: true } }),
  },
  {
    id: 'microsoft/Phi-4-mini-instruct',
    displayName: 'Phi-4-mini',
    aliases: [ms('LLM-Research', 'Phi-4-mini-instruct')],
    architecture: dense({ V: 200064, h: 3072, I: 8192, L: 32, heads: 24, kv: 8, tied: true, extra: { fusedQkv: true, fusedGateUp: true } }),
  },
];
