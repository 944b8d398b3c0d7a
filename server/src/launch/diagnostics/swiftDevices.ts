/**
 * ms-swift's start-up checks of the visible GPUs against the processes per node, for a DeepSpeed launch.
 * `swift sft x.yaml` may give both through the config file: its `deepspeed:` and, in `ENV:`, the variables,
 * which ms-swift sets only where the shell left them unset (swift/cli/main.py, parse_yaml_args).
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import type { LaunchCommand } from '../command/launchCommand';
import type { Word } from '../shell/types';
import { factVia, type Fact, type LaunchFacts } from '../facts';
import { baseName } from '../../util/paths';
import { deviceIds, visibleDeviceVariables } from '../launchers/devices';
import { ScriptEditor } from '../edits/textEdits';
import type { FixSpec } from '../../diagnostics/fixData';
import { launchDiagnostic } from './launchDiagnostic';
import { gpusMeantFor, torchrunFixes } from './singleProcess';
import type { Translate } from '../../l10n';

export interface SwiftDeviceInputs {
  /** `--deepspeed` is on the command line. */
  deepspeedFlag: boolean;
  /** Facts of the config file the command names, when it reads. */
  config: LaunchFacts | undefined;
  /** Variables written after the command: reported on their own, and meant for the environment. */
  movedEnv: Set<string>;
}

/** A variable as ms-swift sees it, with where it was written: in the script, or in the config's ENV. */
interface SeenVariable {
  value: string;
  /** Offsets in the script of what to underline: the assignment, or the config file argument. */
  start: number;
  end: number;
  /** The shell assignment's value, when the script wrote it (for fixes that edit it). */
  scriptValue?: { start: number; end: number; raw: string };
  /** `NPROC_PER_NODE`, or `ENV.NPROC_PER_NODE in sft.yaml`. */
  where: string;
}

interface SeenDevices {
  name: string;
  ids: string[];
  variable: SeenVariable;
}

function listedAs(devices: SeenDevices): string {
  return devices.variable.where === devices.name ? devices.name : devices.variable.where;
}

/**
 * `python swift/cli/sft.py` (or `-m swift.cli.sft`) is one process whatever NPROC_PER_NODE says (only
 * swift/cli/main.py reads it and starts torchrun). With two or more GPUs visible, is_mp() holds and
 * --deepspeed fails as under `swift sft` without NPROC_PER_NODE. With no CUDA_VISIBLE_DEVICES the count is
 * unknown and, as for `swift sft`, nothing is said, unless NPROC_PER_NODE ≥ 2 tells that many GPUs are there.
 */
function scriptRunDiagnostic(ctx: SourceContext, launch: LaunchCommand, python: Word, devices: SeenDevices | undefined, nproc: SeenVariable | undefined, deepspeed: string, t: Translate): Diagnostic | undefined {
  const target = launch.trainer?.subcommandWord;
  if (!target) return undefined;
  const runner = ctx.document.getText().slice(python.start, target.end);
  const n = gpusMeantFor(devices?.ids.length, nproc?.value);
  const at = devices?.variable ?? nproc;
  if (n < 2 || !at) return undefined;
  const sees = devices
    ? t('{0} lists {1} GPUs, and {2} runs one process that sees them all', listedAs(devices), n, runner)
    : t('{0} asks for {1} processes, but {2} runs one process, which sees every GPU of the machine ({1} or more)', `NPROC_PER_NODE=${n}`, n, runner);
  // What swift's main.py runs for it: python -m torch.distributed.run --nproc_per_node N <script> (main.py:95-98).
  const fixes = torchrunFixes(ctx, python, target, n, t);
  return launchDiagnostic(
    ctx,
    'swift-script-single-process',
    at.start,
    at.end,
    t('{0}: only the swift command reads {1} and starts torchrun. ms-swift then loads the model with device_map across the GPUs and {2} fails: "DeepSpeed is not compatible with device_map". Use {3} with {4}, or start {5} with {6}.', sees, 'NPROC_PER_NODE', deepspeed, `swift ${launch.trainer?.subcommand ?? 'sft'}`, `NPROC_PER_NODE=${n}`, target.value, `torchrun --nproc_per_node ${n}`),
    { gpus: n, fixes },
  );
}

