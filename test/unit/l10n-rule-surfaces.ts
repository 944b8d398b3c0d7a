/**
 * The ds_config rule and launch surfaces of the editor in one locale (not a test file itself): the diagnostics of
 * configs that trip every ds_config rule (zero, parallelism, precision, optimizer, elasticity, curriculum, expert
 * parallel, training) with their quick-fix titles, the diagnostics and fix titles of the example launch scripts and
 * YAML, and the flag documentation behind hover and completion (script flags, their values, launcher YAML keys).
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { Diagnostic, MarkupContent } from 'vscode-languageserver-types';
import type { Locale } from '../../server/src/l10n';
import { getLanguageService } from '../../server/src/languageService';
import { readDiagnosticData } from '../../server/src/diagnostics/readDiagnosticData';
import { withDefaults } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';
import type { Surface } from './l10n-estimates-surfaces';

const uriOf = (name: string) => URI.file(path.join(workspaceRoot, name)).toString();

/** Configs that each trip a group of rules; `rules` names the rule files they reach. */
const configs: Record<string, object> = {
  'zero-offload.json': {
    train_micro_batch_size_per_gpu: 1,
    zero_optimization: { stage: 2, offload_param: { device: 'cpu' }, offload_optimizer: { device: 'nvme', ratio: 0.5 }, allgather_bucket_size: 5e8 + 1, pipeline_loading_checkpoint: true, legacy_stage1: true },
    weight_quantization: { quantized_initialization: { num_bits: 8 } },
  },
  'zero-auto.json': { train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 'auto' } },
  'zero-nvme.json': { train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 3, offload_param: { device: 'nvme' } } },
  'zero-bool.json': { train_micro_batch_size_per_gpu: 1, zero_optimization: true },
  'zero-stage0.json': { train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 0, offload_optimizer: { device: 'cpu' } } },
  'parallel.json': {
    train_micro_batch_size_per_gpu: 1,
    pipeline: { stages: 2 },
    prescale_gradients: true,
    gradient_predivide_factor: 2,
    managed_gradient_accumulation: false,
    zero_optimization: { stage: 2, overlap_comm: true, zenflow: { select_strategy: 'auto', select_interval: 4, offload: true } },
    tensor_parallel: { autotp_size: 2, tp: { tp_size: 4 }, dtype: 'bf16' },
    compile: { deepcompile: true, passes: ['autotp', 'z1'] },
    amp: { enabled: true },
  },
  'allreduce.json': { train_micro_batch_size_per_gpu: 1, gradient_allreduce_op: 'sum', zero_optimization: { stage: 3 } },
  'allreduce-bad.json': { train_micro_batch_size_per_gpu: 1, gradient_allreduce_op: 'max' },
  'zenflow.json': { train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2, zenflow: { select_strategy: 'step', select_interval: 'auto', offload: true } } },
  'zenflow-steps.json': { train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 3, zenflow: { select_strategy: 'step', select_interval: 2, update_interval: 4 } } },
  'precision.json': {
    train_micro_batch_size_per_gpu: 1,
    fp16: { enabled: true, loss_scale: 0, loss_scale_window: 0, fp16_master_weights_and_grads: true },
    bf16: { enabled: true, bf16_optimizer_states: true },
    zero_optimization: { stage: 0 },
    data_types: { param_dtype: 'fp32', grad_accum_dtype: 'fp32' },
    torch_autocast: { enabled: true },
  },
  'precision-auto.json': { train_micro_batch_size_per_gpu: 1, fp16: { enabled: 'auto', min_loss_scale: 0 } },
  'amp.json': { train_micro_batch_size_per_gpu: 1, amp: { enabled: true }, fp16: { enabled: true }, zero_optimization: { stage: 1 } },
  'amp-accum.json': { train_micro_batch_size_per_gpu: 1, amp: { enabled: true }, data_types: { grad_accum_dtype: 'bf16' }, zero_optimization: { stage: 0 } },
  'accum.json': { train_micro_batch_size_per_gpu: 1, bf16: { enabled: true }, data_types: { grad_accum_dtype: 'fp32' }, zero_optimization: { stage: 0 } },
  'master.json': {
    train_micro_batch_size_per_gpu: 1,
    bf16: { enabled: true, bf16_master_weights_and_grads: true },
    fp16: { fp16_master_weights_and_grads: true },
    zero_optimization: { stage: 3, offload_optimizer: { device: 'cpu', ratio: 0.5 }, zero_quantized_weights: true },
    optimizer: { type: 'AdamW', params: { torch_adam: true } },
    torch_autocast: { enabled: true },
  },
  'optimizer.json': {
    train_micro_batch_size_per_gpu: 1,
    fp16: { enabled: true, loss_scale: 128 },
    zero_optimization: { stage: 2 },
    optimizer: { type: 'OneBitLamb', params: { max_grad_norm: 1.0, amsgrad: true } },
  },
  'optimizer-clip.json': { train_micro_batch_size_per_gpu: 1, gradient_clipping: 1, optimizer: { type: 'AdamW', params: { max_grad_norm: 1.0, amsgrad: true, fp32_optimizer_states: true } } },
  'untested.json': { train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2 }, optimizer: { type: 'SGD', params: { lr: 0.1 } } },
  'muon.json': { train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 3 }, optimizer: { type: 'Muon', params: { ns_method: 'fast' } } },
  'muon-offload.json': { train_micro_batch_size_per_gpu: 1, zero_optimization: { stage: 2, offload_optimizer: { device: 'cpu' } }, optimizer: { type: 'Muon' } },
  'elastic.json': {
    train_batch_size: 64,
    elasticity: { enabled: true, min_gpus: 8, max_gpus: 4, max_train_batch_size: 16, micro_batch_sizes: [2, 32], version: 0.1, model_parallel_size: 2 },
  },
  'elastic-version.json': { elasticity: { enabled: true, version: 'x' } },
  'elastic-high.json': { elasticity: { enabled: true, version: 0.3 } },
  'elastic-low.json': { elasticity: { enabled: true, version: 0.05 } },
  'elastic-nodes.json': { elasticity: { enabled: true, version: 0.2, model_parallel_size: 3 } },
  'curriculum.json': {
    train_micro_batch_size_per_gpu: 1,
    curriculum_learning: { enabled: true, min_difficulty: 8, max_difficulty: 64, schedule_type: 'fixed_discrete', schedule_config: { difficulty: [8], max_step: [] } },
    data_efficiency: {
      data_sampling: {
        curriculum_learning: {
          enabled: true,
          curriculum_metrics: {
            seqlen: { min_difficulty: 8 },
            vocab: { clustering_type: 'schedule_based', min_difficulty: 1, max_difficulty: 8, schedule_type: 'fixed_root', schedule_config: { total_curriculum_step: 10 } },
            rarity: { difficulty_type: 'value', clustering_type: 'schedule_based', min_difficulty: 1, max_difficulty: 8, schedule_type: 'fixed_linear' },
          },
        },
      },
    },
  },
  'curriculum-legacy.json': { train_micro_batch_size_per_gpu: 1, curriculum_learning: { enabled: true, min_difficulty: 8, max_difficulty: 64, schedule_type: 'fixed_discrete', schedule_config: { difficulty: [8, 16], max_step: [2, 4] } } },
  'expert.json': {
    train_micro_batch_size_per_gpu: 1,
    expert_parallel: { enabled: true, preset_model: 'qwen3_moe', autoep_size: 1 },
    tensor_parallel: { autotp_size: 2, preset_model: 'mixtral' },
    compile: { deepcompile: true },
    use_data_before_expert_parallelism: true,
    zero_optimization: { stage: 3, offload_param: { device: 'none' } },
  },
  'training.json': {
    train_micro_batch_size_per_gpu: 1,
    activation_checkpointing: { contiguous_memory_optimization: true },
    progressive_layer_drop: { enabled: true },
    amp: { opt_level: 'O1' },
    scheduler: { type: 'StepLR', params: { warmup_num_steps: 100, step_size: 'auto' } },
  },
  'training-pld.json': { train_micro_batch_size_per_gpu: 1, progressive_layer_drop: { enabled: true, theta: 0.5 }, scheduler: { type: 'LambdaLR' } },
  'training-seq.json': { train_micro_batch_size_per_gpu: 1, scheduler: { type: 'ChainedScheduler' } },
};

