import type { LaunchFacts } from '../facts';
import type { TrainerPart } from '../command/launchCommand';
import { parseInteger, type SourceContext } from '../command/context';
import type { CommandEnvironment } from '../shell/variables';
import type { Word } from '../shell/types';
import { classifyDeepSpeedValue } from '../deepspeedValue';
import { visibleDevices } from './devices';
import { parseOptions, valueRange } from '../command/options';
import { OptionReader, readCommonTrainingFacts, trainingArgumentsDefault } from './trainerArgs';

/** `llamafactory-cli train config.yaml key=value …` (OmegaConf dotlist overrides, not `--key value`). */
export function llamaFactoryTrainer(subcommandWord: Word | undefined, args: Word[]): TrainerPart {
  return {
    kind: 'llamafactory',
    subcommand: subcommandWord?.value,
    subcommandWord,
    args,
    // `llamafactory-cli train --model_name_or_path … --deepspeed ds.json` is accepted too (HfArgumentParser).
    parsed: parseOptions(args, { multiValue: true }),
    envAfter: [],
  };
}

export function readLlamaFactoryFacts(ctx: SourceContext, env: CommandEnvironment, trainer: TrainerPart, facts: LaunchFacts): void {
  const config = trainer.parsed.positionals.find((w) => /\.(ya?ml|json)$/i.test(w.value));
  const configText = config && env.resolve(config);
  if (config && configText) {
    facts.configFile = { ...ctx.fact(configText, config.start, config.end, 'llamafactory-cli train'), candidates: ctx.candidates(configText) };
  }
  for (const word of trainer.args) {
    const m = /^([A-Za-z_][\w.]*)=(.*)$/s.exec(word.value);
    if (!m) continue;
    const valueStart = word.start + word.raw.indexOf('=') + 1;
    const resolved = env.resolve(word);
    const value = resolved?.slice(resolved.indexOf('=') + 1);
    // The dotlist is merged over the YAML (LLaMA-Factory ff6d4d12 src/llamafactory/hparams/parser.py:118-120).
    const batchKey = m[1] === 'per_device_train_batch_size' ? 'microBatch' : m[1] === 'gradient_accumulation_steps' ? 'gradientAccumulation' : undefined;
    const n = batchKey ? parseInteger(value) : undefined;
    if (batchKey && n !== undefined) facts[batchKey] = ctx.fact(n, valueStart, word.end, `${m[1]}=`);
    if (m[1] === 'deepspeed') {
      const ref = classifyDeepSpeedValue(ctx, m[2], value, valueStart, word.end, 'deepspeed=');
      facts.deepspeed = ref.kind === 'unknown' ? { ...ref, kind: 'file', path: ref.text, candidates: ctx.candidates(ref.text) } : ref;
    }
  }
  const reader = new OptionReader(ctx, env, trainer.parsed);
  facts.model = reader.string('model_name_or_path');
  facts.tuner = reader.string('finetuning_type');
  facts.loraRank = reader.integer('lora_rank');
  facts.quantBits = reader.integer('quantization_bit');
  facts.seqLen = reader.integer('cutoff_len');
  readCommonTrainingFacts(reader, facts);
  // Its TrainingArguments is Seq2SeqTrainingArguments with no batch of its own (LLaMA-Factory ff6d4d12
  // src/llamafactory/hparams/training_args.py:143-153): a config file's written batch wins over this default.
  facts.microBatch ??= trainingArgumentsDefault(ctx, facts, 8);
  const ds = reader.option('deepspeed');
  const dsText = ds && reader.text(ds);
  const r = ds && valueRange(ds);
  if (ds && r && dsText !== '') {
    const ref = classifyDeepSpeedValue(ctx, ds.inline?.text ?? ds.values[0]?.value ?? '', dsText, r.start, r.end, ds.written);
    facts.deepspeed = ref.kind === 'unknown' ? { ...ref, kind: 'file', path: ref.text, candidates: ctx.candidates(ref.text) } : ref;
  }
  // LLaMA-Factory starts torchrun itself when several devices are visible.
  const nproc = env.envBinding('NPROC_PER_NODE');
  const devices = visibleDevices(env);
  const n = Number(nproc?.value);
  if (nproc && Number.isInteger(n) && n > 0) facts.gpusPerNode = ctx.fact(n, nproc.assignment.start, nproc.assignment.end, 'NPROC_PER_NODE');
  else if (devices && devices.ids.length > 0) facts.gpusPerNode = ctx.fact(devices.ids.length, devices.binding.assignment.start, devices.binding.assignment.end, devices.name);
  const nnodes = env.envBinding('NNODES');
  const nn = Number(nnodes?.value);
  if (nnodes && Number.isInteger(nn) && nn > 0) facts.nodes = ctx.fact(nn, nnodes.assignment.start, nnodes.assignment.end, 'NNODES');
}
