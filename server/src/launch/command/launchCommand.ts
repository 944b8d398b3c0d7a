import type { Command, Word } from '../shell/types';
import type { CommandEnvironment } from '../shell/variables';
import type { LaunchFacts } from '../facts';
import type { ParsedOptions } from './options';

/** An outer launcher (`deepspeed`, `torchrun`, `accelerate launch`) with its own options. */
export interface LauncherPart {
  kind: 'deepspeed' | 'torchrun' | 'accelerate';
  /** The word naming the launcher (`deepspeed`, `torchrun`, `launch`, `torch.distributed.run`). */
  word: Word;
  parsed: ParsedOptions;
  /** The training script or module it starts. */
  script?: Word;
  /** `trl <command>`: TRL's CLI runs accelerate launch itself (launchers/trlCli.ts). */
  trl?: true;
}

/** The program that reads training arguments (`swift sft`, `python train.py`, `llamafactory-cli train`). */
export interface TrainerPart {
  kind: 'swift' | 'megatron' | 'python' | 'llamafactory';
  /** `sft`, `pt`, `rlhf`, … (swift/megatron, or from `swift/cli/sft.py`); `train` for llamafactory-cli. */
  subcommand?: string;
  subcommandWord?: Word;
  /** Argument words after the program/subcommand. */
  args: Word[];
  parsed: ParsedOptions;
  /** `NAME=value` words written among the arguments (meant as environment, do nothing there). */
  envAfter: Word[];
  /**
   * Python starts the trainer itself, with no launcher: `python train.py`, `python -m pkg.train`, ms-swift's
   * sub-command script (`python swift/cli/sft.py`, `python -m swift.cli.sft`; it reads neither NPROC_PER_NODE
   * nor a config file's ENV:). One process. `word` is `python`, `runs` the script or module. Not
   * swift/cli/main.py, which starts torchrun as the swift command does.
   */
  python?: { word: Word; runs: Word };
  /**
   * A sub-command's own script (`swift/cli/sft.py`, `-m swift.cli.sft`), run by python or a launcher: it
   * parses argv as it is, so a config file argument is a stray positional (only swift/cli/main.py reads one).
   */
  subcommandScript?: boolean;
}

/** One shell command understood as a training launch. */
export interface LaunchCommand {
  command: Command;
  env: CommandEnvironment;
  launcher?: LauncherPart;
  trainer?: TrainerPart;
  facts: LaunchFacts;
}
