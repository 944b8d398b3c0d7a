import type { Command, ShellScript, Word } from './shell/types';
import { environmentFor, type CommandEnvironment } from './shell/variables';
import { programIndex, ScriptExpansions } from './shell/expand';
import type { LaunchFacts, LauncherKind } from './facts';
import type { LaunchCommand, LauncherPart, TrainerPart } from './command/launchCommand';
import type { SourceContext } from './command/context';
import { readSwiftFacts, swiftTrainer } from './launchers/swift';
import { hfDeepSpeedOption, pythonTrainer, readPythonFacts } from './launchers/hf';
import { deepspeedLauncher, readDeepSpeedLauncherFacts } from './launchers/deepspeedLauncher';
import { readTorchrunFacts, torchrunLauncher } from './launchers/torchrun';
import { accelerateLauncher, readAccelerateFacts } from './launchers/accelerate';
import { llamaFactoryTrainer, readLlamaFactoryFacts } from './launchers/llamafactory';
import { readTrlAccelerateConfig, trlCommand, trlTrainingCommands } from './launchers/trlCli';
import { msg } from '../l10n';
import { branchDependentWords } from './branchValues';
import { readCostliestRuns } from './costliestRun';

/** Words that only wrap the real command. */
const wrappers = new Set(['nohup', 'exec', 'time', 'command', 'builtin', 'stdbuf', 'nice']);

function baseName(value: string): string {
  const parts = value.split(/[\\/]/);
  return parts[parts.length - 1] ?? value;
}

function isPython(value: string): boolean {
  return /^python(\d+(\.\d+)?)?$/.test(baseName(value));
}

/** Drops `srun …`/`mpirun …`, `nohup`, `env A=1`, `time` and similar wrappers in front of the program. */
function stripWrappers(words: Word[]): Word[] {
  let i = programIndex(words);
  while (i < words.length) {
    const v = words[i].value;
    if (wrappers.has(v)) {
      i++;
      while (i < words.length && words[i].value.startsWith('-')) i++;
      continue;
    }
    if (v === 'env') {
      i++;
      while (i < words.length && (words[i].value.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i].value))) i++;
      continue;
    }
    break;
  }
  return words.slice(i);
}

/** `python [-u …] -m module args` or `python script.py args` → what it runs. */
function pythonTarget(words: Word[]): { module?: Word; script?: Word; args: Word[] } {
  let i = 1;
  while (i < words.length) {
    const v = words[i].value;
    if (v === '-m') return { module: words[i + 1], args: words.slice(i + 2) };
    if (v.startsWith('-m') && v.length > 2) return { module: { ...words[i], value: v.slice(2) }, args: words.slice(i + 1) };
    if (v === '-c') return { args: [] };
    if (v.startsWith('-')) {
      i += v === '-W' || v === '-X' ? 2 : 1;
      continue;
    }
    return { script: words[i], args: words.slice(i + 1) };
  }
  return { args: [] };
}

/**
 * Modules that start processes or are CLIs, not a training script: torch.distributed.*, deepspeed.*
 * (`deepspeed.launcher.launch`, the per-node launcher the runner starts with --world_info, launch.py:157-158),
 * accelerate.*, llamafactory.* (`llamafactory.cli`). The launchers among them that we read are matched before this.
 */
const launcherModule = /^(torch\.distributed|deepspeed|accelerate|llamafactory)(\.|$)/;

/** `swift/cli/sft.py` or module `swift.cli.sft` → the swift subcommand it runs. */
function swiftScriptSubcommand(target: string): string | undefined {
  const m = /(?:^|[\\/.])swift[\\/.]cli[\\/.](?:_megatron[\\/.])?(\w+?)(?:\.py)?$/.exec(target);
  return m ? m[1].replace(/_/g, '-') : undefined;
}

/** `swift sft …` (or `megatron …`): the first argument names the subcommand. */
function swiftCommand(program: 'swift' | 'megatron', args: Word[]): TrainerPart {
  const sub = args[0];
  const name = sub && !sub.value.startsWith('-') ? sub.value.replace(/_/g, '-') : undefined;
  return swiftTrainer(program, name, name ? sub : undefined, args.slice(name ? 1 : 0));
}

/** swift/cli/main.py is the `swift` command itself (setup.py console_scripts: swift=swift.cli.main:cli_main). */
const isSwiftMain = (target: Word): boolean => swiftScriptSubcommand(target.value) === 'main';

