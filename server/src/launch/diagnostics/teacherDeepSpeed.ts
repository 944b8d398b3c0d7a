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
import type { FixSpec } from '../../diagnostics/fixData';

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
function unusedBecause(launch: LaunchCommand, inputs: TeacherInputs): string | undefined {
  const known = (name: string): string | null | undefined => {
    const v = inputs.valueOf(name);
    if (v !== undefined) return v.includes('$') ? null : v;
    return inputs.config ? null : undefined;
  };
  const type = known('rlhf_type');
  if (type === null) return undefined;
  if (!teacherTypes.includes(type ?? 'dpo')) {
    const which = type === undefined ? 'rlhf_type is dpo by default (rlhf_args.py:232)' : `rlhf_type is ${type}`;
    return `ms-swift loads a teacher model only for rlhf_type gkd and grpo (swift/pipelines/train/rlhf.py:127-128); here ${which}, so --teacher_deepspeed is read at startup (rlhf_args.py:281, 726-746) but never used.`;
  }
  const teacher = known('teacher_model');
  const server = known('teacher_model_server');
  if (teacher === null || server === null) return undefined;
  if (server !== undefined && teacher === undefined) {
    return 'The teacher answers from --teacher_model_server, so ms-swift loads no teacher model and never uses --teacher_deepspeed (swift/rlhf_trainers/rollout_mixin.py:231).';
  }
  if (teacher === undefined) {
    return `Without --teacher_model, ${type} distils from the student itself (rlhf_args.py:402-411): ms-swift loads no teacher model and never uses --teacher_deepspeed (swift/rlhf_trainers/rollout_mixin.py:231).`;
  }
  const tuner = launch.facts.tuner?.value;
  if (teacher === launch.facts.model?.value && tuner === 'lora' && !(inputs.config && launch.facts.tuner?.isDefault)) {
    return 'With LoRA and --teacher_model equal to --model, ms-swift takes the teacher from the base model through disable_adapter() and loads none (rlhf_args.py:425-430), so --teacher_deepspeed is never used.';
  }
  // accelerate may hold a DeepSpeed plugin of its own; then the Trainer runs DeepSpeed without --deepspeed.
  if (!inputs.deepspeed && !launch.facts.chain.includes('accelerate')) {
    return 'ms-swift applies --teacher_deepspeed only when the trained model runs under DeepSpeed; without --deepspeed it prepares the teacher with accelerate (or FSDP) and this config is ignored (swift/rlhf_trainers/rollout_mixin.py:233-248).';
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
export async function teacherDeepSpeedDiagnostics(ctx: SourceContext, hosts: Hosts, editor: ScriptEditor, launch: LaunchCommand, inputs: TeacherInputs): Promise<Diagnostic[]> {
  const { option, ref } = inputs;
  const end = valueRange(option)?.end ?? option.nameEnd;
  const unused = unusedBecause(launch, inputs);
  if (unused) {
    const extent = optionExtent(option, 1);
    return [
      launchDiagnostic(ctx, 'teacher-deepspeed-unused', option.nameStart, end, unused, {
        fixes: [{ id: 'remove-flag', title: `Remove ${option.written}`, ops: [editor.removeWords(extent.start, extent.end)] }],
      }),
    ];
  }
  const { start: vs, end: ve } = ref.span;
  if (vs === ve) return [];
  const found = await teacherStage(hosts, ref);
  if (found === 'no-section' || found === 'no-stage') {
    const what =
      found === 'no-section'
        ? `has no zero_optimization section: ${pluginRaises}`
        : 'has no zero_optimization.stage: prepare_deepspeed reads it and raises KeyError (swift/rlhf_trainers/utils.py:341)';
    return [launchDiagnostic(ctx, 'teacher-deepspeed-without-stage', vs, ve, `The teacher's DeepSpeed config ${what} when ms-swift prepares the teacher model.`)];
  }
  if (!found || found.stage === 3) return [];
  const fixes: FixSpec[] =
    ref.kind === 'preset'
      ? ['zero3', 'zero3_offload'].map((name, i) => ({ id: 'change-value', title: `Change to '${name}'`, ops: [editor.replace(vs, ve, name)], preferred: i === 0 }))
      : [];
  return [
    launchDiagnostic(
      ctx,
      'teacher-deepspeed-not-zero3',
      vs,
      ve,
      `The teacher's config has ZeRO stage ${JSON.stringify(found.stage)}, not 3: ms-swift loads the teacher outside ZeRO-3 init (swift/pipelines/train/rlhf.py:89-90) and prepare_deepspeed runs any stage but 3 as stage 0 (swift/rlhf_trainers/utils.py:360-361), so every GPU holds the whole teacher and offload settings do not apply. zero3 or zero3_offload shard it.`,
      { stage: found.stage, fixes },
    ),
  ];
}
