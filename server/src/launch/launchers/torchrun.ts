import type { LaunchFacts } from '../facts';
import type { LauncherPart } from '../command/launchCommand';
import type { SourceContext } from '../command/context';
import type { CommandEnvironment } from '../shell/variables';
import { parseOptions, type OptionSpec } from '../command/options';
import type { Word } from '../shell/types';
import { OptionReader } from './trainerArgs';
import { visibleDevices } from './devices';
import { msg } from '../../l10n';

export const torchrunBooleans = new Set(['standalone', 'module', 'no_python', 'run_path']);
export const torchrunOptions = [
  'nnodes', 'nproc_per_node', 'node_rank', 'master_addr', 'master_port', 'rdzv_backend', 'rdzv_endpoint', 'rdzv_id', 'rdzv_conf', 'max_restarts',
  'monitor_interval', 'start_method', 'role', 'log_dir', 'redirects', 'tee', 'local_ranks_filter', 'local_addr', 'logs_specs', 'numa_binding',
  'signals_to_handle', 'rdzv_endpoint', ...torchrunBooleans,
];
const spec: OptionSpec = { booleans: torchrunBooleans, shortAliases: { '-m': 'module', '-r': 'redirects', '-t': 'tee' }, stopAtPositional: true };

export function torchrunLauncher(word: Word, args: Word[]): { part: LauncherPart; rest: Word[] } {
  const parsed = parseOptions(args, spec);
  const rest = args.slice(parsed.restIndex);
  return { part: { kind: 'torchrun', word, parsed, script: rest[0] }, rest: rest.slice(1) };
}

/** `--nproc_per_node` values torchrun accepts besides an integer. */
export const nprocKeywords = ['auto', 'cpu', 'gpu', 'xpu'];

export function readTorchrunFacts(ctx: SourceContext, env: CommandEnvironment, part: LauncherPart, facts: LaunchFacts): void {
  const reader = new OptionReader(ctx, env, part.parsed);
  facts.gpusPerNode = reader.integer('nproc_per_node');
  const nproc = reader.string('nproc_per_node');
  const devices = visibleDevices(env);
  if (!facts.gpusPerNode && nproc && (nproc.value === 'gpu' || nproc.value === 'auto') && devices) {
    facts.gpusPerNode = { ...nproc, value: devices.ids.length };
  }
  if (!reader.option('nproc_per_node')) {
    const pet = env.envBinding('PET_NPROC_PER_NODE');
    const n = Number(pet?.value);
    if (pet && Number.isInteger(n) && n > 0) facts.gpusPerNode = ctx.fact(n, pet.assignment.start, pet.assignment.end, 'PET_NPROC_PER_NODE');
    // Without either, torchrun starts one process per node (run.py: --nproc-per-node default "1").
    else if (!pet) facts.gpusPerNode = ctx.fact(1, part.word.start, part.word.end, msg('torchrun default'), true);
  }
  const nnodes = reader.string('nnodes');
  const m = nnodes && /^(\d+)(?::(\d+))?$/.exec(nnodes.value);
  if (nnodes && m) facts.nodes = { ...nnodes, value: Number(m[2] ?? m[1]) };
}
