import type { LaunchFacts } from '../facts';
import { precisionOf } from '../facts';
import type { OffloadDevice, ZeroStage } from '../../memory/types';
import type { LauncherPart } from '../command/launchCommand';
import type { SourceContext } from '../command/context';
import { parseBool } from '../command/context';
import type { CommandEnvironment } from '../shell/variables';
import { parseOptions, valueRange, type OptionSpec } from '../command/options';
import type { Word } from '../shell/types';
import { classifyDeepSpeedValue } from '../deepspeedValue';
import { OptionReader } from './trainerArgs';
import { accelerateFsdpSettings } from '../fsdp/accelerateFsdp';
import type { KeyValueEntry } from '../keyValueEntry';

export const accelerateBooleans = new Set([
  'quiet', 'cpu', 'multi_gpu', 'tpu', 'use_deepspeed', 'use_fsdp', 'use_parallelism_config', 'use_megatron_lm', 'same_network', 'module',
  'no_python', 'debug', 'enable_cpu_affinity', 'dynamo_use_fullgraph', 'dynamo_use_dynamic', 'dynamo_use_regional_compilation', 'use_xpu',
]);
/** DeepSpeed flags of `accelerate launch` that `deepspeed_config_file` excludes (DeepSpeedPlugin checks). */
export const excludedByConfigFile = [
  'gradient_accumulation_steps', 'gradient_clipping', 'zero_stage', 'offload_optimizer_device', 'offload_param_device',
  'offload_optimizer_nvme_path', 'offload_param_nvme_path', 'zero3_save_16bit_model', 'mixed_precision',
];
export const accelerateOptions = [
  'config_file', 'mixed_precision', 'num_processes', 'num_machines', 'num_cpu_threads_per_process', 'dynamo_backend', 'dynamo_mode', 'gpu_ids',
  'machine_rank', 'main_process_ip', 'main_process_port', 'log_dir', 'role', 'rdzv_backend', 'rdzv_conf', 'max_restarts', 'monitor_interval',
  'deepspeed_config_file', 'zero_stage', 'offload_optimizer_device', 'offload_param_device', 'offload_optimizer_nvme_path', 'offload_param_nvme_path',
  'gradient_accumulation_steps', 'gradient_clipping', 'zero3_init_flag', 'zero3_save_16bit_model', 'deepspeed_hostfile', 'deepspeed_exclusion_filter',
  'deepspeed_inclusion_filter', 'deepspeed_multinode_launcher', 'deepspeed_moe_layer_cls_names', ...accelerateBooleans,
];
const spec: OptionSpec = { booleans: accelerateBooleans, shortAliases: { '-q': 'quiet', '-m': 'module', '-t': 'tee' }, stopAtPositional: true };

export function accelerateLauncher(word: Word, args: Word[]): { part: LauncherPart; rest: Word[] } {
  const parsed = parseOptions(args, spec);
  const rest = args.slice(parsed.restIndex);
  return { part: { kind: 'accelerate', word, parsed, script: rest[0] }, rest: rest.slice(1) };
}

/** Values accelerate accepts for its DeepSpeed settings (flags and config keys alike). */
export const accelerateChoices: Record<string, string[]> = {
  zero_stage: ['0', '1', '2', '3'],
  offload_optimizer_device: ['none', 'cpu', 'nvme'],
  offload_param_device: ['none', 'cpu', 'nvme'],
  zero3_init_flag: ['true', 'false'],
  zero3_save_16bit_model: ['true', 'false'],
  mixed_precision: ['no', 'fp16', 'bf16', 'fp8'],
  deepspeed_multinode_launcher: ['pdsh', 'standard', 'openmpi', 'mvapich', 'mpich', 'slurm', 'nossh'],
};

/** accelerate lower-cases these flags (utils/launch.py) and reads zero3_init_flag with str_to_bool. */
export function accelerateValueForm(option: string, text: string): string {
  const lower = text.toLowerCase();
  if (option === 'zero3_init_flag') return ['y', 'yes', 't', 'true', 'on', '1'].includes(lower) ? 'true' : ['n', 'no', 'f', 'false', 'off', '0'].includes(lower) ? 'false' : text;
  return ['offload_optimizer_device', 'offload_param_device', 'zero3_save_16bit_model'].includes(option) ? lower : text;
}

/** accelerate lower-cases the offload device before DeepSpeed sees it. */
export function offloadDeviceOf(value: string | undefined): OffloadDevice | undefined {
  const device = value?.toLowerCase();
  return device === 'none' || device === 'cpu' || device === 'nvme' ? device : undefined;
}

