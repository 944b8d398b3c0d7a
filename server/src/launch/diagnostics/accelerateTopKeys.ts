import type { Diagnostic } from 'vscode-languageserver-types';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import type { YamlLaunch } from '../yaml/analyzeYaml';
import { launchDiagnostic } from './launchDiagnostic';
import { removeEntry, renameKey } from './yamlEntryOps';
import { closest } from '../fsdp/closest';
import type { Translate } from '../../l10n';

/**
 * The top-level keys `accelerate launch` reads from a config file: ClusterConfig's fields (with BaseConfig's) at the
 * pinned accelerate (commands/config/config_args.py:76-217), and `fp16` and `dynamo_backend`, which process_config
 * converts first (:113-118). Any other key makes from_yaml_file raise ValueError "had unknown keys" (:154-159, since
 * accelerate #1935, Sept 2023).
 */
const clusterConfigKeys = new Set([
  'compute_environment', 'distributed_type', 'mixed_precision', 'use_cpu', 'debug', 'num_processes', 'machine_rank', 'num_machines', 'gpu_ids',
  'main_process_ip', 'main_process_port', 'rdzv_backend', 'same_network', 'main_training_function', 'enable_cpu_affinity', 'fp8_config',
  'deepspeed_config', 'fsdp_config', 'parallelism_config', 'megatron_lm_config', 'mpirun_config', 'downcast_bf16', 'tpu_name', 'tpu_zone',
  'tpu_use_cluster', 'tpu_use_sudo', 'command_file', 'commands', 'tpu_vm', 'tpu_env', 'dynamo_config', 'fp16', 'dynamo_backend',
]);

/** Keys releases with that check read and the pinned one refuses: ipex_config until #3883 (Dec 2025), tp_config Jan–Apr 2025. */
const removedKeys = new Set(['ipex_config', 'tp_config']);

/**
 * Unknown top-level keys of an accelerate config. Only with distributed_type, which every file accelerate reads has
 * (process_config raises without it): a LLaMA-Factory YAML with the Trainer's fsdp_config is not one. A SageMaker
 * config has its own fields and is left alone.
 */
export function accelerateTopKeyDiagnostics(ctx: SourceContext, yaml: YamlLaunch, t: Translate): Diagnostic[] {
  if (!yaml.top.has('distributed_type') || String(yaml.top.get('compute_environment')?.value ?? '').toUpperCase() === 'AMAZON_SAGEMAKER') return [];
  const out: Diagnostic[] = [];
  for (const e of yaml.top.values()) {
    if (clusterConfigKeys.has(e.key)) continue;
    const remove = { id: 'remove-entry' as const, title: t('Remove {0}', e.key), ops: [removeEntry(ctx, e)] };
    if (removedKeys.has(e.key)) {
      const message = t('Newer accelerate releases no longer read {0} and refuse the file: accelerate launch raises ValueError "had unknown keys". Releases before its removal accepted it.', e.key);
      out.push(launchDiagnostic(ctx, 'accelerate-unknown-key', e.keyStart, e.keyEnd, message, { key: e.key, fixes: [{ ...remove, preferred: true }] }, { severity: DiagnosticSeverity.Warning }));
      continue;
    }
    const suggestion = closest(e.key, clusterConfigKeys);
    const message = suggestion
      ? t('accelerate launch refuses a config with the key {0}: ValueError "had unknown keys". Did you mean {1}?', e.key, suggestion)
      : t('accelerate launch refuses a config with the key {0}: ValueError "had unknown keys".', e.key);
    const rename = suggestion && !yaml.top.has(suggestion) ? [{ id: 'rename-key' as const, title: t('Rename to {0}', suggestion), ops: [renameKey(ctx, e, suggestion)], preferred: true }] : [];
    out.push(launchDiagnostic(ctx, 'accelerate-unknown-key', e.keyStart, e.keyEnd, message, { key: e.key, fixes: [...rename, remove] }));
  }
  return out;
}
