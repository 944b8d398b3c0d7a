import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import type { LaunchCommand, TrainerPart } from '../command/launchCommand';
import { lastOption, optionExtent, valueRange, type Option } from '../command/options';
import { deepspeedSubcommands, swiftConfigArgument, swiftDeepSpeedFlags, type SwiftDeepSpeedFlag } from '../launchers/swift';
import { ScriptEditor } from '../edits/textEdits';
import type { FixSpec } from '../../diagnostics/fixData';
import { launchDiagnostic } from './launchDiagnostic';
import { checkDeepSpeedReference } from './deepspeedReference';
import { swiftDeviceDiagnostics } from './swiftDevices';
import { configFileFacts, factsOfFileIn } from '../references';
import { teacherDeepSpeedDiagnostics } from './teacherDeepSpeed';

const torchDtypes: Record<string, string> = { bf16: 'bfloat16', fp16: 'float16', fp32: 'float32', half: 'float16', float: 'float32', bfloat: 'bfloat16' };
const validTorchDtypes = new Set(['bfloat16', 'float16', 'float32']);

/** The option's value as the command sees it (variables resolved when possible). */
function optionValueText(launch: LaunchCommand, option: Option): string | undefined {
  if (option.inline) return option.inline.text;
  const v = option.values[0];
  return v ? (launch.env.resolve(v) ?? v.value) : undefined;
}

function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** A DeepSpeed flag on a subcommand whose arguments class has no such field: parse_args leaves it over. */
function unsupportedSubcommand(ctx: SourceContext, editor: ScriptEditor, trainer: TrainerPart, option: Option, flag: SwiftDeepSpeedFlag): Diagnostic {
  const sub = trainer.subcommand;
  // --deepspeed and --teacher_deepspeed take one value.
  const extent = optionExtent(option, 1);
  const who = trainer.kind === 'megatron' ? `megatron ${sub ?? ''}`.trim() : `swift ${sub}`;
  const why =
    trainer.kind === 'megatron'
      ? flag.name === 'deepspeed'
        ? 'Megatron-SWIFT has no --deepspeed (it uses tensor/pipeline parallel flags)'
        : `Megatron-SWIFT has no --${flag.name}`
      : `only ${listed(flag.subcommands)} ${flag.subcommands.length > 1 ? 'accept' : 'accepts'} it`;
  return launchDiagnostic(ctx, 'deepspeed-unsupported-subcommand', option.nameStart, valueRange(option)?.end ?? option.nameEnd, `'${who}' does not take --${flag.name}: ${why}. ms-swift stops with a remaining_argv error.`, {
    subcommand: sub,
    flag: flag.name,
    fixes: [{ id: 'remove-flag', title: `Remove --${flag.name}`, ops: [editor.removeWords(extent.start, extent.end)], preferred: true }],
  });
}

/**
 * `python swift/cli/sft.py sft.yaml` (or a launcher on that script): only swift/cli/main.py turns a config
 * file into flags (parse_yaml_args, main.py:38-71). The script's HfArgumentParser leaves the file name over,
 * and the pipeline raises ValueError("remaining_argv: [...]"), or with --ignore_args_error true only warns and
 * trains without the file (swift/pipelines/base.py:35-40).
 */
function scriptConfigFile(ctx: SourceContext, editor: ScriptEditor, launch: LaunchCommand, trainer: TrainerPart): Diagnostic | undefined {
  const config = swiftConfigArgument(launch.env, trainer);
  const script = trainer.subcommandWord;
  if (!trainer.subcommandScript || !config || !script) return undefined;
  const ignore = lastOption(trainer.parsed, 'ignore_args_error');
  const ignoreText = ignore && (optionValueText(launch, ignore) ?? 'true');
  const ignored = ignoreText !== undefined && ['true', 'yes', 't', 'y', '1'].includes(ignoreText.toLowerCase());
  const command = `${trainer.kind} ${trainer.subcommand ?? 'sft'}`;
  const what = ignored
    ? `with --ignore_args_error it only logs "remaining_argv: ['${config.text}']" and trains without the file's settings (swift/pipelines/base.py:35-38)`
    : `ms-swift stops with ValueError: remaining_argv: ['${config.text}'] (swift/pipelines/base.py:35-40)`;
  const python = launch.launcher ? undefined : trainer.python;
  const fixes: FixSpec[] = python ? [{ id: 'run-with-swift', title: `Run with ${command}`, ops: [editor.replace(python.word.start, script.end, command)], preferred: true }] : [];
  const d = launchDiagnostic(
    ctx,
    'swift-script-config-file',
    config.word.start,
    config.word.end,
    `${script.value} does not read a config file: only the ${trainer.kind} command (swift/cli/main.py, parse_yaml_args) turns ${config.text} into flags. Here it is a stray argument and ${what}. Use ${command} ${config.text}${python ? '' : ' (with NPROC_PER_NODE for several GPUs)'}.`,
    { fixes },
  );
  if (ignored) d.severity = DiagnosticSeverity.Warning;
  return d;
}

