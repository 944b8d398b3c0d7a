import type { Diagnostic } from 'vscode-languageserver-types';
import { DS } from '../../../diagnostics/upstream';
import { fix, type ConfigView } from '../configView';
import { builtOptimizer } from './optimizer';
import type { Rule } from './rule';
import { toStage } from './stageFix';

const ZERO = 'zero_optimization';

/** offload_param is only read by ZeRO-3 (§4.2); below it, parameters stay on the GPU without any message. */
export const offloadParamBelowStage3: Rule = (config) => {
  const stage = config.knownStage();
  const path = [ZERO, 'offload_param'];
  const section = config.section(path);
  if (stage === undefined || stage === 3 || !section || config.lowerString([...path, 'device']) === 'none') return [];
  return [
    config.diagnostic('offload-param-below-stage-3', 'warning', config.keyRange(path),
      config.t('"offload_param" only works with ZeRO stage 3. With "stage": {0} DeepSpeed ignores it and keeps all parameters on the GPU, so memory use is higher than this block suggests.', stage),
      {
        path,
        stage,
        fixes: [toStage(config, 3), fix(config.t('Remove "{0}"', 'offload_param'), [{ op: 'remove', path }])],
      },
    ),
  ];
};

/** Partial optimizer offload (ratio < 1) exists only in ZeRO-3 (§4.4): pydantic raises below it. */
export const partialOffloadBelowStage3: Rule = (config) => {
  const stage = config.knownStage();
  const path = [ZERO, 'offload_optimizer', 'ratio'];
  const ratio = config.number(path);
  if (stage === undefined || stage === 3 || ratio === undefined || ratio >= 1) return [];
  return [
    config.diagnostic('partial-offload-below-stage-3', 'error', config.keyRange(path),
      config.t('"ratio": {0} offloads only part of the optimizer, which DeepSpeed supports only with ZeRO stage 3 ("Partial offloading only supported for ZeRO Stage 3"); with "stage": {1} it will not start.', ratio, stage),
      {
        path,
        stage,
        ratio,
        fixes: [fix(config.t('Offload the whole optimizer ("ratio": 1)'), [{ op: 'set', path, value: 1 }], true), toStage(config, 3)],
      },
    ),
  ];
};

/**
 * device "nvme" needs nvme_path at ZeRO-3, where DeepSpeed joins it into the swap folder path (§4.3, §4.4).
 * ZeRO-1/2 never read nvme_path: their optimizer offload is CPU offload whatever the device says.
 */
export const nvmeWithoutPath: Rule = (config) => {
  const out: Diagnostic[] = [];
  const stage = config.knownStage();
  for (const block of ['offload_param', 'offload_optimizer']) {
    const devicePath = [ZERO, block, 'device'];
    if (config.lowerString(devicePath) !== 'nvme') continue;
    if (stage !== undefined && stage !== 3) {
      // offload_param below stage 3 has its own warning; an optimizer "offloaded to NVMe" lands in CPU memory.
      if (block === 'offload_optimizer' && stage > 0) out.push(nvmeActsAsCpu(config, devicePath, stage));
      continue;
    }
    const nvmePath = config.get([ZERO, block, 'nvme_path']);
    if (typeof nvmePath === 'string' && nvmePath.trim() !== '') continue;
    out.push(
      config.diagnostic('nvme-without-path', 'error', config.valueRange(devicePath),
        config.t('"{0}" offloads to NVMe but has no "nvme_path". DeepSpeed needs the folder on the NVMe drive to swap to and fails when it builds the swap path.', block),
        { path: devicePath, fixes: [fix(config.t('Add "nvme_path" (fill in your NVMe mount)'), [{ op: 'set', path: [ZERO, block, 'nvme_path'], value: '/local_nvme', placeholder: true }])] },
        undefined,
        // The registry cites the optimizer's swap folder (stage3.py:791); parameters are swapped here.
        block === 'offload_param' ? `${DS}:deepspeed/runtime/swap_tensor/partitioned_param_swapper.py#L86` : undefined,
      ),
    );
  }
  return out;
};

function nvmeActsAsCpu(config: Parameters<Rule>[0], devicePath: string[], stage: number): Diagnostic {
  return config.diagnostic('nvme-below-stage-3', 'information', config.valueRange(devicePath),
    config.t('With "stage": {0}, "device": "nvme" offloads the optimizer to CPU memory: only ZeRO stage 3 swaps optimizer states to NVMe, and "nvme_path" is not read.', stage),
    {
      path: devicePath,
      stage,
      fixes: [fix(config.t('Use "{0}"', 'cpu'), [{ op: 'set', path: devicePath, value: 'cpu' }]), toStage(config, 3)],
    },
  );
}

