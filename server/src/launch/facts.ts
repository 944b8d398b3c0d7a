import type { Range } from 'vscode-languageserver-types';
import type { AttentionImpl, OffloadDevice, Precision, ZeroStage } from '../memory/types';
import { say, type Phrase, type Translate } from '../l10n';

/** Where a fact was written: the document, its LSP range, offsets and 1-based line. */
export interface SourceSpan {
  uri: string;
  range: Range;
  start: number;
  end: number;
  line: number;
}

export interface Fact<T> {
  value: T;
  span: SourceSpan;
  /**
   * How it was written, e.g. `NPROC_PER_NODE=$nproc_per_node` or `--max_length`; for a default, what decides
   * it (`ms-swift default`, `torchrun default`, `python train.py runs one process`), shown as its source.
   */
  via: string;
  /** `via` as a phrase where it is words (`torchrun default`), not a name from the script: worded where shown. */
  viaText?: Phrase;
  /** True when the value is the launcher's default, not something the script wrote. */
  isDefault?: boolean;
}

/** How a fact was written or decided, in the reader's language (the names a script wrote stay as written). */
export function factVia(fact: Fact<unknown>, t: Translate): string {
  return fact.viaText ? say(t, fact.viaText) : fact.via;
}

/**
 * A word's values by the branch the script takes (`name`: the variable set in the branches) or, with `loop` (the
 * loop's name), by the iteration of a `for` loop; `uses`: the word's value in the run or branch the facts read, the
 * one that needs the most memory (launch/costliestRun.ts).
 */
export type BranchDependent = Fact<string[]> & { loop?: string; name?: string; uses?: string };

export type LauncherKind =
  | 'swift'
  | 'megatron'
  | 'deepspeed'
  | 'torchrun'
  | 'accelerate'
  | 'python'
  | 'llamafactory'
  | 'swift-yaml'
  | 'llamafactory-yaml'
  | 'accelerate-yaml';

export const swiftPresetNames = ['zero0', 'zero1', 'zero2', 'zero2_offload', 'zero3', 'zero3_offload'] as const;
export type SwiftPresetName = (typeof swiftPresetNames)[number];

/** Programs that build their DeepSpeed config in Python from their own flags. */
export type ConfigBuilder = 'DeepSpeed-Chat' | 'OpenRLHF';

/**
 * Where a frozen model's weights sit: partitioned over the GPUs (ZeRO-3; absent: as the trained model's stage), in
 * CPU memory (parameter offload, which only a partitioned model gets).
 */
export interface ExtraPlacement {
  sharded?: boolean;
  offloaded: boolean;
}

/** What a launch file says about the DeepSpeed config it uses. */
export type DeepSpeedReference = {
  /** The flag or key that carries it: `--deepspeed`, `--zero_stage`, `deepspeed_config_file`, … */
  via: string;
  /** The value as written (quotes removed, variables resolved where possible). */
  text: string;
  span: SourceSpan;
} & (
  | { kind: 'preset'; name: SwiftPresetName }
  /** A JSON path; `candidates` are absolute paths it may mean (script folder, then workspace folders). */
  | {
      kind: 'file';
      path: string;
      candidates: string[];
      /** The script writes the file itself before it launches (`cat <<EOT > $config_json`): the text it writes. */
      written?: { text: string; start: number; end: number };
    }
  /**
   * `repairedJson`: the value is not JSON, but ms-swift repairs it into this (and `json` is what it reads).
   * `mapping`: written as a YAML mapping (ms-swift YAML), which swift/cli/main.py:66-67 passes on as JSON.
   */
  /** `tooDeep`: nested deeper than any config (util/nesting.ts), so not parsed; `json` is undefined. */
  | { kind: 'inline'; json: unknown; repairedJson?: string; mapping?: true; tooDeep?: true }
  /** Stage/offload given directly (accelerate flags or config). */
  | {
      kind: 'settings';
      stage?: ZeroStage;
      offloadOptimizer?: OffloadDevice;
      offloadParam?: OffloadDevice;
      zero3Init?: boolean;
      /** The training program builds the config from these flags itself (launchers/flagBuiltConfig.ts). */
      builtBy?: ConfigBuilder;
      /** Its mixed precision, where the builder writes one. */
      precision?: 'bf16' | 'fp16';
      /** The flags it builds from, as written (`--zero_stage 2 --offload --dtype bf16`). */
      flags?: string;
      /** Batch keys the builder writes where the script's flags do not say them (its defaults, OpenRLHF's train batch). */
      batch?: { micro?: number; accumulation?: number; train?: number };
      /** The stage written is not 0–3 (accelerate refuses it): nothing runs, so nothing is estimated. */
      invalidStage?: true;
    }
  /** Not a preset, not JSON, not a path-looking value (a misspelt preset, usually). */
  | { kind: 'unknown' }
  /** Depends on something the parser cannot resolve (`$DS_CONFIG` from the environment). */
  | { kind: 'unresolved' }
);