export async function swiftDiagnostics(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, trainer: TrainerPart): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const editor = new ScriptEditor(ctx);
  const parsed = trainer.parsed;
  const ds = lastOption(parsed, 'deepspeed');
  const sub = trainer.subcommand;
  const takes = (subcommands: readonly string[]) => trainer.kind === 'swift' && (sub === undefined || subcommands.includes(sub));
  const takesDeepSpeed = takes(deepspeedSubcommands);
  const programStart = launch.command.words[0].start;
  const stray = scriptConfigFile(ctx, editor, launch, trainer);
  if (stray) out.push(stray);

  // --deepspeed and --teacher_deepspeed: the same values, read by the same json_parse_to_dict.
  for (const flag of swiftDeepSpeedFlags) {
    const option = lastOption(parsed, flag.name);
    if (!option) continue;
    const ref = launch.facts[flag.fact];
    if (!takes(flag.subcommands)) out.push(unsupportedSubcommand(ctx, editor, trainer, option, flag));
    else if (ref) out.push(...(await checkDeepSpeedReference(ctx, hosts, ref, 'ms-swift')));
  }

  const fsdp = lastOption(parsed, 'fsdp');
  if (ds && fsdp && takesDeepSpeed) {
    const extent = optionExtent(fsdp);
    out.push(
      launchDiagnostic(ctx, 'deepspeed-with-fsdp', fsdp.nameStart, valueRange(fsdp)?.end ?? fsdp.nameEnd, '--fsdp and --deepspeed cannot be used together: ms-swift raises "FSDP2 is not compatible with DeepSpeed."', {
        fixes: [{ id: 'remove-flag', title: 'Remove --fsdp', ops: [editor.removeWords(extent.start, extent.end)] }],
      }),
    );
  }

  // Environment written among the arguments: ms-swift sees a stray positional and stops.
  const movedEnv = new Set<string>();
  for (const word of trainer.envAfter) {
    const name = word.raw.slice(0, word.raw.indexOf('='));
    movedEnv.add(name);
    const ops = [editor.insertBeforeProgram(programStart, word.raw), editor.removeWords(word.start, word.end)];
    out.push(
      launchDiagnostic(ctx, 'env-after-command', word.start, word.end, `${name} is written after the command, so it is passed as an argument instead of setting the environment. Environment variables go before the command.`, {
        name,
        fixes: [{ id: 'move-env-before-command', title: `Move ${name} before the command`, ops, preferred: true }],
      }),
    );
  }

  if (takesDeepSpeed) {
    const config = await configFileFacts(launch.facts, factsOfFileIn(hosts.fs, hosts.workspace.folders())).catch(() => undefined);
    out.push(...swiftDeviceDiagnostics(ctx, launch, { deepspeedFlag: ds !== undefined, config, movedEnv }));
    const teacher = lastOption(parsed, 'teacher_deepspeed');
    if (teacher && sub === 'rlhf' && launch.facts.teacherDeepspeed) {
      const valueOf = (name: string) => {
        const option = lastOption(parsed, name);
        return option && optionValueText(launch, option);
      };
      const inputs = { option: teacher, ref: launch.facts.teacherDeepspeed, valueOf, deepspeed: ds !== undefined || !!config?.deepspeed, config: launch.facts.configFile !== undefined };
      out.push(...(await teacherDeepSpeedDiagnostics(ctx, hosts, editor, launch, inputs)));
    }
  }

  for (const option of parsed.options) {
    if (option.name === 'train_type' || option.name === 'sft_type') {
      const replacement = option.written.replace(/(train|sft)([-_])type$/, 'tuner$2type');
      out.push(
        launchDiagnostic(ctx, 'train-type-renamed', option.nameStart, option.nameEnd, `${option.written} was renamed to ${replacement} in ms-swift 4.0; 4.1 and later reject ${option.written}.`, {
          fixes: [{ id: 'rename-flag', title: `Rename to ${replacement}`, ops: [editor.replace(option.nameStart, option.nameEnd, replacement)], preferred: true }],
        }),
      );
    }
  }

  const dtype = lastOption(parsed, 'torch_dtype');
  const dtypeText = dtype && optionValueText(launch, dtype);
  const dtypeRange = dtype && valueRange(dtype);
  if (dtype && dtypeText && dtypeRange && !validTorchDtypes.has(dtypeText) && !/\$/.test(dtypeText)) {
    const replacement = torchDtypes[dtypeText.toLowerCase()];
    out.push(
      launchDiagnostic(ctx, 'invalid-torch-dtype', dtypeRange.start, dtypeRange.end, `--torch_dtype takes bfloat16, float16 or float32, not '${dtypeText}'.${replacement ? ` Use ${replacement}.` : ''}`, {
        fixes: replacement ? [{ id: 'change-value', title: `Change to ${replacement}`, ops: [editor.replace(dtypeRange.start, dtypeRange.end, replacement)], preferred: true }] : [],
      }),
    );
  }

  const bits = lastOption(parsed, 'quant_bits');
  if (bits && !lastOption(parsed, 'quant_method') && trainer.kind === 'swift') {
    const range = valueRange(bits) ?? { start: bits.nameStart, end: bits.nameEnd };
    const bitsText = optionValueText(launch, bits);
    const method = bitsText === '4' || bitsText === '8' ? 'bnb' : 'hqq';
    out.push(
      launchDiagnostic(ctx, 'quant-bits-without-method', bits.nameStart, range.end, `--quant_bits does nothing without --quant_method: the model loads unquantised. For QLoRA add --quant_method ${method}.`, {
        fixes: [{ id: 'add-flag', title: `Add --quant_method ${method}`, ops: [editor.insert(range.end, ` --quant_method ${method}`)], preferred: true }],
      }),
    );
  }
  return out;
}
