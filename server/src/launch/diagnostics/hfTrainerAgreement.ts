import type { Diagnostic } from 'vscode-languageserver-types';
import { missing, textOf, type Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import type { LaunchCommand, TrainerPart } from '../command/launchCommand';
import { valueRange } from '../command/options';
import { configReader } from '../deepspeedPlugin';
import { readReferencedConfig } from '../referencedConfig';
import { OptionReader } from '../launchers/trainerArgs';
import { launchDiagnostic } from './launchDiagnostic';
import { replaceText } from '../../diagnostics/textOps';
import type { LaunchFacts } from '../facts';
import { launchFactsOfText } from '../references';

/**
 * The Hugging Face Trainer checks the DeepSpeed config against its own arguments: every key it maps that is not
 * "auto" must equal the argument (transformers integrations/deepspeed.py, HfTrainerDeepSpeedConfig
 * trainer_config_process → fill_match; trainer_config_finalize raises ValueError "Please correct the following
 * DeepSpeed config values that mismatch TrainingArguments values"). Numbers are compared where the script writes
 * the argument (scripts may change its default); fp16 and bf16 also against TrainingArguments' default, False.
 */
interface Mapping {
  key: string[];
  args: string[];
  kind: 'number' | 'bool';
}

const mappings: Mapping[] = [
  { key: ['train_micro_batch_size_per_gpu'], args: ['per_device_train_batch_size'], kind: 'number' },
  { key: ['gradient_accumulation_steps'], args: ['gradient_accumulation_steps'], kind: 'number' },
  { key: ['gradient_clipping'], args: ['max_grad_norm'], kind: 'number' },
  { key: ['optimizer', 'params', 'lr'], args: ['learning_rate'], kind: 'number' },
  { key: ['optimizer', 'params', 'weight_decay'], args: ['weight_decay'], kind: 'number' },
  { key: ['optimizer', 'params', 'eps'], args: ['adam_epsilon'], kind: 'number' },
  { key: ['scheduler', 'params', 'warmup_max_lr'], args: ['learning_rate'], kind: 'number' },
  { key: ['fp16', 'enabled'], args: ['fp16', 'fp16_full_eval'], kind: 'bool' },
  { key: ['bf16', 'enabled'], args: ['bf16', 'bf16_full_eval'], kind: 'bool' },
];

function at(value: unknown, path: string[]): unknown {
  let v = value;
  for (const k of path) v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

export async function hfTrainerAgreement(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, trainer: TrainerPart): Promise<Diagnostic[]> {
  const ref = launch.facts.deepspeed;
  if (!ref || configReader(launch.facts) !== 'the Hugging Face Trainer') return [];
  const config = await readReferencedConfig(async (p) => textOf(await hosts.fs.readFile(p, 'config')), ref).catch(() => undefined);
  if (!config || !config.value || typeof config.value !== 'object') return [];
  const reader = new OptionReader(ctx, launch.env, trainer.parsed);
  const out: Diagnostic[] = [];
  const text = ctx.document.getText();
  for (const m of mappings) {
    const written = at(config.value, m.key);
    if (written === undefined || written === null || written === 'auto') continue;
    const dotted = m.key.join('.');
    if (m.kind === 'number') {
      if (typeof written !== 'number') continue;
      const option = reader.option(m.args[0]);
      const given = option ? Number(reader.text(option)) : undefined;
      if (!option || given === undefined || !Number.isFinite(given) || given === written) continue;
      const r = valueRange(option) ?? { start: option.nameStart, end: option.nameEnd };
      out.push(
        launchDiagnostic(
          ctx,
          'hf-trainer-config-mismatch',
          r.start,
          r.end,
          `${option.written} is ${given} but the DeepSpeed config sets "${dotted}": ${written}. The Hugging Face Trainer refuses the mismatch at start ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values"); write the same value, or "auto" in the config.`,
          { key: dotted, fixes: [{ id: 'change-value', title: `Change to ${written}`, ops: [replaceText(text, r.start, r.end, String(written))], preferred: true }] },
        ),
      );
      continue;
    }
    if (typeof written !== 'boolean') continue;
    const options = m.args.map((a) => reader.bool(a)).filter((f) => f !== undefined);
    const on = options.some((f) => f!.value);
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
          ? `The DeepSpeed config enables ${m.key[0]} ("${dotted}": true), and the script does not pass ${args}: the Hugging Face Trainer refuses the mismatch at start ("Please correct the following DeepSpeed config values that mismatch TrainingArguments values"). Pass ${args}, or write "auto" in the config.`
          : `${args} is on, and the DeepSpeed config sets "${dotted}": false: the Hugging Face Trainer refuses the mismatch at start. Write "auto" (or true) in the config, or drop ${args}.`,
        { key: dotted },
      ),
    );
  }
  return out;
}

/**
 * `accelerate launch --config_file acc.yaml train.py --gradient_accumulation_steps 8` where the YAML's
 * deepspeed_config says another gradient_accumulation_steps (and names no deepspeed_config_file): accelerate's
 * plugin writes the YAML's value into the config it builds (utils/dataclasses.py:1297-1300), and the Trainer's
 * fill_match then finds it differs from its argument and refuses to start (transformers trainer_config_process).
 */
export async function accelerateYamlAgreement(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, trainer: TrainerPart): Promise<Diagnostic[]> {
  const file = launch.facts.configFile;
  if (!launch.facts.chain.includes('accelerate') || !file || launch.facts.deepspeed) return [];
  let yamlFacts: LaunchFacts | undefined;
  for (const candidate of file.candidates) {
    const text = textOf(await hosts.fs.readFile(candidate, 'yaml').catch(() => missing));
    if (text === undefined) continue;
    yamlFacts = launchFactsOfText(candidate, text, ctx.folders)[0];
    break;
  }
  const yamlSteps = yamlFacts?.deepspeed?.kind === 'settings' ? yamlFacts.gradientAccumulation : undefined;
  if (!yamlSteps || yamlSteps.isDefault) return [];
  const reader = new OptionReader(ctx, launch.env, trainer.parsed);
  const given = reader.integer('gradient_accumulation_steps');
  if (!given || given.value === yamlSteps.value) return [];
  const text = ctx.document.getText();
  return [
    launchDiagnostic(
      ctx,
      'hf-trainer-config-mismatch',
      given.span.start,
      given.span.end,
      `--gradient_accumulation_steps is ${given.value}, but ${file.value} sets gradient_accumulation_steps: ${yamlSteps.value} for DeepSpeed: accelerate writes that into the DeepSpeed config, and the Hugging Face Trainer refuses the mismatch at start. Use the same value in both.`,
      { key: 'gradient_accumulation_steps', fixes: [{ id: 'change-value', title: `Change to ${yamlSteps.value}`, ops: [replaceText(text, given.span.start, given.span.end, String(yamlSteps.value))], preferred: true }] },
    ),
  ];
}
