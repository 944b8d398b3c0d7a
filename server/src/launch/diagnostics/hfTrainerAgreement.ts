import type { Diagnostic } from 'vscode-languageserver-types';
import { missing, textOf, type Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import type { LaunchCommand, TrainerPart } from '../command/launchCommand';
import { valueRange, type Option } from '../command/options';
import { configReader } from '../deepspeedPlugin';
import { readReferencedConfig } from '../referencedConfig';
import { OptionReader } from '../launchers/trainerArgs';
import { launchDiagnostic } from './launchDiagnostic';
import { changeValueFix } from '../edits/valueEdit';
import { trainBatchAgreement, trainerMismatchRefusal } from './hfTrainerBatch';
import { maxGradNormNotApplied } from './maxGradNorm';
import type { Translate } from '../../l10n';
import type { LaunchFacts } from '../facts';
import type { DeepSpeedRelease } from '../../dsconfig/deepspeedRelease';
import { launchFactsOfText } from '../references';

/**
 * The Hugging Face Trainer checks the DeepSpeed config against its own arguments: every key it compares that is
 * not "auto" must equal the argument (transformers integrations/deepspeed.py @3a80c166, HfTrainerDeepSpeedConfig
 * trainer_config_process :152-208 and trainer_config_finalize :266-275 → fill_match :136; the ValueError "Please
 * correct the following DeepSpeed config values that mismatch TrainingArguments values" at :277-282).
 * warmup_min_lr is only filled (fill_only, :180), never compared. Numbers are compared where the script writes the
 * argument (scripts may change its default); fp16 and bf16 also against TrainingArguments' default, False.
 * train_batch_size, the Trainer's world size × per-device batch × accumulation, is in hfTrainerBatch.ts.
 */
interface Mapping {
  key: string[];
  args: string[];
  /** `pair`: a list compared with the arguments in order (betas with adam_beta1, adam_beta2). */
  kind: 'number' | 'bool' | 'pair' | 'warmup';
  /** Not compared under --auto_find_batch_size (fill_match's must_match is `not auto_find_batch_size`). */
  batchSize?: true;
}

const mappings: Mapping[] = [
  { key: ['train_micro_batch_size_per_gpu'], args: ['per_device_train_batch_size'], kind: 'number', batchSize: true },
  { key: ['gradient_accumulation_steps'], args: ['gradient_accumulation_steps'], kind: 'number' },
  { key: ['gradient_clipping'], args: ['max_grad_norm'], kind: 'number' },
  { key: ['optimizer', 'params', 'lr'], args: ['learning_rate'], kind: 'number' },
  { key: ['optimizer', 'params', 'betas'], args: ['adam_beta1', 'adam_beta2'], kind: 'pair' },
  { key: ['optimizer', 'params', 'weight_decay'], args: ['weight_decay'], kind: 'number' },
  { key: ['optimizer', 'params', 'eps'], args: ['adam_epsilon'], kind: 'number' },
  { key: ['scheduler', 'params', 'warmup_max_lr'], args: ['learning_rate'], kind: 'number' },
  // get_warmup_steps: warmup_steps itself from 1 up; below 1 (a ratio) or with warmup_ratio it depends on the run's length.
  { key: ['scheduler', 'params', 'warmup_num_steps'], args: ['warmup_steps'], kind: 'warmup' },
  { key: ['fp16', 'enabled'], args: ['fp16', 'fp16_full_eval'], kind: 'bool' },
  { key: ['bf16', 'enabled'], args: ['bf16', 'bf16_full_eval'], kind: 'bool' },
];

function at(value: unknown, path: string[]): unknown {
  let v = value;
  for (const k of path) v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}


/** `release`: the DeepSpeed release the script runs under, looked up when a check needs it (maxGradNorm.ts). */
export async function hfTrainerAgreement(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, trainer: TrainerPart, t: Translate, release: () => Promise<DeepSpeedRelease | undefined>): Promise<Diagnostic[]> {
  const ref = launch.facts.deepspeed;
  if (!ref || configReader(launch.facts) !== 'the Hugging Face Trainer') return [];
  const config = await readReferencedConfig(async (p) => textOf(await hosts.fs.readFile(p, 'config')), ref).catch(() => undefined);
  if (!config || !config.value || typeof config.value !== 'object') return [];
  const reader = new OptionReader(ctx, launch.env, trainer.parsed);
  const autoFindBatchSize = reader.bool('auto_find_batch_size')?.value === true;
  const out: Diagnostic[] = [];
  const text = ctx.document.getText();
  const numberArgument = (name: string) => {
    const option = reader.option(name);
    const given = option ? Number(reader.text(option)) : undefined;
    return option && given !== undefined && Number.isFinite(given) ? { option, given } : undefined;
  };
  const mismatch = (option: Option, given: number, dotted: string, written: number) => {
    const r = valueRange(option) ?? { start: option.nameStart, end: option.nameEnd };
    // A value written as a variable is changed where the script sets it, or not at all (launch/edits/valueEdit.ts).
    const change = changeValueFix(text, r.start, r.end, String(written), launch.env, t('Change to {0}', written), t);
    const message = t('{0} is {1} but the DeepSpeed config sets {2}. The Hugging Face Trainer refuses the mismatch at start ({3}); write the same value, or "auto" in the config.', option.written, given, `"${dotted}": ${written}`, trainerMismatchRefusal) + change.note;
    return launchDiagnostic(ctx, 'hf-trainer-config-mismatch', r.start, r.end, message, { key: dotted, fixes: change.fixes });
  };
  for (const m of mappings) {
    const written = at(config.value, m.key);
    if (written === undefined || written === null || written === 'auto' || (m.batchSize && autoFindBatchSize)) continue;
    const dotted = m.key.join('.');
    if (m.kind === 'number' || m.kind === 'warmup') {
      const arg = typeof written === 'number' ? numberArgument(m.args[0]) : undefined;
      if (!arg || arg.given === written || (m.kind === 'warmup' && (arg.given < 1 || !Number.isInteger(arg.given) || reader.option('warmup_ratio')))) continue;
      out.push(mismatch(arg.option, arg.given, dotted, written as number));
      continue;
    }
    if (m.kind === 'pair') {
      // One written argument that differs from its element makes the lists differ, whatever the other is.
      if (!Array.isArray(written)) continue;
      m.args.forEach((name, i) => {
        const arg = numberArgument(name);
        if (arg && typeof written[i] === 'number' && written[i] !== arg.given) out.push(mismatch(arg.option, arg.given, `${dotted}[${i}]`, written[i] as number));
      });
      continue;
    }
    if (typeof written !== 'boolean') continue;
    const options = m.args.map((a) => reader.bool(a)).filter((f) => f !== undefined);
    // TRL's configs make an unset bf16 `not fp16` (trl f2cd5771 trl/trainer/base_config.py:67-72, :104-105); an
    // arguments file may set it, so not claimed then.
    const trlBf16 = m.key[0] === 'bf16' && launch.facts.trlDefaults && !launch.facts.argsFile && !reader.bool('bf16') && !reader.bool('fp16')?.value;
    const on = options.some((f) => f!.value) || trlBf16 === true;
    if (on === written) continue;
    const shown = options.find((f) => f!.value === on);
    const span = shown ? shown.span : ref.span;
    const args = `--${m.args[0]}`;
    out.push(
      launchDiagnostic(
        ctx,
        'hf-trainer-config-mismatch',
        span.start,
        span.end,
        written
          ? t('The DeepSpeed config enables {0} ({1}), and the script does not pass {2}: the Hugging Face Trainer refuses the mismatch at start ({3}). Pass {2}, or write "auto" in the config.', m.key[0], `"${dotted}": true`, args, trainerMismatchRefusal)
          : t('{0} is on, and the DeepSpeed config sets {1}: the Hugging Face Trainer refuses the mismatch at start. Write "auto" (or true) in the config, or drop {0}.', args, `"${dotted}": false`),
        { key: dotted },
      ),
    );
  }
  if (!autoFindBatchSize) out.push(...trainBatchAgreement(ctx, launch, reader, config.value as Record<string, unknown>, t));
  out.push(...(await maxGradNormNotApplied(ctx, reader, config.value as Record<string, unknown>, release, t)));
  return out;
}

/**
 * `accelerate launch --config_file acc.yaml train.py --gradient_accumulation_steps 8` where the YAML's
 * deepspeed_config says another gradient_accumulation_steps (and names no deepspeed_config_file): accelerate's
 * plugin writes the YAML's value into the config it builds (utils/dataclasses.py:1297-1300), and the Trainer's
 * fill_match then finds it differs from its argument and refuses to start (transformers trainer_config_process).
 */
export async function accelerateYamlAgreement(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, trainer: TrainerPart, t: Translate): Promise<Diagnostic[]> {
  const file = launch.facts.configFile;
  if (!launch.facts.chain.includes('accelerate') || !file || launch.facts.deepspeed) return [];
  const yamlFacts = await accelerateConfigFacts(ctx, hosts, file.candidates);
  const yamlSteps = yamlFacts?.deepspeed?.kind === 'settings' ? yamlFacts.gradientAccumulation : undefined;
  if (!yamlSteps || yamlSteps.isDefault) return [];
  const reader = new OptionReader(ctx, launch.env, trainer.parsed);
  const given = reader.integer('gradient_accumulation_steps');
  if (!given || given.value === yamlSteps.value) return [];
  const change = changeValueFix(ctx.document.getText(), given.span.start, given.span.end, String(yamlSteps.value), launch.env, t('Change to {0}', yamlSteps.value), t);
  return [
    launchDiagnostic(
      ctx,
      'hf-trainer-config-mismatch',
      given.span.start,
      given.span.end,
      t('{0} is {1}, but {2} sets {3} for DeepSpeed: accelerate writes that into the DeepSpeed config, and the Hugging Face Trainer refuses the mismatch at start. Use the same value in both.', '--gradient_accumulation_steps', given.value, file.value, `gradient_accumulation_steps: ${yamlSteps.value}`) + change.note,
      { key: 'gradient_accumulation_steps', fixes: change.fixes },
    ),
  ];
}

/** What the first of an accelerate config file's candidate paths that exists says. */
export async function accelerateConfigFacts(ctx: SourceContext, hosts: Hosts, candidates: string[]): Promise<LaunchFacts | undefined> {
  for (const candidate of candidates) {
    const text = textOf(await hosts.fs.readFile(candidate, 'yaml').catch(() => missing));
    if (text !== undefined) return launchFactsOfText(candidate, text, ctx.folders)[0];
  }
  return undefined;
}