/**
 * How a launch runs FSDP, as the plugin will see it (defaults filled in as the launcher or the Trainer fills
 * them): for the checks across files and, later, the FSDP memory terms.
 */
export interface FsdpSettings {
  /** What turned FSDP on: `distributed_type`, `--fsdp`, `--use_fsdp`. */
  via: string;
  span: SourceSpan;
  version: 1 | 2;
  /** FSDP1's strategy, or FSDP2's `reshard_after_forward` as one (true: FULL_SHARD, false: SHARD_GRAD_OP). */
  strategy: 'FULL_SHARD' | 'SHARD_GRAD_OP' | 'NO_SHARD' | 'HYBRID_SHARD' | 'HYBRID_SHARD_ZERO2';
  /** Parameters and gradients in CPU RAM, the optimizer step on the CPU. */
  offloadParams: boolean;
  autoWrap: 'TRANSFORMER_BASED_WRAP' | 'SIZE_BASED_WRAP' | 'NO_WRAP';
  /** FSDP's own activation checkpointing, where the launch file turns it on (with where it says so). */
  activationCheckpointing?: Fact<boolean>;
  /** FSDP1 only: frozen and trainable parameters may share a unit. */
  useOrigParams?: boolean;
}

/** Model-parallel sizes a launch sets (Megatron-SWIFT), each where it is written. */
export interface ParallelSizes {
  tp?: Fact<number>;
  pp?: Fact<number>;
  cp?: Fact<number>;
  ep?: Fact<number>;
  etp?: Fact<number>;
  /** `decoder_first/last_pipeline_num_layers`: the stages are uneven, so the layers need not divide by PP. */
  unevenPipeline?: boolean;
}

/** One training launch, from a shell command or a launcher YAML file. */
/**
 * An extra model whose path the script gives through a variable it does not set (DeepSpeed-Chat's `$1`): counted
 * as the trained model, the size the estimate knows, and said so.
 */
// l10n-ignore: a key no reader sees (it never leaves the estimate's model lookup)
export const sameAsTrainedModel = '\u0000the trained model';