/** Codes the configs above must raise: one or more per rule file, so the surfaces reach every file. */
export const ruleCodes = [
  'offload-param-below-stage-3', 'partial-offload-below-stage-3', 'nvme-without-path', 'nvme-below-stage-3', 'stage-auto', 'legacy-stage1', 'zero-optimization-legacy-bool',
  'optimizer-offload-at-stage-0', 'pipeline-loading-checkpoint-below-stage-3', 'ignored-at-stage', 'allgather-bucket-size-odd',
  'pipeline-with-zero-2-3', 'prescale-with-reduce-scatter', 'predivide-with-reduce-scatter', 'allreduce-op-invalid', 'allreduce-sum-unsupported', 'unmanaged-grad-accumulation-conflict',
  'autotp-size-mismatch', 'deepcompile-passes-conflict', 'zenflow-interval-invalid', 'zenflow-needs-offload', 'zenflow-needs-overlap-comm', 'tensor-parallel-dtype',
  'fp16-and-bf16', 'amp-with-zero', 'amp-with-fp16-bf16', 'amp-grad-accum-dtype', 'master-weights-without-zero', 'bf16-optimizer-states-without-master-weights', 'param-dtype-mismatch',
  'master-weights-need-cpu-adam', 'autocast-with-quantized-weights', 'dynamic-loss-scale-setting', 'grad-accum-dtype-without-zero',
  'max-grad-norm-in-optimizer', 'onebit-optimizer-with-zero', 'lamb-static-loss-scale', 'untested-optimizer-with-zero', 'muon-reduce-scatter', 'muon-ns-method', 'amsgrad-unsupported', 'optimizer-argument-not-taken',
  'elasticity-with-batch-keys', 'elasticity-invalid',
  'missing-key', 'curriculum-schedule-invalid',
  'autoep-conflict',
  'contiguous-memory-without-partitioning', 'enabled-key-missing', 'scheduler-argument-not-taken', 'auto-not-filled', 'scheduler-needs-python',
];

