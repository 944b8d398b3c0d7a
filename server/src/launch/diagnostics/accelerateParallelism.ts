/**
 * accelerate's `parallelism_config` (FSDP2 with tensor, context or sequence parallelism): the product of its sizes
 * must be the number of processes, or `ParallelismConfig` raises when the Accelerator starts
 * (parallelism_config.py:371-376; a product of 1 is widened to data parallelism, :362-363).
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { Translate } from '../../l10n';
import type { SourceContext } from '../command/context';
import type { YamlLaunch } from '../yaml/analyzeYaml';
import { launchDiagnostic } from './launchDiagnostic';
import { raises } from '../upstream';

const sizes = ['dp_replicate_size', 'dp_shard_size', 'tp_size', 'cp_size', 'sp_size'] as const;

export function accelerateParallelism(ctx: SourceContext, yaml: YamlLaunch, t: Translate): Diagnostic[] {
  const config = yaml.parallelismConfig;
  const processes = yaml.top.get('num_processes');
  if (config.size === 0 || typeof processes?.value !== 'number') return [];
  let total = 1;
  const written: string[] = [];
  for (const size of sizes) {
    const entry = config.get(`parallelism_config_${size}`) ?? config.get(size);
    const n = typeof entry?.value === 'number' && Number.isInteger(entry.value) && entry.value >= 1 ? entry.value : 1;
    total *= n;
    if (n > 1) written.push(`${size} ${n}`);
  }
  const backend = String(config.get('parallelism_config_sp_backend')?.value ?? config.get('sp_backend')?.value ?? '');
  const spSize = config.get('parallelism_config_sp_size') ?? config.get('sp_size');
  // DeepSpeed's sequence parallelism builds its own groups, and accelerate skips the comparison for it.
  if (backend === 'deepspeed' && typeof spSize?.value === 'number' && spSize.value > 1) return [];
  if (total === 1 || total === processes.value) return [];
  const anchor = yaml.top.get('parallelism_config')!;
  const message = t('The sizes of `parallelism_config` multiply to {0} ({1}), but `num_processes` is {2}: accelerate raises ValueError when the Accelerator starts. Their product must equal the number of processes.', total, written.join(' × '), processes.value);
  return [launchDiagnostic(ctx, 'parallel-sizes-gpu-mismatch', anchor.keyStart, anchor.keyEnd, message, { total, processes: processes.value }, { raises: raises.parallelismTotal })];
}
