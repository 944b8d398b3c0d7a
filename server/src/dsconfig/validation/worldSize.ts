import { describeSource, formatGpuCount, type Sourced } from '../../protocol';
import type { Translate } from '../../l10n';
import type { ZeroLensSettings } from '../../settings';

/** The data-parallel world size a world-size check uses, with how a message shows it ("4 GPUs (train.sh line 3)"). */
export interface WorldSize {
  gpus: number;
  /** How the count is shown in a message: the count and where it came from. */
  label: string;
}

/** GPUs per node × nodes, worded with where each came from; the one place that words a world size. */
export function worldSizeFrom(gpusPerNode: Sourced<number>, nodes: Sourced<number>, t: Translate): WorldSize {
  const sources = [...new Set([describeSource(gpusPerNode.source, t), ...(nodes.value > 1 ? [describeSource(nodes.source, t)] : [])])].join(t({ message: '; ', comment: 'between the clauses of a list' }));
  return { gpus: gpusPerNode.value * nodes.value, label: t('{0} ({1})', formatGpuCount(gpusPerNode.value, nodes.value, t), sources) };
}

/**
 * The world size the settings alone give (zeroLens.gpusPerNode × nodes), for a config checked without its training
 * context; the editor's checks get the context's (a launch script's count before the settings', training/worldSize.ts).
 */
export function settingsWorldSize(settings: ZeroLensSettings, t: Translate): WorldSize | undefined {
  if (!settings.gpusPerNode) return undefined;
  const nodes: Sourced<number> = settings.nodes ? { value: settings.nodes, source: { kind: 'setting', name: 'nodes' } } : { value: 1, source: { kind: 'default' } };
  return worldSizeFrom({ value: settings.gpusPerNode, source: { kind: 'setting', name: 'gpusPerNode' } }, nodes, t);
}
