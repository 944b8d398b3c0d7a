import type { LaunchCommand } from '../command/launchCommand';
import { accelerateFlags, deepspeedLauncherFlags, hfFlags, swiftFlags, torchrunFlags, type FlagDoc } from '../flagDocs';

/** The flag table for one side of a launch: the launcher's options or the trainer's arguments. */
export function flagTable(launch: LaunchCommand, owner: 'launcher' | 'trainer'): { program: string; flags: Record<string, FlagDoc> } | undefined {
  if (owner === 'launcher') {
    switch (launch.launcher?.kind) {
      case 'deepspeed':
        // l10n-ignore: the program's name
        return { program: 'deepspeed launcher', flags: deepspeedLauncherFlags };
      case 'torchrun':
        return { program: 'torchrun', flags: torchrunFlags };
      case 'accelerate':
        // l10n-ignore: the program's name
        return { program: 'accelerate launch', flags: accelerateFlags };
      default:
        return undefined;
    }
  }
  switch (launch.trainer?.kind) {
    case 'swift':
      return { program: `swift ${launch.trainer.subcommand ?? ''}`.trim(), flags: swiftFlags };
    case 'megatron':
      return undefined;
    case 'python':
      return { program: 'Hugging Face TrainingArguments', flags: hfFlags };
    default:
      return undefined;
  }
}