/** "stage": "auto" is dropped by pydantic → stage 0, unless accelerate fills it (§1.5). */
export const stageAuto: Rule = (config) => {
  if (config.stage() !== 'auto') return [];
  const path = [ZERO, 'stage'];
  return [
    config.diagnostic('stage-auto', 'warning', config.valueRange(path),
      // accelerate's DeepSpeedPlugin fills it with its zero_stage (ACCELERATE_DEEPSPEED_ZERO_STAGE, default 2;
      // utils/dataclasses.py:1237-1238, 1283-1290); DeepSpeed's pydantic model drops "auto" (runtime/config_utils.py).
      config.t('"stage": "auto" depends on who reads the config: accelerate\'s DeepSpeedPlugin (the Hugging Face Trainer, accelerate, ms-swift, LLaMA-Factory) fills it with its zero_stage, 2 unless accelerate\'s config or ACCELERATE_DEEPSPEED_ZERO_STAGE says otherwise; a plain deepspeed.initialize drops it silently and runs without ZeRO (stage 0). Write the stage you want.'),
      { path, fixes: [1, 2, 3].map((stage) => fix(config.t('Use ZeRO stage {0}', stage), [{ op: 'set', path, value: stage }])) },
    ),
  ];
};

/** legacy_stage1 was removed in DeepSpeed 0.5.9; true raises at start (§4.2). */
export const legacyStage1: Rule = (config) => {
  const path = [ZERO, 'legacy_stage1'];
  if (!config.isTrue(path)) return [];
  return [
    config.diagnostic('legacy-stage1', 'error', config.keyRange(path), config.t('"legacy_stage1": true is no longer supported: the legacy ZeRO-1 implementation was removed and DeepSpeed raises an exception at start.'), {
      path,
      fixes: [fix(config.t('Remove "{0}"', 'legacy_stage1'), [{ op: 'remove', path }], true)],
    }),
  ];
};

/** `"zero_optimization": true/false` is the legacy form; DeepSpeed still reads it but logs a deprecation (§2). */
export const legacyBooleanForm: Rule = (config) => {
  const value = config.get([ZERO]);
  if (typeof value !== 'boolean') return [];
  const stage = value ? 1 : 0;
  return [
    config.diagnostic('zero-optimization-legacy-bool', 'warning', config.valueRange([ZERO]),
      value
        ? config.t('"zero_optimization": true is the legacy form of ZeRO stage 1 (bucket size from "allgather_size"); DeepSpeed logs a deprecation warning. Write it as an object.')
        : config.t('"zero_optimization": false is the legacy form of ZeRO off; DeepSpeed logs a deprecation warning. Write it as an object.'),
      { path: [ZERO], fixes: [fix(config.t('Replace with {0}', JSON.stringify({ stage }).replace(':', ': ')), [{ op: 'set', path: [ZERO], value: { stage } }], true)] },
    ),
  ];
};

/**
 * Optimizer offload at stage 0 is not ignored: DeepSpeed decides the optimizer class from the offload device
 * alone (engine.py, zero_use_cpu_optimizer), so Adam/AdamW, Lion and Adagrad become CPU optimizers, and a
 * client optimizer is swapped for DeepSpeedCPUAdam by accelerate. With ZeRO off the parameters stay on the
 * GPU, and the CPU optimizer asserts at the first step.
 */
export function stage0OffloadFails(config: ConfigView): boolean {
  if (config.stage() !== 0 || !config.section([ZERO]) || !config.optimizerOffloaded()) return false;
  const type = config.lowerString(['optimizer', 'type']);
  // No optimizer block: the client's, which accelerate swaps for DeepSpeedCPUAdam.
  return type === undefined || (builtOptimizer(config, type)?.name.startsWith('DeepSpeedCPU') ?? false);
}

export const optimizerOffloadAtStage0: Rule = (config) => {
  if (!stage0OffloadFails(config)) return [];
  const path = config.has([ZERO, 'offload_optimizer']) ? [ZERO, 'offload_optimizer', 'device'] : [ZERO, 'cpu_offload'];
  return [
    config.diagnostic('optimizer-offload-at-stage-0', 'error', config.valueRange(path),
      config.t('With ZeRO off ("stage": 0), optimizer offload still makes DeepSpeed use its CPU optimizer, but the parameters stay on the GPU: the first step fails ("CPUAdam param is on cuda and must be \'cpu\'").'),
      {
        path,
        fixes: [
          toStage(config, 2),
          fix(config.t('Turn optimizer offload off'), path[1] === 'cpu_offload' ? [{ op: 'remove', path }] : [{ op: 'set', path, value: 'none' }]),
        ],
      },
    ),
  ];
};