function diagnosticTexts(diagnostics: Diagnostic[]): { messages: string[]; titles: string[] } {
  return {
    messages: diagnostics.flatMap((d) => [typeof d.message === 'string' ? d.message : d.message.value, ...(d.relatedInformation ?? []).map((r) => r.message)]),
    titles: diagnostics.flatMap((d) => readDiagnosticData(d.data)?.fixes.map((f) => f.title) ?? []),
  };
}

/** The ds_config rules' diagnostics and fix titles in `locale`, and the codes raised (to check the coverage). */
export async function configRuleSurfaces(locale: Locale): Promise<{ surfaces: Surface[]; codes: Set<string> }> {
  const service = getLanguageService(memoryHosts({}));
  const settings = { ...withDefaults({}), locale };
  const all: Diagnostic[] = [];
  for (const [name, value] of Object.entries(configs)) {
    const document = TextDocument.create(uriOf(`configs/${name}`), 'ds-config', 1, JSON.stringify(value, null, 2));
    all.push(...(await service.doValidation(document, settings)));
  }
  const { messages, titles } = diagnosticTexts(all);
  return {
    surfaces: [
      { name: 'ds_config rule diagnostics', texts: messages },
      { name: 'ds_config quick-fix titles', texts: titles },
    ],
    codes: new Set(all.map((d) => String(d.code))),
  };
}

const examples = path.resolve(__dirname, '../../examples');

/** The examples' scripts, YAML and configs, where the scripts and YAML find them. */
function exampleFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const folder of ['scripts', 'configs']) for (const name of readdirSync(path.join(examples, folder))) files[`${folder}/${name}`] = readFileSync(path.join(examples, folder, name), 'utf8');
  return files;
}

/** Offsets of every `--flag` (scripts) or `key:` (YAML) of a text: where a hover documents a flag. */
function flagOffsets(text: string, yaml: boolean): number[] {
  const pattern = yaml ? /^\s*([A-Za-z_]\w*)\s*:/gm : /(?<=\s)--[A-Za-z_][\w-]*/g;
  return [...text.matchAll(pattern)].map((m) => m.index! + m[0].search(/[A-Za-z]/) + 1);
}

/**
 * The example launches in `locale`: their diagnostics and fix titles, the hover of every flag and YAML key they
 * write, and the completion documentation of each launcher's flags and of the values a flag offers.
 */
export async function launchSurfaces(locale: Locale): Promise<Surface[]> {
  const files = exampleFiles();
  const service = getLanguageService(memoryHosts(files));
  const settings = { ...withDefaults({}), locale };
  const diagnostics: Diagnostic[] = [];
  const hovers: string[] = [];
  for (const [name, text] of Object.entries(files)) {
    if (!name.startsWith('scripts/')) continue;
    const yaml = /\.ya?ml$/.test(name);
    const document = TextDocument.create(uriOf(name), yaml ? 'yaml' : 'shellscript', 1, text);
    diagnostics.push(...(await service.doValidation(document, settings)));
    for (const offset of flagOffsets(text, yaml)) {
      const hover = await service.doHover(document, document.positionAt(offset), settings);
      // The flag hovers: the memory tables on presets and configs belong to the estimate surfaces.
      const value = (hover?.contents as MarkupContent | undefined)?.value ?? '';
      if (value && !value.includes('\n---\n')) hovers.push(value);
    }
  }
  const completions: string[] = [];
  const complete = async (text: string, languageId = 'shellscript') => {
    const document = TextDocument.create(uriOf(languageId === 'yaml' ? 'scripts/c.yaml' : 'scripts/c.sh'), languageId, 1, text);
    const list = await service.doComplete(document, document.positionAt(text.length), settings);
    for (const item of list.items) {
      const documentation = typeof item.documentation === 'string' ? item.documentation : (item.documentation?.value ?? '');
      completions.push(documentation);
      // A flag's detail names its program (`torchrun`, `accelerate launch`); a value's says what it means.
      if (!item.label.startsWith('-')) completions.push(item.detail ?? '');
    }
  };
  for (const command of ['swift sft --', 'deepspeed --', 'torchrun --', 'accelerate launch --', 'python train.py --', 'torchrun train.py --']) await complete(command);
  for (const command of ['swift sft --tuner_type ', 'swift sft --torch_dtype ', 'swift sft --quant_method ', 'torchrun --nproc_per_node ', 'accelerate launch --zero_stage ', 'accelerate launch --offload_param_device ']) await complete(command);
  for (const key of ['zero_stage', 'offload_optimizer_device', 'mixed_precision', 'distributed_type']) await complete(`distributed_type: DEEPSPEED\ndeepspeed_config:\n  ${key}: `, 'yaml');
  const { messages, titles } = diagnosticTexts(diagnostics);
  return [
    { name: 'launch diagnostics', texts: messages },
    { name: 'launch quick-fix titles', texts: titles },
    { name: 'flag and YAML key hovers', texts: hovers },
    { name: 'flag and value completion documentation', texts: completions },
  ];
}
