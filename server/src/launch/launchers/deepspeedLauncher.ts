import type { LaunchFacts } from '../facts';
import type { LauncherPart } from '../command/launchCommand';
import type { SourceContext } from '../command/context';
import type { CommandEnvironment } from '../shell/variables';
import { parseOptions, type OptionSpec } from '../command/options';
import type { Word } from '../shell/types';
import { OptionReader } from './trainerArgs';
import { visibleDevices } from './devices';

/** `deepspeed/launcher/runner.py` options (flags without a value). */
export const deepspeedLauncherBooleans = new Set([
  'module', 'no_python', 'no_local_rank', 'no_ssh', 'no_ssh_check', 'force_multi', 'save_pid', 'elastic_training', 'bind_cores_to_rank', 'quiet',
]);
export const deepspeedLauncherOptions = [
  'hostfile', 'include', 'exclude', 'num_nodes', 'num_gpus', 'num_accelerators', 'master_port', 'master_addr', 'node_rank', 'launcher',
  'launcher_args', 'min_elastic_nodes', 'max_elastic_nodes', 'enable_each_rank_log', 'autotuning', 'bind_core_list', 'ssh_port', 'venv_script',
  'log_level', 'comment', 'account', ...deepspeedLauncherBooleans,
];
const spec: OptionSpec = {
  booleans: deepspeedLauncherBooleans,
  shortAliases: { '-H': 'hostfile', '-i': 'include', '-e': 'exclude', '-q': 'quiet' },
  stopAtPositional: true,
};

export function deepspeedLauncher(word: Word, args: Word[]): { part: LauncherPart; rest: Word[] } {
  const parsed = parseOptions(args, spec);
  const rest = args.slice(parsed.restIndex);
  return { part: { kind: 'deepspeed', word, parsed, script: rest[0] }, rest: rest.slice(1) };
}

/** `worker-0:0,1@worker-1:2,3` → nodes and slots per node (undefined slots = all GPUs of the node). */
export function parseHostSpec(spec: string): { host: string; slots?: number[] }[] | undefined {
  const nodes: { host: string; slots?: number[] }[] = [];
  for (const part of spec.split('@')) {
    const m = /^([^:@,\s]+)(?::(\d+(?:,\d+)*))?$/.exec(part.trim());
    if (!m) return undefined;
    nodes.push({ host: m[1], slots: m[2]?.split(',').map(Number) });
  }
  return nodes.length > 0 ? nodes : undefined;
}

export function readDeepSpeedLauncherFacts(ctx: SourceContext, env: CommandEnvironment, part: LauncherPart, facts: LaunchFacts): void {
  const reader = new OptionReader(ctx, env, part.parsed);
  facts.gpusPerNode = reader.integer('num_gpus', 'num_accelerators');
  facts.nodes = reader.integer('num_nodes');
  const autotuning = reader.string('autotuning');
  if (autotuning) facts.autotuning = autotuning;
  const include = reader.option('include');
  const includeText = include && reader.text(include);
  const hosts = includeText ? parseHostSpec(includeText) : undefined;
  if (include && hosts) {
    const fact = reader.string('include')!;
    facts.nodes ??= { ...fact, value: hosts.length };
    if (hosts[0].slots) facts.gpusPerNode ??= { ...fact, value: hosts[0].slots.length };
  }
  const restricted = ['hostfile', 'include', 'exclude', 'num_gpus', 'num_accelerators', 'num_nodes'].some((n) => reader.option(n));
  const devices = visibleDevices(env);
  if (!restricted && devices && devices.ids.length > 0) {
    facts.gpusPerNode ??= ctx.fact(devices.ids.length, devices.binding.assignment.start, devices.binding.assignment.end, devices.name);
  }
  if (facts.nodes && facts.nodes.value < 1) facts.nodes = undefined;
  if (facts.gpusPerNode && facts.gpusPerNode.value < 1) facts.gpusPerNode = undefined;
}