export function swiftDeviceDiagnostics(ctx: SourceContext, launch: LaunchCommand, inputs: SwiftDeviceInputs, t: Translate): Diagnostic[] {
  const out: Diagnostic[] = [];
  const editor = new ScriptEditor(ctx);
  const programStart = launch.command.words[0].start;
  const configArg = launch.facts.configFile;
  const python = launch.launcher ? undefined : launch.trainer?.python;
  // ENV: is applied by swift's own entry point (main.py, parse_yaml_args), which an outer launcher or
  // `python swift/cli/sft.py` does not run.
  const config = launch.launcher || python ? undefined : inputs.config;
  const configName = configArg ? baseName(configArg.value) : '';

  const seen = (name: string): SeenVariable | undefined => {
    const binding = launch.env.envBinding(name);
    if (binding) {
      if (binding.value === undefined) return undefined;
      const a = binding.assignment;
      return { value: binding.value, start: a.start, end: a.end, scriptValue: a.value, where: name };
    }
    const fromConfig: Fact<string> | undefined = config?.configEnv?.[name];
    return fromConfig && configArg ? { value: fromConfig.value, start: configArg.span.start, end: configArg.span.end, where: t('{0} in {1}', `ENV.${name}`, configName) } : undefined;
  };

  const deepspeed = inputs.deepspeedFlag ? '--deepspeed' : config?.deepspeed ? t('DeepSpeed ({0} in {1})', `deepspeed: ${config.deepspeed.text}`, configName) : undefined;
  if (!deepspeed) return out;
  let devices: SeenDevices | undefined;
  for (const name of visibleDeviceVariables) {
    const variable = seen(name);
    if (variable) {
      devices = { name, ids: deviceIds(variable.value), variable };
      break;
    }
  }
  // SWIFT_SINGLE_DEVICE_MODE=1 switches ms-swift's model-parallel detection off (swift/utils/env.py, is_mp).
  if (seen('SWIFT_SINGLE_DEVICE_MODE')?.value === '1') return out;
  const nproc = seen('NPROC_PER_NODE');
  if (python) {
    const one = scriptRunDiagnostic(ctx, launch, python.word, devices, nproc, deepspeed, t);
    return one ? [one] : out;
  }
  if (!devices) return out;
  const n = devices.ids.length;
  const listed = listedAs(devices);

  // Several GPUs but one process: model parallel (device_map), which DeepSpeed refuses.
  // A script variable whose value is unknown still counts as set.
  const nprocWritten = nproc !== undefined || launch.env.envBinding('NPROC_PER_NODE') !== undefined || inputs.movedEnv.has('NPROC_PER_NODE');
  if (!launch.launcher && n >= 2 && !nprocWritten) {
    out.push(
      launchDiagnostic(
        ctx,
        'cuda-devices-without-nproc',
        devices.variable.start,
        devices.variable.end,
        t('{0} lists {1} GPUs but {2} is not set, so ms-swift starts one process that sees {1} GPUs (device_map model parallel), and {3} then fails: "DeepSpeed is not compatible with device_map". Set {4}.', listed, n, 'NPROC_PER_NODE', deepspeed, `NPROC_PER_NODE=${n}`),
        { gpus: n, fixes: [{ id: 'add-nproc-per-node', title: t('Add {0}', `NPROC_PER_NODE=${n}`), ops: [editor.insertBeforeProgram(programStart, `NPROC_PER_NODE=${n}`)], preferred: true }] },
      ),
    );
  }

  // Processes per node that do not match the visible GPUs: ms-swift asserts they divide evenly, and a process
  // that sees two or more GPUs loads the model with device_map, which DeepSpeed refuses (is_mp).
  const processes = launch.facts.gpusPerNode ?? (nproc && !nproc.scriptValue ? config?.gpusPerNode : undefined);
  if (!processes || processes.isDefault) return out;
  const p = processes.value;
  // Under a launcher, more processes than GPUs already has the launcher's own warning.
  const tooMany = !!launch.launcher && p > n;
  if (tooMany || n === p || (n % p === 0 && n / p < 2)) return out;
  const why =
    n % p !== 0
      ? t('ms-swift asserts that the GPUs divide evenly among the processes ({0}) and stops', 'n_gpu % local_world_size')
      : t('each process sees {0} GPUs, so ms-swift loads the model with device_map across them and {1} fails: "DeepSpeed is not compatible with device_map"', n / p, deepspeed);
  const processesVia = processes.via.startsWith('ENV.') ? t('{0} in {1}', processes.via, configName) : factVia(processes, t);
  const literal = nproc?.scriptValue && /^\d+$/.test(nproc.scriptValue.raw) ? nproc.scriptValue : undefined;
  const fixes: FixSpec[] = literal ? [{ id: 'set-nproc-per-node', title: t('Set {0}', `NPROC_PER_NODE=${n}`), ops: [editor.replace(literal.start, literal.end, String(n))], preferred: true }] : [];
  out.push(
    launchDiagnostic(ctx, 'nproc-visible-devices-mismatch', devices.variable.start, devices.variable.end, p === 1
        ? t('{0} lists {1} GPUs for 1 process per node ({2}): {3}. Start one process per visible GPU.', listed, n, processesVia, why)
        : t('{0} lists {1} GPUs for {2} processes per node ({3}): {4}. Start one process per visible GPU.', listed, n, p, processesVia, why), {
      gpus: n,
      processes: p,
      fixes,
    }),
  );
  return out;
}
