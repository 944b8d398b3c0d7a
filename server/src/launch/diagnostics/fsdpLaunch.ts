/**
 * FSDP across the launcher and the trainer: `accelerate launch` with both families' flags, and a script run
 * under an accelerate config with `distributed_type: FSDP` (or `--use_fsdp`) whose own arguments collide with it.
 */
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import type { Hosts } from '../../host';
import type { Translate } from '../../l10n';
import { baseName } from '../../util/paths';
import type { SourceContext } from '../command/context';
import type { LaunchCommand } from '../command/launchCommand';
import { lastOption, valueRange } from '../command/options';
import { ScriptEditor } from '../edits/textEdits';
import { changeValueFix } from '../edits/valueEdit';
import type { FixSpec } from '../../diagnostics/fixData';
import type { FsdpSettings } from '../facts';
import { configFileFacts, factsOfFileIn } from '../references';
import { launchDiagnostic } from './launchDiagnostic';
import { raises } from '../upstream';

/** `--use_deepspeed --use_fsdp`: the launcher takes one distributed type. */
function bothFamilies(ctx: SourceContext, launch: LaunchCommand, t: Translate): Diagnostic[] {
  const parsed = launch.launcher?.kind === 'accelerate' ? launch.launcher.parsed : undefined;
  const fsdp = parsed && lastOption(parsed, 'use_fsdp');
  const ds = parsed && lastOption(parsed, 'use_deepspeed');
  if (!fsdp || !ds) return [];
  const message = t('`accelerate launch` takes one of `--use_deepspeed` and `--use_fsdp`, and raises ValueError for both.');
  return [launchDiagnostic(ctx, 'fsdp-with-deepspeed', fsdp.nameStart, fsdp.nameEnd, message, {}, { raises: raises.launchDeepSpeedAndFsdp })];
}

/**
 * Turning the trainer's gradient checkpointing off: its flag's value (where the script sets it when it is a variable,
 * launch/edits/valueEdit.ts), the bare flag, or ms-swift's default; `note` says where a value no fix can change comes from.
 */
function gradientCheckpointingOff(ctx: SourceContext, launch: LaunchCommand, t: Translate): { fixes: FixSpec[]; note: string } {
  const editor = new ScriptEditor(ctx);
  const trainer = launch.trainer!;
  const option = lastOption(trainer.parsed, 'gradient_checkpointing');
  const title = t('Set `--gradient_checkpointing false`');
  if (option) {
    const r = valueRange(option);
    if (r) return changeValueFix(ctx.document.getText(), r.start, r.end, 'false', launch.env, title, t);
    return { fixes: [{ id: 'remove-flag', title: t('Remove `{0}`', option.written), ops: [editor.removeWords(option.word.start, option.word.end)], preferred: true }], note: '' };
  }
  const after = trainer.subcommandWord ?? launch.launcher?.script;
  return { fixes: after ? [{ id: 'add-flag', title, ops: [editor.insert(after.end, ' --gradient_checkpointing false')], preferred: true }] : [], note: '' };
}

/** FSDP's activation checkpointing and the Trainer's gradient checkpointing: the Trainer refuses the pair. */
export function checkpointingTwice(ctx: SourceContext, launch: LaunchCommand, where: string, t: Translate): Diagnostic | undefined {
  const gc = launch.facts.gradientCheckpointing;
  if (!gc?.value || !launch.trainer || launch.trainer.kind === 'llamafactory') return undefined;
  // The defaults that turn it on: ms-swift's and TRL's (launchers/hf.ts readTrlDefaults).
  const program = launch.facts.trlDefaults ? 'TRL' : 'ms-swift';
  const message = gc.isDefault
    ? t("FSDP's activation checkpointing is on ({0}) and {1} turns `--gradient_checkpointing` on by default: the Hugging Face Trainer refuses both at once (ValueError). Pass `--gradient_checkpointing false` and keep FSDP's.", where, program)
    : t("FSDP's activation checkpointing is on ({0}) and so is `--gradient_checkpointing`: the Hugging Face Trainer refuses both at once (ValueError). Turn `--gradient_checkpointing` off and keep FSDP's.", where);
  const anchor = gc.isDefault ? (launch.trainer.subcommandWord ?? launch.command.words[0]) : gc.span;
  const off = gradientCheckpointingOff(ctx, launch, t);
  return launchDiagnostic(ctx, 'fsdp-activation-and-gradient-checkpointing', anchor.start, anchor.end, message + off.note, { fixes: off.fixes });
}

