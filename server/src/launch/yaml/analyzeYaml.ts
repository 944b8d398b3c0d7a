import { valueNestsDeeperThan } from '../../util/nesting';
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node, type Pair, type Scalar } from 'yaml';
import type { Fact, LaunchFacts, LauncherKind } from '../facts';
import { attentionImplOf, precisionOf } from '../facts';
import type { SourceContext } from '../command/context';
import { classifyDeepSpeedValue } from '../deepspeedValue';
import { offloadDeviceOf } from '../launchers/accelerate';
import { loraSkipsLlm, swiftDeepSpeedFlags } from '../launchers/swift';
import type { ZeroStage } from '../../memory/types';
import { maxYamlNesting, yamlNestingBound } from './nesting';
import { flowPairExtent } from './flowPair';
import { withPyyamlBooleans } from './pyyamlBool';
import { accelerateFsdpSettings } from '../fsdp/accelerateFsdp';
import type { KeyValueEntry } from '../keyValueEntry';
import { msg } from '../../l10n';

/** A `key: value` entry with the offsets of both sides, and the value's YAML node. */
export interface YamlEntry extends KeyValueEntry {
  node: Node | null;
}

export interface YamlLaunch {
  kind: Extract<LauncherKind, 'swift-yaml' | 'llamafactory-yaml' | 'accelerate-yaml'>;
  document: Document;
  top: Map<string, YamlEntry>;
  /** accelerate `deepspeed_config:` entries. */
  deepspeedConfig: Map<string, YamlEntry>;
  /** accelerate `fsdp_config:` entries, as written (fsdp/accelerateFsdp.ts reads them). */
  fsdpConfig: Map<string, YamlEntry>;
  /** accelerate `parallelism_config:` entries (FSDP2's tensor and context parallel sizes). */
  parallelismConfig: Map<string, YamlEntry>;
  facts: LaunchFacts;
}

/** The parser's first error, where it stands: the launcher's own YAML reader stops on such a file too. */
export interface YamlSyntaxError {
  start: number;
  end: number;
  /** The parser's own words (English), or undefined where ZeRO Lens says it in the reader's language. */
  message: string;
  /** A second document: yaml.safe_load and OmegaConf.load read one. */
  multipleDocuments?: boolean;
}

/** A launch YAML as far as it parses, and the first syntax error when there is one. */
export interface YamlAnalysis {
  yaml: YamlLaunch | undefined;
  syntaxError: YamlSyntaxError | undefined;
}

/** A scalar's text: a boolean as written (`NO`, which PyYAML reads as False), anything else as its value. */
function scalarText(node: Scalar): string | undefined {
  if (node.value === null) return undefined;
  return typeof node.value === 'boolean' && node.source ? node.source : String(node.value);
}

/**
 * The node an alias stands for, as PyYAML's SafeConstructor reads it (yaml.safe_load: accelerate, ms-swift;
 * OmegaConf.load: LLaMA-Factory); any other node as it is.
 */
function resolved(node: unknown, document: Document): unknown {
  return isAlias(node) ? node.resolve(document) : node;
}

/** The maps a `<<` merge key takes keys from: one alias, or a sequence of them (the first wins). */
function mergedMaps(value: unknown, document: Document): unknown[] {
  const node = resolved(value, document);
  return isSeq(node) ? node.items.map((item) => resolved(item, document)) : [node];
}