export interface LaunchFacts {
  uri: string;
  launcher: LauncherKind;
  /** Launchers from outermost to innermost, e.g. ['deepspeed', 'swift'] or ['torchrun', 'python']. */
  chain: LauncherKind[];
  /** `sft`, `pt`, `rlhf`, `infer`, … for swift/megatron; `train` for llamafactory-cli. */
  subcommand?: string;
  /** Whole command (or file) span. */
  span: SourceSpan;
  /** Index of the command in the script (undefined for YAML). */
  commandIndex?: number;
  /**
   * Where words of the command were written outside its own span: the variables (`$ds_args`, `"${CMD[@]}"`) and
   * `eval`ed strings it runs (shell/expand.ts). Offsets in this document.
   */
  wordsFrom?: { start: number; end: number }[];
  /** Training script (`train.py`) or LLaMA-Factory YAML given to the launcher. */
  script?: Fact<string>;
  /** accelerate `--config_file`, LLaMA-Factory YAML, swift config YAML (absolute candidates). */
  configFile?: Fact<string> & { candidates: string[] };
  /**
   * A YAML the training script reads as its arguments, under its command line: TRL's TrlParser `--config x.yaml`,
   * alignment-handbook's H4ArgumentParser `script.py x.yaml` (references.ts, `withArgumentsFile`).
   */
  argsFile?: Fact<string> & { candidates: string[] };
  /** `trl <command>`: the arguments file's keys its parser does not take go to accelerate launch (launchers/trlCli.ts). */
  argsFileLaunches?: true;
  /** accelerate's keys in an arguments file (`num_processes: 4`, `accelerate_config: zero2`), which `trl <command>` hands on. */
  accelerateKeys?: { processes?: Fact<number>; config?: Fact<string> & { candidates: string[] } };
  model?: Fact<string>;
  gpusPerNode?: Fact<number>;
  nodes?: Fact<number>;
  microBatch?: Fact<number>;
  gradientAccumulation?: Fact<number>;
  seqLen?: Fact<number>;
  gradientCheckpointing?: Fact<boolean>;
  tuner?: Fact<string>;
  loraRank?: Fact<number>;
  quantBits?: Fact<number>;
  quantMethod?: Fact<string>;
  dtype?: Fact<Precision>;
  deepspeed?: DeepSpeedReference;
  /**
   * A Python script's command passes none of the flags only the HF TrainingArguments take (--output_dir,
   * --per_device_train_batch_size, …): who reads its --deepspeed is unknown (LMFlow's chatbot.py hands it to
   * deepspeed.initialize for inference), so nothing is claimed about that consumer. Absent for other launches.
   */
  noTrainerArguments?: boolean;
  /** The command runs TRL, whose configs turn gradient_checkpointing and bf16 on by default (launchers/hf.ts). */
  trlDefaults?: true;
  /** An accelerate config's distributed_type NO: one process, unless the command names a distributed type (`namesDistributedType`). */
  oneProcess?: true;
  /** The `accelerate launch` command passes --multi_gpu, --use_deepspeed, --use_fsdp, --use_megatron_lm or --tpu. */
  namesDistributedType?: true;
  /**
   * Words whose variable depends on the `if`/`case` branch the script takes, each with the branches' values; or,
   * with `loop` (its name), takes each word of a `for` loop around the command.
   */
  branchDependent?: BranchDependent[];
  /**
   * ms-swift rlhf `--teacher_deepspeed`: the frozen teacher's config (GKD, GRPO on-policy distillation), read
   * like `--deepspeed`. Never part of the trained model's estimate: the teacher is another model.
   */
  teacherDeepspeed?: DeepSpeedReference;
  /**
   * `deepspeed --autotuning run|tune`: the autotuner starts experiments with its own ZeRO sections and batch sizes
   * written into the config (autotuning/autotuner.py), and `run` trains with the best one.
   */
  autotuning?: Fact<string>;
  /** The dtype the model is loaded in (`--torch_dtype`), apart from the compute precision (`--bf16`). */
  torchDtype?: Fact<Precision>;
  /** LoRA's dropout rate (`--lora_dropout`; ms-swift's default 0.05). */
  loraDropout?: Fact<number>;
  /** The linears LoRA wraps, as target_modules names (DeepSpeed-Chat's --lora_module_name); [] where not known. */
  loraTargets?: Fact<string[]>;
  /** DeepSpeed-Chat without --only_optimize_lora: every weight but the wrapped linears' trains too. */
  loraBaseTrains?: Fact<boolean>;
  /**
   * DeepSpeed-Chat step 3 (dschat/rlhf/rlhf_engine.py): the frozen models' ZeRO-3 partitioning and parameter offload,
   * the critic's own ZeRO stage, the EMA copy of the actor, the hybrid engine.
   */
  extraPlacement?: { reference: ExtraPlacement; reward: ExtraPlacement };
  criticStage?: Fact<number>;
  emaModel?: Fact<string>;
  hybridEngine?: Fact<boolean>;
  /** Workload facts the memory estimate reads (docs/memory-model.md §7). */
  ligerKernel?: Fact<boolean>;
  /** A chunked cross-entropy (torchtune CEWithChunkedOutputLoss, ms-swift CELOSS_PARALLEL_SIZE). */
  chunkedLoss?: Fact<boolean>;
  attnImpl?: Fact<AttentionImpl>;
  packing?: Fact<boolean>;
  paddingFree?: Fact<boolean>;
  sequenceParallel?: Fact<number>;
  /** accelerate's `mixed_precision` as written (`no`, `bf16`, …): under FSDP it decides whether trainable weights are upcast to fp32. */
  mixedPrecision?: Fact<string>;
  /** Megatron's `--sequence_parallel`: activations outside attention and MLP split over TP as well. */
  sequenceParallelFlag?: Fact<boolean>;
  /** Vision tower frozen (ms-swift `--freeze_vit`, default true; LLaMA-Factory `freeze_vision_tower`). */
  freezeVit?: Fact<boolean>;
  /** ms-swift `--freeze_aligner` (default true): the projector is frozen in full fine-tuning (tuner_args.py:124, :212-215). */
  freezeAligner?: Fact<boolean>;
  /** ms-swift `--freeze_llm` (default false): the language model is frozen in multimodal full fine-tuning (tuner_args.py:122, :208-209). */
  freezeLlm?: Fact<boolean>;
  /** ms-swift LoRA with `--freeze_llm` on all-linear: no adapters on a multimodal model's language model (launchers/swift.ts). */
  loraSkipsLlm?: Fact<boolean>;
  /** ms-swift `--vllm_max_model_len`, TRL `--vllm_max_model_length`: the colocated vLLM engine's max_model_len, where it stops a rollout (prompt + completion). */
  vllmMaxModelLen?: Fact<number>;
  /** Optimizer as the trainer names it (`--optim adamw_torch_fused`, `optim: paged_adamw_8bit`). */
  optim?: Fact<string>;
  /**
   * ms-swift `--optimizer`: the optimizer plugin that builds the optimizer (swift/optimizers/mapping.py:9-16,
   * trainers/mixin.py:87), `galore` also from `--use_galore` (arguments/sft_args.py:213-217).
   */
  swiftOptimizer?: Fact<string>;
  /** LLaMA-Factory `pure_bf16`: bf16 weights and optimizer states, no fp32 copy of the trainable weights. */
  pureBf16?: Fact<boolean>;
  /** RLHF and distillation: the extra models the command holds (`sameAsTrainedModel` where the path is not readable). */
  rlhfType?: Fact<string>;
  beta?: Fact<number>;
  refModel?: Fact<string>;
  rewardModel?: Fact<string>;
  /** A trained value/critic model (OpenRLHF `--critic_pretrain`); ms-swift PPO initialises it from the reward model. */
  valueModel?: Fact<string>;
  teacherModel?: Fact<string>;
  useVllm?: Fact<boolean>;
  vllmMode?: Fact<string>;
  vllmGpuMemoryUtilization?: Fact<number>;
  sleepLevel?: Fact<number>;
  /** ms-swift `--offload_model` / `--offload_optimizer`: move the trained model / its optimizer to CPU during rollouts. */
  offloadModelDuringRollout?: Fact<boolean>;
  offloadOptimizerDuringRollout?: Fact<boolean>;
  numGenerations?: Fact<number>;
  /** TRL / ms-swift `--steps_per_generation`: micro-batches one generation serves (default the accumulation). */
  stepsPerGeneration?: Fact<number>;
  maxCompletionLength?: Fact<number>;
  /**
   * The prompt bound of online RL, whose rows are the prompt and its completion: ms-swift GRPO/PPO `--max_length`,
   * TRL's `--max_prompt_length`, OpenRLHF's `--prompt_max_len`. A `seqLen` that is not this fact is the whole row.
   */
  promptLength?: Fact<number>;
  /** ms-swift `--deepspeed_autotp_size`, which adds `zero_optimization` to the config (sft_args.py:275-279). */
  deepspeedAutotpSize?: Fact<number>;
  /** FSDP instead of DeepSpeed: accelerate's `distributed_type: FSDP`, the Trainer's or ms-swift's `--fsdp`. */
  fsdp?: FsdpSettings;
  /** Megatron's tensor, pipeline, context and expert parallel sizes. */
  parallel?: ParallelSizes;
  /**
   * `ENV:` of a ms-swift config file: variables ms-swift sets before it starts torchrun, each only where the
   * shell left it unset (swift/cli/main.py, parse_yaml_args). Values as Python's str() writes them.
   */
  configEnv?: Record<string, Fact<string>>;
}

/** bfloat16/bf16/float16/fp16/float32/fp32 → Precision; anything else undefined. */
export function precisionOf(value: string | undefined): Precision | undefined {
  switch ((value ?? '').toLowerCase()) {
    case 'bfloat16':
    case 'bf16':
      return 'bf16';
    case 'float16':
    case 'fp16':
    case 'half':
      return 'fp16';
    case 'float32':
    case 'fp32':
    case 'float':
      return 'fp32';
    default:
      return undefined;
  }
}

/** transformers / ms-swift / LLaMA-Factory spellings of the attention implementation. */
export function attentionImplOf(value: string | undefined): AttentionImpl | undefined {
  const v = (value ?? '').toLowerCase().replace(/-/g, '_');
  if (v === 'eager' || v === 'disabled') return 'eager';
  if (v === 'sdpa' || v === 'auto') return 'sdpa';
  if (v.startsWith('flash') || v === 'fa2' || v === 'fa3') return 'flash';
  return undefined;
}

export function isSwiftPreset(value: string): value is SwiftPresetName {
  return (swiftPresetNames as readonly string[]).includes(value);
}
