import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import type { LaunchCommand, TrainerPart } from '../command/launchCommand';
import { lastOption, optionExtent, valueRange, type Option } from '../command/options';
import { deepspeedSubcommands, swiftConfigArgument, swiftDeepSpeedFlags, type SwiftDeepSpeedFlag } from '../launchers/swift';
import { ScriptEditor } from '../edits/textEdits';
import { changeValueFix } from '../edits/valueEdit';
import type { FixSpec } from '../../diagnostics/fixData';
import { launchDiagnostic } from './launchDiagnostic';
import { checkDeepSpeedReference } from './deepspeedReference';
import { swiftDeviceDiagnostics } from './swiftDevices';
import { configFileFacts, factsOfFileIn } from '../references';
import { teacherDeepSpeedDiagnostics } from './teacherDeepSpeed';
import { andList, type Translate } from '../../l10n';

const torchDtypes: Record<string, string> = { bf16: 'bfloat16', fp16: 'float16', fp32: 'float32', half: 'float16', float: 'float32', bfloat: 'bfloat16' };
const validTorchDtypes = new Set(['bfloat16', 'float16', 'float32']);

/** The option's value as the command sees it (variables resolved when possible). */
function optionValueText(launch: LaunchCommand, option: Option): string | undefined {
  if (option.inline) return option.inline.text;
  const v = option.values[0];
  return v ? (launch.env.resolve(v) ?? v.value) : undefined;
}

/** A DeepSpeed flag on a subcommand whose arguments class has no such field: parse_args leaves it over. */
function unsupportedSubcommand(ctx: SourceContext, editor: ScriptEditor, trainer: TrainerPart, option: Option, flag: SwiftDeepSpeedFlag, t: Translate): Diagnostic {
  const sub = trainer.subcommand;
  // --deepspeed and --teacher_deepspeed take one value.
  const extent = optionExtent(option, 1);
  const who = trainer.kind === 'megatron' ? `megatron ${sub ?? ''}`.trim() : `swift ${sub}`;
  const why =
    trainer.kind === 'megatron'
      ? flag.name === 'deepspeed'
        ? t('Megatron-SWIFT has no {0} (it uses tensor/pipeline parallel flags)', '--deepspeed')
        : t('Megatron-SWIFT has no {0}', `--${flag.name}`)
      : flag.subcommands.length > 1
        ? t('only {0} accept it', andList(t, flag.subcommands))
        : t('only {0} accepts it', andList(t, flag.subcommands));
  return launchDiagnostic(ctx, 'deepspeed-unsupported-subcommand', option.nameStart, valueRange(option)?.end ?? option.nameEnd, t("'{0}' does not take {1}: {2}. ms-swift stops with a remaining_argv error.", who, `--${flag.name}`, why), {
    subcommand: sub,
    flag: flag.name,
    fixes: [{ id: 'remove-flag', title: t('Remove {0}', `--${flag.name}`), ops: [editor.removeWords(extent.start, extent.end)], preferred: true }],
  });
}

/**
 * `python swift/cli/sft.py sft.yaml` (or a launcher on that script): only swift/cli/main.py turns a config
 * file into flags (parse_yaml_args, main.py:38-71). The script's HfArgumentParser leaves the file name over,
 * and the pipeline raises ValueError("remaining_argv: [...]"), or with --ignore_args_error true only warns and
 * trains without the file (swift/pipelines/base.py:35-40).
 */
function scriptConfigFile(ctx: SourceContext, editor: ScriptEditor, launch: LaunchCommand, trainer: TrainerPart, t: Translate): Diagnostic | undefined {
  const config = swiftConfigArgument(launch.env, trainer);
  const script = trainer.subcommandWord;
  if (!trainer.subcommandScript || !config || !script) return undefined;
  const ignore = lastOption(trainer.parsed, 'ignore_args_error');
  const ignoreText = ignore && (optionValueText(launch, ignore) ?? 'true');
  const ignored = ignoreText !== undefined && ['true', 'yes', 't', 'y', '1'].includes(ignoreText.toLowerCase());
  const command = `${trainer.kind} ${trainer.subcommand ?? 'sft'}`;
  const what = ignored
    ? t('with {0} it only logs "{1}" and trains without the file\'s settings (swift/pipelines/base.py:35-38)', '--ignore_args_error', `remaining_argv: ['${config.text}']`)
    : t('ms-swift stops with ValueError: {0} (swift/pipelines/base.py:35-40)', `remaining_argv: ['${config.text}']`);
  const python = launch.launcher ? undefined : trainer.python;
  const fixes: FixSpec[] = python ? [{ id: 'run-with-swift', title: t('Run with {0}', command), ops: [editor.replace(python.word.start, script.end, command)], preferred: true }] : [];
  // With --ignore_args_error nothing raises: a warning, linked to the docs rather than to the raise.
  return launchDiagnostic(
    ctx,
    'swift-script-config-file',
    config.word.start,
    config.word.end,
    python
      ? t('{0} does not read a config file: only the {1} command (swift/cli/main.py, parse_yaml_args) turns {2} into flags. Here it is a stray argument and {3}. Use {4}.', script.value, trainer.kind, config.text, what, `${command} ${config.text}`)
      : t('{0} does not read a config file: only the {1} command (swift/cli/main.py, parse_yaml_args) turns {2} into flags. Here it is a stray argument and {3}. Use {4} (with {5} for several GPUs).', script.value, trainer.kind, config.text, what, `${command} ${config.text}`, 'NPROC_PER_NODE'),
    { fixes },
    ignored ? { severity: DiagnosticSeverity.Warning } : {},
  );
}

