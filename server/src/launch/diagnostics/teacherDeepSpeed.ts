import type { Diagnostic } from 'vscode-languageserver-types';
import { textOf, type Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import type { LaunchCommand } from '../command/launchCommand';
import { optionExtent, valueRange, type Option } from '../command/options';
import type { ScriptEditor } from '../edits/textEdits';
import type { DeepSpeedReference } from '../facts';
import { readReferencedConfig } from '../referencedConfig';
import { lacksZeroSection, pluginRaises } from '../deepspeedPlugin';
import { launchDiagnostic } from './launchDiagnostic';
import { ACCELERATE } from '../../diagnostics/upstream';
import type { FixSpec } from '../../diagnostics/fixData';
import type { Translate } from '../../l10n';

/** What `swift rlhf … --teacher_deepspeed X` needs to know about the rest of its command. */
export interface TeacherInputs {
  option: Option;
  ref: DeepSpeedReference;
  /** A flag's value as the command sees it (undefined when absent). */
  valueOf: (name: string) => string | undefined;
  /** --deepspeed on the command line or `deepspeed:` in its config file. */
  deepspeed: boolean;
  /** The command names a config file, which may set what the command line leaves out. */
  config: boolean;
}

/** rlhf types that load a teacher (swift/pipelines/train/rlhf.py:127-128). */
const teacherTypes = ['gkd', 'grpo'];

/** Why ms-swift parses --teacher_deepspeed but never uses it; undefined when it does (or we cannot tell). */
function unusedBecause(launch: LaunchCommand, inputs: TeacherInputs, t: Translate): string | undefined {
  const known = (name: string): string | null | undefined => {
    const v = inputs.valueOf(name);
    if (v !== undefined) return v.includes('$') ? null : v;
    return inputs.config ? null : undefined;
  };
  const type = known('rlhf_type');
  if (type === null) return undefined;
  if (!teacherTypes.includes(type ?? 'dpo')) {
    const which = type === undefined ? t('{0} is dpo by default (rlhf_args.py:232)', 'rlhf_type') : t('{0} is {1}', 'rlhf_type', type);
    return t('ms-swift loads a teacher model only for {0} gkd and grpo (swift/pipelines/train/rlhf.py:127-128); here {1}, so {2} is read at startup (rlhf_args.py:281, 726-746) but never used.', 'rlhf_type', which, '--teacher_deepspeed');
  }
  const teacher = known('teacher_model');
  const server = known('teacher_model_server');
  if (teacher === null || server === null) return undefined;
  if (server !== undefined && teacher === undefined) {
    return t('The teacher answers from {0}, so ms-swift loads no teacher model and never uses {1} (swift/rlhf_trainers/rollout_mixin.py:231).', '--teacher_model_server', '--teacher_deepspeed');
  }
  if (teacher === undefined) {
    return t('Without {0}, {1} distils from the student itself (rlhf_args.py:402-411): ms-swift loads no teacher model and never uses {2} (swift/rlhf_trainers/rollout_mixin.py:231).', '--teacher_model', String(type), '--teacher_deepspeed');
  }
  const tuner = launch.facts.tuner?.value;
  if (teacher === launch.facts.model?.value && tuner === 'lora' && !(inputs.config && launch.facts.tuner?.isDefault)) {
    return t('With LoRA and {0} equal to {1}, ms-swift takes the teacher from the base model through disable_adapter() and loads none (rlhf_args.py:425-430), so {2} is never used.', '--teacher_model', '--model', '--teacher_deepspeed');
  }
  // accelerate may hold a DeepSpeed plugin of its own; then the Trainer runs DeepSpeed without --deepspeed.
  if (!inputs.deepspeed && !launch.facts.chain.includes('accelerate')) {
    return t('ms-swift applies {0} only when the trained model runs under DeepSpeed; without {1} it prepares the teacher with accelerate (or FSDP) and this config is ignored (swift/rlhf_trainers/rollout_mixin.py:233-248).', '--teacher_deepspeed', '--deepspeed');
  }
  return undefined;
}

/** `zero_optimization.stage` of the teacher config, or which of the two is missing; undefined when it cannot be read. */
async function teacherStage(hosts: Hosts, ref: DeepSpeedReference): Promise<{ stage: unknown } | 'no-section' | 'no-stage' | undefined> {
  const config = await readReferencedConfig(async (p) => textOf(await hosts.fs.readFile(p, 'config')), ref).catch(() => undefined);
  const value = config?.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  if (lacksZeroSection(value)) return 'no-section';
  const zero = (value as Record<string, unknown>).zero_optimization;
  if (!zero || typeof zero !== 'object' || Array.isArray(zero)) return undefined;
  const stage = (zero as Record<string, unknown>).stage;
  return stage === undefined ? 'no-stage' : { stage };
}

/**
 * ms-swift's rules for --teacher_deepspeed beyond its value (which is checked like --deepspeed): when the
 * teacher is never loaded, and how a teacher config runs (stage 3 sharded, anything else whole on every GPU).
 */
export async function teacherDeepSpeedDiagnostics(ctx: SourceContext, hosts: Hosts, editor: ScriptEditor, launch: LaunchCommand, inputs: TeacherInputs, t: Translate): Promise<Diagnostic[]> {
  const { option, ref } = inputs;
  const end = valueRange(option)?.end ?? option.nameEnd;
  const unused = unusedBecause(launch, inputs, t);
  if (unused) {
    const extent = optionExtent(option, 1);
    return [
      launchDiagnostic(ctx, 'teacher-deepspeed-unused', option.nameStart, end, unused, {
        fixes: [{ id: 'remove-flag', title: t('Remove {0}', option.written), ops: [editor.removeWords(extent.start, extent.end)] }],
      }),
    ];
  }
  const { start: vs, end: ve } = ref.span;
  if (vs === ve) return [];
  const found = await teacherStage(hosts, ref);
  if (found === 'no-section' || found === 'no-stage') {
    const what =
      found === 'no-section'
        ? t("The teacher's DeepSpeed config has no zero_optimization section: {0} when ms-swift prepares the teacher model.", pluginRaises(t))
        : t("The teacher's DeepSpeed config has no zero_optimization.stage: prepare_deepspeed reads it and raises KeyError (swift/rlhf_trainers/utils.py:341) when ms-swift prepares the teacher model.");
    // The registry cites prepare_deepspeed's read of the stage; without the section accelerate's plugin raises first.
    const raises = found === 'no-section' ? `${ACCELERATE}:src/accelerate/utils/dataclasses.py#L1276-1277` : undefined;
    return [launchDiagnostic(ctx, 'teacher-deepspeed-without-stage', vs, ve, what, {}, { raises })];
  }
  if (!found || found.stage === 3) return [];
  const fixes: FixSpec[] =
    ref.kind === 'preset'
      ? ['zero3', 'zero3_offload'].map((name, i) => ({ id: 'change-value', title: t("Change to '{0}'", name), ops: [editor.replace(vs, ve, name)], preferred: i === 0 }))
      : [];
  return [
    launchDiagnostic(
      ctx,
      'teacher-deepspeed-not-zero3',
      vs,
      ve,
      t("The teacher's config has ZeRO stage {0}, not 3: ms-swift loads the teacher outside ZeRO-3 init (swift/pipelines/train/rlhf.py:89-90) and prepare_deepspeed runs any stage but 3 as stage 0 (swift/rlhf_trainers/utils.py:360-361), so every GPU holds the whole teacher and offload settings do not apply. zero3 or zero3_offload shard it.", JSON.stringify(found.stage)),
      { stage: found.stage, fixes },
    ),
  ];
}