/** The trainer a launcher starts: swift's CLI script or an HF-style script. */
function trainerFor(target: Word | undefined, args: Word[]): TrainerPart {
  const sub = target ? swiftScriptSubcommand(target.value) : undefined;
  if (!sub) return pythonTrainer(args);
  const program = /_megatron/.test(target!.value) ? 'megatron' : 'swift';
  return isSwiftMain(target!) ? swiftCommand(program, args) : { ...swiftTrainer(program, sub, target, args), subcommandScript: true };
}

interface Recognised {
  launcher?: LauncherPart;
  trainer?: TrainerPart;
}

/** A launcher and the trainer it starts (the script after its options, and that script's arguments). */
function launched({ part, rest }: { part: LauncherPart; rest: Word[] }): Recognised {
  return { launcher: part, trainer: part.script ? trainerFor(part.script, rest) : undefined };
}

function recognise(words: Word[]): Recognised | undefined {
  if (words.length === 0) return undefined;
  const program = baseName(words[0].value);
  if (program === 'swift' || program === 'megatron') return { trainer: swiftCommand(program, words.slice(1)) };
  // deepspeed.pt is the runner's old name, still installed beside deepspeed and ds (setup.py scripts).
  if (program === 'deepspeed' || program === 'deepspeed.pt') return launched(deepspeedLauncher(words[0], words.slice(1)));
  if (program === 'torchrun') return launched(torchrunLauncher(words[0], words.slice(1)));
  if (program === 'accelerate' && words[1]?.value === 'launch') return launched(accelerateLauncher(words[1], words.slice(2)));
  // accelerate's own console script for the same main() (setup.py:74, accelerate-launch=accelerate.commands.launch:main).
  if (program === 'accelerate-launch') return launched(accelerateLauncher(words[0], words.slice(1)));
  if (program === 'trl' && trlTrainingCommands.has(words[1]?.value ?? '')) return trlCommand(words[1], words.slice(2));
  if (program === 'llamafactory-cli' || program === 'lmf') {
    return { trainer: llamaFactoryTrainer(words[1], words.slice(2)) };
  }
  if (isPython(program)) {
    const target = pythonTarget(words);
    const module = target.module?.value;
    if (module === 'torch.distributed.run' || module === 'torch.distributed.launch') return launched(torchrunLauncher(target.module!, target.args));
    if (module === 'deepspeed' || module === 'deepspeed.launcher.runner') return launched(deepspeedLauncher(target.module!, target.args));
    // `accelerate launch` is launch_command_parser + launch_command (commands/accelerate_cli.py:20,36); the
    // module runs the same parser and command from its __main__ (commands/launch.py:1410-1417).
    if (module === 'accelerate.commands.launch') return launched(accelerateLauncher(target.module!, target.args));
    const run = target.module ?? (target.script && /\.py$/i.test(target.script.value) ? target.script : undefined);
    if (run) {
      const trainer = trainerFor(run, target.args);
      // Another module than ms-swift's counts when given a DeepSpeed config (`python -m pkg.train --deepspeed
      // ds.json`): not `python -m pip …`, nor a launcher we do not read.
      const otherModule = target.module !== undefined && trainer.kind === 'python';
      // TRL's scripts as modules (`python -m trl.scripts.rloo`, trl f2cd5771 examples/scripts/rloo.py:35-36) train too.
      if (!otherModule || (!launcherModule.test(run.value) && hfDeepSpeedOption(trainer)) || /^trl\.scripts\.\w+$/.test(run.value)) {
        // main.py reads NPROC_PER_NODE and starts torchrun as `swift` does; anything else python runs is one process.
        if (!isSwiftMain(run)) trainer.python = { word: words[0], runs: run };
        return { trainer };
      }
    }
  }
  return undefined;
}

function launcherKindOf(r: Recognised): LauncherKind[] {
  const chain: LauncherKind[] = [];
  if (r.launcher) chain.push(r.launcher.kind);
  if (r.trainer) chain.push(r.trainer.kind);
  return chain;
}

function analyzeCommand(ctx: SourceContext, script: ShellScript, command: Command): LaunchCommand | undefined {
  const words = stripWrappers(command.words);
  const r = recognise(words);
  if (!r) return undefined;
  const env: CommandEnvironment = environmentFor(script, command);
  const facts = readFacts(ctx, env, r, command);
  const branchDependent = branchDependentWords(ctx, env, command);
  // Every run of a loop happens: facts the estimate sizes by read the costliest one.
  if (branchDependent.length) facts.branchDependent = readCostliestRuns(facts, branchDependent, env, (e) => readFacts(ctx, e, r, command));
  return { command, env, launcher: r.launcher, trainer: r.trainer, facts };
}