/** Whether pipeline_loading_checkpoint is on at a stage where load_checkpoint asserts on it. */
export function pipelineLoadingFails(config: ConfigView): boolean {
  const stage = config.knownStage();
  return (stage === 1 || stage === 2) && config.isTrue([ZERO, 'pipeline_loading_checkpoint']);
}

/**
 * pipeline_loading_checkpoint is not ignored below stage 3: load_checkpoint reaches _load_zero_checkpoint at
 * any stage > 0 (engine.py:4331-4336), which asserts stage 3 (engine.py:4618-4620). Training from scratch works.
 */
export const pipelineLoadingBelowStage3: Rule = (config) => {
  if (!pipelineLoadingFails(config)) return [];
  const path = [ZERO, 'pipeline_loading_checkpoint'];
  return [
    config.diagnostic('pipeline-loading-checkpoint-below-stage-3', 'warning', config.keyRange(path),
      config.t('"pipeline_loading_checkpoint" works only with ZeRO stage 3. With "stage": {0} training starts, but resuming from a checkpoint fails: load_checkpoint raises AssertionError ("Only stage3 support for pipeline checkpoint loading").', config.knownStage() ?? '?'),
      { path, fixes: [fix(config.t('Set "{0}": false', 'pipeline_loading_checkpoint'), [{ op: 'set', path, value: false }], true), toStage(config, 3)] },
    ),
  ];
};

/**
 * weight_quantization.quantized_initialization is read only by zero.Init (partition_parameters.py:348-350), which
 * quantizes weights as it partitions them (:1231-1232); the engine never reads it, and the HF Trainer and accelerate
 * enter zero.Init only at stage 3. ({} is the default and means off.) post_init_quant works at any stage.
 */
export const quantizedInitializationBelowStage3: Rule = (config) => {
  const stage = config.knownStage();
  const path = ['weight_quantization', 'quantized_initialization'];
  const section = config.section(path);
  if (stage === undefined || stage === 3 || !section || Object.keys(section).length === 0) return [];
  return [
    config.diagnostic('ignored-at-stage', 'warning', config.keyRange(path),
      config.t('"quantized_initialization" is only read by deepspeed.zero.Init, the ZeRO stage 3 context (the Hugging Face Trainer and accelerate enter it only at stage 3); the engine never reads it. With "stage": {0} the weights are not quantized at load.', stage),
      { path, stage, stages: [3], fixes: [toStage(config, 3), fix(config.t('Remove "{0}"', 'quantized_initialization'), [{ op: 'remove', path }])] },
      'https://www.deepspeed.ai/2022/09/09/zero-inference.html',
    ),
  ];
};

/**
 * ZeRO-1/2's optimizer aligns all-gather buffers to 4 bytes and asserts "allgather_bucket_size must be a multiple of
 * nccl_start_alignment_factor, 2" (runtime/zero/stage_1_and_2.py:349-351). Not on the BF16_Optimizer path, which
 * ZeRO-1 with bf16 and fp32 gradient accumulation takes without offload (engine.py:1995-1997); it does not assert.
 */
export const allgatherBucketOdd: Rule = (config) => {
  const stage = config.knownStage();
  const path = [ZERO, 'allgather_bucket_size'];
  const value = config.number(path);
  if ((stage !== 1 && stage !== 2) || value === undefined || !Number.isInteger(value) || value % 2 === 0) return [];
  const accum = config.get(['data_types', 'grad_accum_dtype']);
  const bf16Path = stage === 1 && config.isTrue([config.bf16Key(), 'enabled']) && (accum === 'fp32' || accum === 'float32') && config.lowerString([ZERO, 'offload_optimizer', 'device']) !== 'cpu';
  if (bf16Path) return [];
  const even = value + 1;
  return [
    config.diagnostic('allgather-bucket-size-odd', 'error', config.valueRange(path),
      config.t('"allgather_bucket_size" is {0}, an odd number: ZeRO stage {1} asserts it is a multiple of 2 (the all-gather buffers are aligned to 4 bytes) and does not start.', value, stage),
      { path, value, fixes: [fix(config.t('Use {0}', even), [{ op: 'set', path, value: even }], true)] },
    ),
  ];
};

export const zeroRules: Rule[] = [
  allgatherBucketOdd,
  legacyBooleanForm,
  offloadParamBelowStage3,
  partialOffloadBelowStage3,
  nvmeWithoutPath,
  stageAuto,
  legacyStage1,
  optimizerOffloadAtStage0,
  pipelineLoadingBelowStage3,
  quantizedInitializationBelowStage3,
];