export async function swiftDiagnostics(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, trainer: TrainerPart, t: Translate): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const editor = new ScriptEditor(ctx);
  const parsed = trainer.parsed;
  const ds = lastOption(parsed, 'deepspeed');
  const sub = trainer.subcommand;
  const takes = (subcommands: readonly string[]) => trainer.kind === 'swift' && (sub === undefined || subcommands.includes(sub));
  const takesDeepSpeed = takes(deepspeedSubcommands);
  const programStart = launch.command.words[0].start;
  const stray = scriptConfigFile(ctx, editor, launch, trainer, t);
  if (stray) out.push(stray);

  // --deepspeed and --teacher_deepspeed: the same values, read by the same json_parse_to_dict.
  for (const flag of swiftDeepSpeedFlags) {
    const option = lastOption(parsed, flag.name);
    if (!option) continue;
    const ref = launch.facts[flag.fact];
    if (!takes(flag.subcommands)) out.push(unsupportedSubcommand(ctx, editor, trainer, option, flag, t));
    else if (ref) out.push(...(await checkDeepSpeedReference(ctx, hosts, ref, 'ms-swift', t, launch.env)));
  }

  const fsdp = lastOption(parsed, 'fsdp');
  if (ds && fsdp && takesDeepSpeed) {
    const extent = optionExtent(fsdp);
    out.push(
      launchDiagnostic(ctx, 'deepspeed-with-fsdp', fsdp.nameStart, valueRange(fsdp)?.end ?? fsdp.nameEnd, t('{0} and {1} cannot be used together: ms-swift raises "FSDP2 is not compatible with DeepSpeed."', '--fsdp', '--deepspeed'), {
        fixes: [{ id: 'remove-flag', title: t('Remove {0}', '--fsdp'), ops: [editor.removeWords(extent.start, extent.end)] }],
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
      launchDiagnostic(ctx, 'env-after-command', word.start, word.end, t('{0} is written after the command, so it is passed as an argument instead of setting the environment. Environment variables go before the command.', name), {
        name,
        fixes: [{ id: 'move-env-before-command', title: t('Move {0} before the command', name), ops, preferred: true }],
      }),
    );
  }

  if (takesDeepSpeed) {
    const config = await configFileFacts(launch.facts, factsOfFileIn(hosts.fs, hosts.workspace.folders())).catch(() => undefined);
    out.push(...swiftDeviceDiagnostics(ctx, launch, { deepspeedFlag: ds !== undefined, config, movedEnv }, t));
    const teacher = lastOption(parsed, 'teacher_deepspeed');
    if (teacher && sub === 'rlhf' && launch.facts.teacherDeepspeed) {
      const valueOf = (name: string) => {
        const option = lastOption(parsed, name);
        return option && optionValueText(launch, option);
      };
      const inputs = { option: teacher, ref: launch.facts.teacherDeepspeed, valueOf, deepspeed: ds !== undefined || !!config?.deepspeed, config: launch.facts.configFile !== undefined };
      out.push(...(await teacherDeepSpeedDiagnostics(ctx, hosts, editor, launch, inputs, t)));
    }
  }

  for (const option of parsed.options) {
    if (option.name === 'train_type' || option.name === 'sft_type') {
      const replacement = option.written.replace(/(train|sft)([-_])type$/, 'tuner$2type');
      out.push(
        launchDiagnostic(ctx, 'train-type-renamed', option.nameStart, option.nameEnd, t('{0} was renamed to {1} in ms-swift 4.0; 4.1 and later reject {0}.', option.written, replacement), {
          fixes: [{ id: 'rename-flag', title: t('Rename to {0}', replacement), ops: [editor.replace(option.nameStart, option.nameEnd, replacement)], preferred: true }],
        }),
      );
    }
  }

  const dtype = lastOption(parsed, 'torch_dtype');
  const dtypeText = dtype && optionValueText(launch, dtype);
  const dtypeRange = dtype && valueRange(dtype);
  if (dtype && dtypeText && dtypeRange && !validTorchDtypes.has(dtypeText) && !/\$/.test(dtypeText)) {
    const replacement = torchDtypes[dtypeText.toLowerCase()];
    // A value written as a variable is changed where the script sets it, or not at all (launch/edits/valueEdit.ts).
    const change = replacement ? changeValueFix(ctx.document.getText(), dtypeRange.start, dtypeRange.end, replacement, launch.env, t('Change to {0}', replacement), t) : { fixes: [], note: '' };
    out.push(
      launchDiagnostic(ctx, 'invalid-torch-dtype', dtypeRange.start, dtypeRange.end, t("{0} takes bfloat16, float16 or float32, not '{1}'.", '--torch_dtype', dtypeText) + (replacement ? t(' Use {0}.', replacement) : '') + change.note, {
        fixes: change.fixes,
      }),
    );
  }

  const bits = lastOption(parsed, 'quant_bits');
  if (bits && !lastOption(parsed, 'quant_method') && trainer.kind === 'swift') {
    const range = valueRange(bits) ?? { start: bits.nameStart, end: bits.nameEnd };
    const bitsText = optionValueText(launch, bits);
    const method = bitsText === '4' || bitsText === '8' ? 'bnb' : 'hqq';
    out.push(
      launchDiagnostic(ctx, 'quant-bits-without-method', bits.nameStart, range.end, t('{0} does nothing without {1}: the model loads unquantised. For QLoRA add {2}.', '--quant_bits', '--quant_method', `--quant_method ${method}`), {
        fixes: [{ id: 'add-flag', title: t('Add {0}', `--quant_method ${method}`), ops: [editor.insert(range.end, ` --quant_method ${method}`)], preferred: true }],
      }),
    );
  }
  return out;
}