/** What the recognised command states, its variables read from `env`. */
function readFacts(ctx: SourceContext, env: CommandEnvironment, r: Recognised, command: Command): LaunchFacts {
  const chain = launcherKindOf(r);
  const facts: LaunchFacts = {
    uri: ctx.uri,
    launcher: chain[chain.length - 1],
    chain,
    span: ctx.span(command.start, command.end),
    commandIndex: command.index,
  };
  if (r.trainer?.subcommand) facts.subcommand = r.trainer.subcommand;
  const wordsFrom = outsideRanges(command);
  if (wordsFrom.length) facts.wordsFrom = wordsFrom;
  if (r.launcher?.script) {
    const s = r.launcher.script;
    facts.script = ctx.fact(env.resolve(s) ?? s.value, s.start, s.end, r.launcher.kind);
  }
  if (r.launcher?.kind === 'deepspeed') readDeepSpeedLauncherFacts(ctx, env, r.launcher, facts);
  if (r.launcher?.kind === 'torchrun') readTorchrunFacts(ctx, env, r.launcher, facts);
  if (r.launcher?.kind === 'accelerate') readAccelerateFacts(ctx, env, r.launcher, facts);
  if (r.launcher?.trl) readTrlAccelerateConfig(ctx, env, r.launcher, facts);
  const fromLauncher = { gpus: facts.gpusPerNode, nodes: facts.nodes, dtype: facts.dtype, deepspeed: facts.deepspeed };
  if (r.trainer) {
    // Only the swift CLI reads NPROC_PER_NODE and starts torchrun; `python swift/cli/sft.py` runs one process.
    if (r.trainer.kind === 'swift' || r.trainer.kind === 'megatron') readSwiftFacts(ctx, env, r.trainer, facts, !!r.launcher || !!r.trainer.python);
    else if (r.trainer.kind === 'python') readPythonFacts(ctx, env, r.trainer, facts);
    else readLlamaFactoryFacts(ctx, env, r.trainer, facts);
  }
  // Python on its own is one process: `python train.py` (the HF Trainer's world size is 1), and
  // `python swift/cli/sft.py` whatever NPROC_PER_NODE says (sft.py:13-20 calls sft_main()).
  const python = r.launcher ? undefined : r.trainer?.python;
  if (python) {
    const runs = `${baseName(python.word.value)} ${/\.py$/i.test(python.runs.value) ? '' : '-m '}${python.runs.value}`;
    facts.gpusPerNode = ctx.fact(1, python.word.start, python.runs.end, msg('{0} runs one process', runs), true);
  }
  // The launcher decides processes; the trainer's --deepspeed wins over accelerate's flags.
  facts.gpusPerNode = fromLauncher.gpus ?? facts.gpusPerNode;
  facts.nodes = fromLauncher.nodes ?? facts.nodes;
  facts.deepspeed ??= fromLauncher.deepspeed;
  if (r.launcher?.kind === 'accelerate') facts.dtype ??= fromLauncher.dtype;
  return facts;
}

/** The stretches of text, outside the command's own span, that its words came from (merged when close). */
function outsideRanges(command: Command): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  const outside = command.words.filter((w) => w.start < command.start || w.end > command.end).sort((a, b) => a.start - b.start);
  for (const w of outside) {
    const last = ranges[ranges.length - 1];
    if (last && w.start - last.end <= 64) last.end = Math.max(last.end, w.end);
    else ranges.push({ start: w.start, end: w.end });
  }
  return ranges;
}

/**
 * Every command of a script that launches training (or swift/megatron in general), analysed in steps that stop
 * at a deadline and resume, so a huge script's validation can yield.
 */
export class ShellCommandsAnalysis {
  readonly launches: LaunchCommand[] = [];
  private next = 0;
  private readonly expansions: ScriptExpansions;

  constructor(
    private readonly ctx: SourceContext,
    private readonly script: ShellScript,
  ) {
    this.expansions = new ScriptExpansions(script);
  }

  get done(): boolean {
    return this.next >= this.script.commands.length;
  }

  /** Analyses commands until all are done or `deadline` (performance.now()) has passed. */
  runUntil(deadline: number): void {
    const { commands } = this.script;
    while (this.next < commands.length) {
      const command = commands[this.next++];
      try {
        // What runs: words from variables put in, `eval` and `bash -c` text parsed (shell/expand.ts).
        for (const run of this.expansions.commandsOf(command)) {
          const launch = analyzeCommand(this.ctx, this.script, run);
          if (launch) this.launches.push(launch);
        }
      } catch {
        // One odd command must not hide the others.
      }
      if ((this.next & 15) === 0 && performance.now() > deadline) return;
    }
  }
}