export function readAccelerateFacts(ctx: SourceContext, env: CommandEnvironment, part: LauncherPart, facts: LaunchFacts): void {
  const reader = new OptionReader(ctx, env, part.parsed);
  if (['multi_gpu', 'use_deepspeed', 'use_fsdp', 'use_megatron_lm', 'tpu'].some((n) => reader.option(n))) facts.namesDistributedType = true;
  const processes = reader.integer('num_processes');
  const machines = reader.integer('num_machines');
  if (machines && machines.value > 0) facts.nodes = machines;
  if (processes && processes.value > 0) {
    const perNode = Math.max(1, Math.floor(processes.value / (machines?.value && machines.value > 0 ? machines.value : 1)));
    facts.gpusPerNode = { ...processes, value: perNode };
  }
  const precision = reader.string('mixed_precision');
  const p = precisionOf(precision?.value);
  if (precision && p) facts.dtype = { ...precision, value: p };
  if (precision) facts.mixedPrecision = { ...precision, value: precision.value.toLowerCase() };
  facts.gradientAccumulation = reader.integer('gradient_accumulation_steps');
  const config = reader.string('config_file');
  if (config) facts.configFile = { ...config, candidates: ctx.candidates(config.value) };

  readFsdpFlags(ctx, reader, facts);
  const file = reader.option('deepspeed_config_file');
  const fileText = file && reader.text(file);
  if (file && fileText !== undefined && fileText !== '') {
    const r = valueRange(file)!;
    const ref = classifyDeepSpeedValue(ctx, fileText, fileText, r.start, r.end, file.written);
    facts.deepspeed = ref.kind === 'file' || ref.kind === 'unknown' ? { ...ref, kind: 'file', path: ref.text, candidates: ctx.candidates(ref.text) } : ref;
    return;
  }
  const stage = reader.integer('zero_stage');
  const useDeepSpeed = reader.option('use_deepspeed');
  // With a config file and no stage flag, the YAML decides (read by throughConfigFile), not the defaults.
  if (stage || (useDeepSpeed && !config)) {
    const anchor = stage ? stage.span : ctx.span(useDeepSpeed!.nameStart, useDeepSpeed!.nameEnd);
    const zero3Init = reader.string('zero3_init_flag');
    facts.deepspeed = {
      kind: 'settings',
      via: stage ? '--zero_stage' : '--use_deepspeed',
      text: stage ? String(stage.value) : '',
      span: anchor,
      // accelerate's defaults when a flag is unset: stage 2, no offload, zero3_init true.
      stage: (stage && stage.value >= 0 && stage.value <= 3 ? stage.value : 2) as ZeroStage,
      offloadOptimizer: offloadDeviceOf(reader.string('offload_optimizer_device')?.value) ?? 'none',
      offloadParam: offloadDeviceOf(reader.string('offload_param_device')?.value) ?? 'none',
      zero3Init: parseBool(zero3Init?.value) ?? true,
    };
    if (stage && !(stage.value >= 0 && stage.value <= 3)) facts.deepspeed.invalidStage = true;
  }
}

/** `--use_fsdp` with `--fsdp_*` flags: read as the same options of an accelerate config (defaults included). */
function readFsdpFlags(ctx: SourceContext, reader: OptionReader, facts: LaunchFacts): void {
  const use = reader.option('use_fsdp');
  if (!use) return;
  const entries = new Map<string, KeyValueEntry>();
  for (const option of reader.parsed.options) {
    if (!option.name.startsWith('fsdp_')) continue;
    const r = valueRange(option) ?? { start: option.nameEnd, end: option.nameEnd };
    const text = reader.text(option);
    entries.set(option.name, { key: option.name, value: text, text, keyStart: option.nameStart, keyEnd: option.nameEnd, valueStart: r.start, valueEnd: r.end, pairStart: option.word.start, pairEnd: r.end });
  }
  const flag: KeyValueEntry = { key: '--use_fsdp', value: 'FSDP', text: 'FSDP', keyStart: use.nameStart, keyEnd: use.nameEnd, valueStart: use.nameStart, valueEnd: use.nameEnd, pairStart: use.nameStart, pairEnd: use.nameEnd };
  const settings = accelerateFsdpSettings(flag, entries, (start, end) => ctx.span(start, end));
  if (settings) facts.fsdp = { ...settings, via: use.written };
}