/**
 * LoRA under FSDP1 with `use_orig_params` false: every FSDP unit must then be all frozen or all trainable
 * (torch's FlatParameter), which a decoder layer with LoRA adapters is not. The Hugging Face Trainer wraps the
 * adapters apart for a PEFT LoRA model (trainer.py `_fsdp_qlora_plugin_updates`, PEFT's `fsdp_auto_wrap_policy`),
 * so only a script of its own is at risk: one that takes no TrainingArguments flag.
 */
function origParamsWithLora(ctx: SourceContext, launch: LaunchCommand, fsdp: FsdpSettings, where: string, t: Translate): Diagnostic | undefined {
  const trainer = launch.trainer;
  const lora = launch.facts.tuner?.value === 'lora' ? launch.facts.tuner : undefined;
  if (!lora || trainer?.kind !== 'python' || fsdp.version !== 1 || fsdp.useOrigParams !== false) return undefined;
  if (lastOption(trainer.parsed, 'per_device_train_batch_size')) return undefined;
  const message = t("LoRA under FSDP1 with `use_orig_params` false ({0}): each FSDP unit must be all trainable or all frozen, and a decoder layer with LoRA adapters is both. The Hugging Face Trainer wraps the adapters apart; a training loop of its own must do the same (PEFT's `fsdp_auto_wrap_policy`), else PyTorch raises ValueError (\"Must flatten tensors with uniform requires_grad\"). Or set `fsdp_use_orig_params: true`.", where);
  return launchDiagnostic(ctx, 'fsdp-orig-params-with-lora', lora.span.start, lora.span.end, message);
}

/** A script under an accelerate FSDP config (or `--use_fsdp`) that starts DeepSpeed or checkpoints twice. */
async function underAccelerateFsdp(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, t: Translate): Promise<Diagnostic[]> {
  if (launch.launcher?.kind !== 'accelerate' || !launch.trainer) return [];
  const config = await configFileFacts(launch.facts, factsOfFileIn(hosts.fs, hosts.workspace.folders())).catch(() => undefined);
  const fromFlags = launch.facts.fsdp?.via === '--use_fsdp' ? launch.facts.fsdp : undefined;
  const fsdp: FsdpSettings | undefined = fromFlags ?? config?.fsdp;
  if (!fsdp) return [];
  const where = fromFlags ? fromFlags.via : baseName(launch.facts.configFile?.value ?? '');
  const out: Diagnostic[] = [];
  const twice = fsdp.activationCheckpointing?.value && checkpointingTwice(ctx, launch, where, t);
  if (twice) out.push(twice);
  const lora = origParamsWithLora(ctx, launch, fsdp, where, t);
  if (lora) out.push(lora);
  const ds = launch.trainer.kind === 'python' ? lastOption(launch.trainer.parsed, 'deepspeed') : undefined;
  const dsRange = ds && valueRange(ds);
  if (ds && dsRange) {
    const message = t('`--deepspeed` makes the Trainer start DeepSpeed, which accelerate prefers to FSDP ({0}): this run trains with the DeepSpeed config and none of the FSDP settings.', where);
    out.push(launchDiagnostic(ctx, 'fsdp-with-deepspeed', ds.nameStart, dsRange.end, message, {}, { severity: DiagnosticSeverity.Warning, raises: raises.stateDeepSpeedFirst }));
  }
  return out;
}

export async function fsdpLaunchDiagnostics(ctx: SourceContext, hosts: Hosts, launch: LaunchCommand, t: Translate): Promise<Diagnostic[]> {
  return [...bothFamilies(ctx, launch, t), ...(await underAccelerateFsdp(ctx, hosts, launch, t))];
}
