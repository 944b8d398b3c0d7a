/**
 * Python with no launcher is one process (TrainerPart.python). What to say when more GPUs are visible than
 * that one process uses, and the fix both ms-swift's sub-command scripts and HF-style scripts share: start
 * the same script or module with torchrun.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import type { LaunchCommand } from '../command/launchCommand';
import type { Word } from '../shell/types';
import { hfDeepSpeedOption } from '../launchers/hf';
import { visibleDevices } from '../launchers/devices';
import { ScriptEditor } from '../edits/textEdits';
import { launchDiagnostic } from './launchDiagnostic';
import type { FixSpec } from '../../diagnostics/fixData';
import type { Translate } from '../../l10n';

/**
 * Replace `python [flags]` in front of `target` (a script, or the module after a separate `-m`) with
 * `torchrun --nproc_per_node n [-m]`: what swift's main.py runs (main.py:95-98), and torchrun's own `-m`
 * (torch/distributed/run.py). `-mpkg.train` in one word leaves no place to cut, so no fix there.
 */
export function torchrunFixes(ctx: SourceContext, python: Word, target: Word, n: number, t: Translate): FixSpec[] {
  const module = !/\.py$/i.test(target.value);
  if (module && target.raw.startsWith('-m')) return [];
  const launcher = `torchrun --nproc_per_node ${n} ${module ? '-m ' : ''}`;
  return [{ id: 'use-torchrun', title: t('Start with {0}', `torchrun --nproc_per_node ${n}`), ops: [new ScriptEditor(ctx).replace(python.start, target.start, launcher)], preferred: true }];
}

/**
 * How many GPUs a one-process run was meant for: the visible-device list's length, else NPROC_PER_NODE when it
 * is a plain number (only launchers read it, but it says what the author expected), else 0 (unknown).
 */
export function gpusMeantFor(visibleCount: number | undefined, nproc: string | undefined): number {
  if (visibleCount !== undefined) return visibleCount;
  return nproc && /^\d+$/.test(nproc) ? Number(nproc) : 0;
}

/**
 * `python train.py --deepspeed ds.json` (an HF-style script, no launcher) with two or more GPUs visible:
 * nothing starts a process per GPU. Without a launcher's RANK/WORLD_SIZE, DeepSpeed's init_distributed turns
 * to MPI discovery (deepspeed/comm/comm.py:837-845), which imports mpi4py: the run stops without it and
 * trains with world size 1 on one GPU with it. Said only when the count is known: from CUDA_VISIBLE_DEVICES
 * (or the Ascend list), or from NPROC_PER_NODE ≥ 2 in the script, which only launchers read (torchrun's own
 * variable is PET_NPROC_PER_NODE). A warning: at best most of the GPUs sit idle.
 */
export function hfSingleProcessDiagnostic(ctx: SourceContext, launch: LaunchCommand, t: Translate): Diagnostic | undefined {
  const trainer = launch.trainer;
  const python = launch.launcher ? undefined : trainer?.python;
  if (!trainer || trainer.kind !== 'python' || !python || !launch.facts.deepspeed) return undefined;
  const ds = hfDeepSpeedOption(trainer);
  if (!ds) return undefined;
  const devices = visibleDevices(launch.env);
  const n = gpusMeantFor(devices?.ids.length, launch.env.envBinding('NPROC_PER_NODE')?.value);
  if (n < 2) return undefined;
  const runner = ctx.document.getText().slice(python.word.start, python.runs.end);
  const sees = devices
    ? t('{0} lists {1} GPUs, but {2} runs one process', devices.name, n, runner)
    : t('{0} asks for {1} processes, but {2} runs one process (only a launcher reads {3})', `NPROC_PER_NODE=${n}`, n, runner, 'NPROC_PER_NODE');
  return launchDiagnostic(
    ctx,
    'hf-script-single-process',
    python.word.start,
    python.word.end,
    t('{0}: no launcher sets RANK and WORLD_SIZE, so with {1} DeepSpeed looks for an MPI world through mpi4py (deepspeed/comm/comm.py:837-845, mpi_discovery) and either stops there or trains with world size 1 on one GPU while the others sit idle. Start {2} with {3} (or the deepspeed launcher) for one process per GPU.', sees, ds.written, python.runs.value, `torchrun --nproc_per_node ${n}`),
    { gpus: n, fixes: torchrunFixes(ctx, python.word, python.runs, n, t) },
  );
}