/** A node's JavaScript value with its aliases resolved; undefined past yaml's alias limit (a billion-laughs file). */
function jsOf(node: Node | null, document: Document): unknown {
  if (isScalar(node)) return node.value;
  try {
    return node?.toJS(document, { maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}

/**
 * A map's entries as PyYAML builds the dict (SafeConstructor.flatten_mapping): its own keys, then those of the maps
 * its `<<` merge keys name (a later `<<` over an earlier one, the first map of a list over the rest). An aliased
 * value is the anchored node, and a merged key keeps its own offsets: both point where the file writes them.
 */
function entriesOf(node: unknown, text: string, document: Document, merging: Set<unknown> = new Set()): Map<string, YamlEntry> {
  const out = new Map<string, YamlEntry>();
  const map = resolved(node, document);
  if (!isMap(map) || merging.has(map)) return out;
  const merged = new Map<string, YamlEntry>();
  for (const pair of map.items as Pair<unknown, unknown>[]) {
    const key = pair.key;
    if (!isScalar(key) || !key.range) continue;
    if (isMergeKey(key)) {
      const one = new Map<string, YamlEntry>();
      merging.add(map);
      for (const source of mergedMaps(pair.value, document)) for (const [k, e] of entriesOf(source, text, document, merging)) if (!one.has(k)) one.set(k, e);
      merging.delete(map);
      for (const [k, e] of one) merged.set(k, e);
      continue;
    }
    const valueNode = (resolved(pair.value ?? null, document) ?? null) as Node | null;
    const keyStart = key.range[0];
    const keyEnd = key.range[1];
    const valueRange = valueNode?.range;
    const valueStart = valueRange ? valueRange[0] : keyEnd + 1;
    const valueEnd = valueRange ? valueRange[1] : keyEnd + 1;
    const lineStart = text.lastIndexOf('\n', keyStart - 1) + 1;
    const nodeEnd = valueRange && !isAlias(pair.value) ? valueRange[2] : keyEnd + 1;
    const nl = text.indexOf('\n', Math.max(nodeEnd - 1, keyEnd));
    const pairEnd = nl < 0 ? text.length : nl + 1;
    // In a flow mapping the line holds the other pairs too: a removal takes this pair and one comma.
    const extent = map.flow ? flowPairExtent(text, keyStart, Math.min(valueEnd, text.length)) : { start: lineStart, end: Math.max(pairEnd, valueEnd) };
    out.set(String(key.value), {
      key: String(key.value),
      value: jsOf(valueNode, document),
      text: isScalar(valueNode) ? scalarText(valueNode) : undefined,
      keyStart,
      keyEnd,
      valueStart,
      valueEnd: Math.min(valueEnd, text.length),
      pairStart: extent.start,
      pairEnd: extent.end,
      node: valueNode,
    });
  }
  for (const [k, e] of merged) if (!out.has(k)) out.set(k, e);
  return out;
}

/** `<<` as yaml reads it with `merge: true`. */
function isMergeKey(key: Scalar): boolean {
  return typeof key.value === 'symbol' && key.source === '<<';
}

const llamaFactoryKeys = ['finetuning_type', 'model_name_or_path', 'cutoff_len', 'stage', 'template', 'lora_target', 'quantization_bit'];
const swiftKeys = ['tuner_type', 'train_type', 'torch_dtype', 'model', 'max_length'];

/** Which tool reads a YAML file, from its keys; undefined when it is none of ours. */
function kindOf(top: Map<string, YamlEntry>): YamlLaunch['kind'] | undefined {
  // Any accelerate config: one without DeepSpeed still gives the process count to a script's --deepspeed.
  if (top.has('distributed_type') || top.has('deepspeed_config')) return 'accelerate-yaml';
  const llamaFactory = llamaFactoryKeys.some((k) => top.has(k));
  // fsdp_config is also the Trainer's argument, which a LLaMA-Factory or ms-swift YAML passes on.
  if (top.has('fsdp_config') && !llamaFactory && !swiftKeys.some((k) => top.has(k))) return 'accelerate-yaml';
  if (llamaFactory) return 'llamafactory-yaml';
  if (swiftKeys.some((k) => top.has(k))) return 'swift-yaml';
  if (top.has('deepspeed')) return 'llamafactory-yaml';
  return undefined;
}

/** Python's str() of a YAML scalar, which is what ms-swift puts in os.environ. */
function pythonStr(value: unknown): string | undefined {
  // l10n-ignore: Python's spelling of a boolean, not words
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  return undefined;
}

/** A ms-swift config's `ENV:`, and the process counts it gives swift's own torchrun start. */
function readSwiftEnv(ctx: SourceContext, env: Map<string, YamlEntry>, facts: LaunchFacts): void {
  if (env.size === 0) return;
  const configEnv: Record<string, Fact<string>> = {};
  for (const entry of env.values()) {
    const value = pythonStr(entry.value);
    if (value !== undefined) configEnv[entry.key] = ctx.fact(value, entry.valueStart, entry.valueEnd, `ENV.${entry.key}`);
  }
  facts.configEnv = configEnv;
  const count = (name: string) => {
    const fact = configEnv[name];
    return fact && /^[1-9]\d*$/.test(fact.value) ? { ...fact, value: Number(fact.value) } : undefined;
  };
  facts.gpusPerNode = count('NPROC_PER_NODE');
  facts.nodes = count('NNODES');
}

export function analyzeYaml(ctx: SourceContext, text: string): YamlAnalysis {
  if (yamlNestingBound(text) > maxYamlNesting) return { yaml: undefined, syntaxError: undefined };
  let document: Document;
  try {
    document = parseDocument(text, { keepSourceTokens: false, prettyErrors: false, uniqueKeys: false, merge: true, customTags: withPyyamlBooleans });
  } catch {
    return { yaml: undefined, syntaxError: undefined };
  }
  const syntaxError = firstError(document, text);
  // The parser recovers past its errors: what it still reads is checked (a file mid-edit keeps its hints).
  return { yaml: launchOf(ctx, text, document), syntaxError };
}

/**
 * TRL's ModelConfig in a recipe YAML (huggingface/trl f2cd5771 trl/trainer/model_config.py): use_peft turns LoRA on
 * with lora_r (default 16, :107-108) on lora_target_modules (:119), load_in_4bit / load_in_8bit quantise the base.
 */
function readTrlPeft(top: Map<string, YamlEntry>, facts: LaunchFacts, at: <T>(e: YamlEntry, value: T) => Fact<T>, int: (e: YamlEntry | undefined) => Fact<number> | undefined): void {
  const peft = top.get('use_peft');
  if (peft?.value !== true || facts.tuner) return;
  facts.tuner = at(peft, 'lora');
  facts.loraRank ??= int(top.get('lora_r')) ?? { ...at(peft, 16), via: 'use_peft (lora_r 16)' };
  const targets = top.get('lora_target_modules');
  const names = Array.isArray(targets?.value) ? targets.value.map(String) : typeof targets?.value === 'string' ? [targets.value] : [];
  if (targets && names.length) facts.loraTargets = at(targets, names);
  const quant = top.get('load_in_4bit')?.value === true ? top.get('load_in_4bit') : top.get('load_in_8bit')?.value === true ? top.get('load_in_8bit') : undefined;
  if (quant) facts.quantBits ??= at(quant, quant.key === 'load_in_4bit' ? 4 : 8);
}

/** Workload facts of an ms-swift or LLaMA-Factory YAML (their keys are the command's flags). */
function readYamlWorkload(
  top: Map<string, YamlEntry>,
  facts: LaunchFacts,
  at: <T>(e: YamlEntry, value: T) => Fact<T>,
  int: (e: YamlEntry | undefined) => Fact<number> | undefined,
  str: (e: YamlEntry | undefined) => Fact<string> | undefined,
): void {
  const bool = (...keys: string[]): Fact<boolean> | undefined => {
    for (const key of keys) {
      const e = top.get(key);
      if (e && typeof e.value === 'boolean') return at(e, e.value);
    }
    return undefined;
  };
  const real = (key: string): Fact<number> | undefined => {
    const e = top.get(key);
    return e && typeof e.value === 'number' ? at(e, e.value) : undefined;
  };
  facts.ligerKernel = bool('use_liger_kernel', 'enable_liger_kernel');
  const attn = top.get('attn_impl') ?? top.get('flash_attn') ?? top.get('attn_implementation');
  const impl = attentionImplOf(attn?.text);
  if (attn && impl) facts.attnImpl = at(attn, impl);
  facts.packing = bool('packing', 'neat_packing');
  facts.paddingFree = bool('padding_free');
  facts.sequenceParallel = int(top.get('sequence_parallel_size'));
  facts.freezeVit = bool('freeze_vit', 'freeze_vision_tower');
  facts.optim = str(top.get('optim'));
  facts.pureBf16 = bool('pure_bf16');
  facts.loraDropout = real('lora_dropout');
  facts.rlhfType = str(top.get('rlhf_type')) ?? (['dpo', 'kto', 'ppo', 'rm'].includes(top.get('stage')?.text ?? '') ? str(top.get('stage')) : undefined);
  facts.beta = real('beta') ?? real('pref_beta');
  facts.refModel = str(top.get('ref_model'));
  facts.rewardModel = str(top.get('reward_model'));
  facts.teacherModel = str(top.get('teacher_model'));
  facts.useVllm = bool('use_vllm');
  facts.vllmMode = str(top.get('vllm_mode'));
  facts.vllmGpuMemoryUtilization = real('vllm_gpu_memory_utilization');
  facts.sleepLevel = int(top.get('sleep_level'));
  facts.offloadModelDuringRollout = bool('offload_model');
  facts.offloadOptimizerDuringRollout = bool('offload_optimizer');
  facts.numGenerations = int(top.get('num_generations'));
  facts.stepsPerGeneration = int(top.get('steps_per_generation'));
  facts.maxCompletionLength = int(top.get('max_completion_length'));
  facts.freezeAligner = bool('freeze_aligner');
  facts.freezeLlm = bool('freeze_llm');
  facts.vllmMaxModelLen = int(top.get('vllm_max_model_len'));
  // ms-swift GRPO/PPO: max_length bounds the prompt (launchers/swift.ts).
  if (['grpo', 'ppo'].includes(facts.rlhfType?.value ?? '') && top.get('max_length')) facts.promptLength = int(top.get('max_length'));
  for (const key of Object.keys(facts) as Array<keyof LaunchFacts>) if (facts[key] === undefined) delete facts[key];
}

function firstError(document: Document, text: string): YamlSyntaxError | undefined {
  const error = document.errors[0];
  if (!error) return undefined;
  const start = Math.min(error.pos[0], text.length);
  const lineEnd = text.indexOf('\n', start);
  // Some ranges run to the end of the file (a second document); the start's line is where to look.
  const end = Math.max(start, Math.min(error.pos[1], lineEnd < 0 ? text.length : lineEnd));
  // The library's own wording names its JS API; yaml.safe_load (ms-swift, accelerate) and OmegaConf.load
  // (LLaMA-Factory) read one document.
  if (error.code === 'MULTIPLE_DOCS') return { start, end, message: error.message, multipleDocuments: true };
  return { start, end, message: error.message };
}

function launchOf(ctx: SourceContext, text: string, document: Document): YamlLaunch | undefined {
  const top = entriesOf(document.contents, text, document);
  const kind = kindOf(top);
  if (!kind) return undefined;
  const deepspeedConfig = entriesOf(top.get('deepspeed_config')?.node, text, document);
  const fsdpConfig = entriesOf(top.get('fsdp_config')?.node, text, document);
  const parallelismConfig = entriesOf(top.get('parallelism_config')?.node, text, document);
  const facts: LaunchFacts = { uri: ctx.uri, launcher: kind, chain: [kind], span: ctx.span(0, text.length) };
  const at = <T>(e: YamlEntry, value: T) => ctx.fact(value, e.valueStart, e.valueEnd, e.key);
  const int = (e: YamlEntry | undefined) => (e && typeof e.value === 'number' && Number.isInteger(e.value) ? at(e, e.value) : undefined);
  const str = (e: YamlEntry | undefined) => (e?.text !== undefined && e.text !== '' ? at(e, e.text) : undefined);

  // A TRL arguments file may carry accelerate's keys, which `trl <command>` passes to accelerate (launchers/trlCli.ts).
  const accelerateConfig = str(top.get('accelerate_config'));
  const trlProcesses = int(top.get('num_processes'));
  if (kind !== 'accelerate-yaml' && (accelerateConfig || trlProcesses)) {
    facts.accelerateKeys = { processes: trlProcesses, config: accelerateConfig && { ...accelerateConfig, candidates: ctx.candidates(accelerateConfig.value) } };
  }
  if (kind === 'accelerate-yaml') {
    const machines = int(top.get('num_machines'));
    const processes = int(top.get('num_processes'));
    if (machines && machines.value > 0) facts.nodes = machines;
    if (processes && processes.value > 0) facts.gpusPerNode = { ...processes, value: Math.max(1, Math.floor(processes.value / (machines?.value || 1))) };
    // distributed_type NO turns multi_gpu off, so accelerate's simple_launcher starts one process whatever num_processes
    // says (accelerate 16cb6eb8 src/accelerate/commands/launch.py:1214-1237, :1397-1407).
    const type = top.get('distributed_type');
    if (type?.text?.toUpperCase() === 'NO') {
      facts.gpusPerNode = ctx.fact(1, type.valueStart, type.valueEnd, msg('{0} (one GPU, one process)', 'distributed_type: NO'));
      facts.oneProcess = true;
    }
    const mp = top.get('mixed_precision');
    const precision = precisionOf(mp?.text);
    if (mp && precision) facts.dtype = at(mp, precision);
    if (mp?.text) facts.mixedPrecision = at(mp, mp.text.toLowerCase());
    facts.gradientAccumulation = int(deepspeedConfig.get('gradient_accumulation_steps'));
    const file = deepspeedConfig.get('deepspeed_config_file');
    if (file?.text) {
      facts.deepspeed = { kind: 'file', path: file.text, candidates: ctx.candidates(file.text), text: file.text, via: 'deepspeed_config_file', span: ctx.span(file.valueStart, file.valueEnd) };
    } else if (top.get('distributed_type')?.text?.toUpperCase() === 'DEEPSPEED') {
      const stage = deepspeedConfig.get('zero_stage');
      const anchor = stage ?? top.get('distributed_type')!;
      const stageValue = typeof stage?.value === 'number' && stage.value >= 0 && stage.value <= 3 ? (stage.value as ZeroStage) : 2;
      const init = deepspeedConfig.get('zero3_init_flag')?.value;
      facts.deepspeed = {
        kind: 'settings',
        via: stage ? 'zero_stage' : 'distributed_type',
        text: anchor.text ?? '',
        span: ctx.span(anchor.valueStart, anchor.valueEnd),
        stage: stageValue,
        offloadOptimizer: offloadDeviceOf(deepspeedConfig.get('offload_optimizer_device')?.text) ?? 'none',
        offloadParam: offloadDeviceOf(deepspeedConfig.get('offload_param_device')?.text) ?? 'none',
        zero3Init: typeof init === 'boolean' ? init : true,
      };
      if (stage && stageValue !== stage.value) facts.deepspeed.invalidStage = true;
    }
    // Context parallel (FSDP2, cp_size) or ALST/Ulysses sequence parallel (DeepSpeed, sp_size) splits every sequence over
    // that many GPUs; the two exclude each other (accelerate parallelism_config.py:73-76, :328-329).
    const split = ['cp_size', 'sp_size'].map((k) => int(parallelismConfig.get(`parallelism_config_${k}`) ?? parallelismConfig.get(k))).find((f) => f && f.value > 1);
    if (split) facts.sequenceParallel = split;
    const fsdp = accelerateFsdpSettings(top.get('distributed_type'), fsdpConfig, (start, end) => ctx.span(start, end));
    if (fsdp) facts.fsdp = fsdp;
    return { kind, document, top, deepspeedConfig, fsdpConfig, parallelismConfig, facts };
  }

  facts.model = str(top.get('model_name_or_path')) ?? str(top.get('model'));
  facts.microBatch = int(top.get('per_device_train_batch_size'));
  facts.gradientAccumulation = int(top.get('gradient_accumulation_steps'));
  // TRL's SFTConfig said max_seq_length before max_length (a recipe read as a script's arguments, launchers/hf.ts).
  facts.seqLen = int(top.get('cutoff_len')) ?? int(top.get('max_length')) ?? int(top.get('max_seq_length'));
  const tuner = str(top.get('finetuning_type')) ?? str(top.get('tuner_type')) ?? str(top.get('train_type'));
  if (tuner) facts.tuner = tuner;
  facts.loraRank = int(top.get('lora_rank'));
  readTrlPeft(top, facts, at, int);
  facts.quantBits = int(top.get('quantization_bit')) ?? int(top.get('quant_bits'));
  facts.quantMethod = str(top.get('quantization_method')) ?? str(top.get('quant_method'));
  const gc = top.get('gradient_checkpointing');
  if (gc && typeof gc.value === 'boolean') facts.gradientCheckpointing = at(gc, gc.value);
  for (const key of ['bf16', 'fp16'] as const) {
    const e = top.get(key);
    if (e && e.value === true) facts.dtype ??= at(e, key);
  }
  const dtype = top.get('torch_dtype');
  const precision = precisionOf(dtype?.text);
  if (dtype && precision) {
    facts.dtype ??= at(dtype, precision);
    facts.torchDtype = at(dtype, precision);
  }
  readYamlWorkload(top, facts, at, int, str);
  // A TRL recipe's name for it (launchers/hf.ts); ms-swift knows only vllm_max_model_len.
  if (kind !== 'swift-yaml') facts.vllmMaxModelLen ??= int(top.get('vllm_max_model_length'));
  // Only a file with LLaMA-Factory's own keys is read by its loader: a TRL recipe (model_name_or_path alone) keeps its
  // gradient_checkpointing: false (the YAML a script reads as its arguments, launchers/hf.ts).
  const llamaFactoryOwn = llamaFactoryKeys.some((k) => k !== 'model_name_or_path' && top.has(k));
  if (kind === 'llamafactory-yaml' && llamaFactoryOwn && facts.gradientCheckpointing?.value !== true) {
    // LLaMA-Factory's loader checkpoints unless disable_gradient_checkpointing (ff6d4d12 hparams/model_args.py:145-148,
    // model/model_utils/checkpointing.py:184); the Trainer's gradient_checkpointing: false does not stop it.
    const disable = top.get('disable_gradient_checkpointing');
    facts.gradientCheckpointing = disable?.value === true ? at(disable, false) : ctx.fact(true, 0, 0, msg('LLaMA-Factory default (disable_gradient_checkpointing: false)'), true);
  }
  // LLaMA-Factory's TrainingArguments keeps Seq2SeqTrainingArguments' batch (launchers/llamafactory.ts).
  if (kind === 'llamafactory-yaml' && llamaFactoryOwn) facts.microBatch ??= ctx.fact(8, 0, 0, msg('TrainingArguments default {0}', 8), true);
  if (kind === 'swift-yaml') {
    facts.tuner ??= ctx.fact('lora', 0, 0, msg('ms-swift default'), true);
    // As on the command line (launchers/swift.ts): the optimizer plugin, galore from use_galore when no optimizer is
    // named (ms-swift 3602360a swift/arguments/sft_args.py:213-217).
    const galore = top.get('use_galore');
    facts.swiftOptimizer = str(top.get('optimizer')) ?? (galore?.value === true ? at(galore, 'galore') : undefined);
    // As on the command line (launchers/swift.ts): lora_dropout 0.05 (swift/arguments/tuner_args.py:135).
    if (facts.tuner.value !== 'full') facts.loraDropout ??= ctx.fact(0.05, 0, 0, msg('ms-swift default'), true);
    const targets = top.get('target_modules')?.value;
    const skips = loraSkipsLlm(facts, Array.isArray(targets) ? targets.map(String) : typeof targets === 'string' ? [targets] : undefined, top.has('target_regex'));
    if (skips) facts.loraSkipsLlm = skips;
    // `megatron sft x.yaml`: Megatron checkpoints whole layers only with recompute_granularity full (launchers/swift.ts).
    const recompute = str(top.get('recompute_granularity'));
    if (recompute) facts.gradientCheckpointing ??= { ...recompute, value: recompute.value === 'full' };
    facts.gradientCheckpointing ??= ctx.fact(true, 0, 0, msg('ms-swift default'), true);
    // As on the command line: per_device_train_batch_size: int = 1 (ms-swift 3602360a swift/trainers/arguments.py:129).
    facts.microBatch ??= ctx.fact(1, 0, 0, msg('ms-swift default'), true);
    // GRPO accumulates one step by default (swift/arguments/rlhf_args.py:527-530).
    if (top.get('rlhf_type')?.text === 'grpo') facts.gradientAccumulation ??= ctx.fact(1, 0, 0, msg('ms-swift default'), true);
    readSwiftEnv(ctx, entriesOf(top.get('ENV')?.node, text, document), facts);
    facts.deepspeedAutotpSize = int(top.get('deepspeed_autotp_size'));
  }
  // An ms-swift config's keys are its flags (teacher_deepspeed too); LLaMA-Factory has deepspeed only.
  for (const flag of swiftDeepSpeedFlags) {
    const ds = top.get(flag.name);
    if (!ds || (kind !== 'swift-yaml' && flag.name !== 'deepspeed')) continue;
    // A mapping: swift/cli/main.py:66-67 passes it on as json.dumps(v), which ms-swift reads as inline JSON.
    if (kind === 'swift-yaml' && isMap(ds.node)) {
      const span = ctx.span(ds.valueStart, ds.valueEnd);
      facts[flag.fact] = valueNestsDeeperThan(ds.value)
        ? { kind: 'inline', json: undefined, tooDeep: true, mapping: true, text: '', span, via: flag.name }
        : { kind: 'inline', json: ds.value, mapping: true, text: JSON.stringify(ds.value), span, via: flag.name };
      continue;
    }
    if (!ds.text) continue;
    // swift/cli/main.py:60-71 passes a YAML string on as a command-line value, so ms-swift repairs it too.
    const ref = classifyDeepSpeedValue(ctx, ds.text, ds.text, ds.valueStart, ds.valueEnd, flag.name, { repairsJson: kind === 'swift-yaml' });
    facts[flag.fact] = ref.kind === 'unknown' && kind === 'llamafactory-yaml' ? { ...ref, kind: 'file', path: ref.text, candidates: ctx.candidates(ref.text) } : ref;
  }
  return { kind, document, top, deepspeedConfig, fsdpConfig, parallelismConfig, facts };
}
