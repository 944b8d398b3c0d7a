import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { deepspeedDocs, fileDocs, huggingFaceDocs, launchDocs, pythonDocs } from './docsLinks';

const { Error, Warning, Information, Hint } = DiagnosticSeverity;

/** The part of ZeRO Lens that owns a check (and so offers its fixes). */
export type DiagnosticDomain = 'ds-config' | 'launch' | 'memory' | 'file';

export interface CodeInfo {
  domain: DiagnosticDomain;
  /** The severity unless the check chooses one per case (some ds_config checks do). */
  severity: DiagnosticSeverity;
  /** The docs link (`codeDescription.href`) unless the check names a more precise page. */
  href: string;
}

/**
 * Every diagnostic code ZeRO Lens emits, of every domain. Codes are public surface (CLI output, quick fixes,
 * user filters): never rename one, and keep severities and links unless DeepSpeed's behaviour changed.
 */
export const diagnosticRegistry = {
  // ds_config: text level
  'json-syntax': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'duplicate-key': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'jsonc-comment': { domain: 'ds-config', severity: Warning, href: huggingFaceDocs.configFile },
  'jsonc-trailing-comma': { domain: 'ds-config', severity: Warning, href: huggingFaceDocs.configFile },
  'utf8-bom': { domain: 'ds-config', severity: Warning, href: huggingFaceDocs.configFile },
  'file-too-large': { domain: 'ds-config', severity: Information, href: deepspeedDocs.root },
  'nesting-too-deep': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.root },
  'config-not-object': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'internal-error': { domain: 'ds-config', severity: Information, href: deepspeedDocs.root },
  'too-many-problems': { domain: 'ds-config', severity: Information, href: deepspeedDocs.root },
  // ds_config: schema level
  'invalid-type': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'invalid-value': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.root },
  'out-of-range': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.root },
  'missing-key': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'schema': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'unknown-key': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'ignored-key': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.root },
  'deprecated-key': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.zero },
  'deprecated-with-replacement': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero },
  'alias-both-set': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero },
  'ignored-at-stage': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.zero },
  'integer-fraction': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero },
  'integer-exponent-string': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero },
  'integer-as-string': { domain: 'ds-config', severity: Hint, href: deepspeedDocs.zero },
  'integer-written-as-float': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.scheduler },
  'number-as-string': { domain: 'ds-config', severity: Hint, href: deepspeedDocs.zero },
  'boolean-as-string': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'boolean-as-number': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.root },
  'boolean-as-integer': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.root },
  'auto-dropped': { domain: 'ds-config', severity: Warning, href: huggingFaceDocs.auto },
  'auto-not-filled': { domain: 'ds-config', severity: Error, href: huggingFaceDocs.auto },
  // ds_config: cross-key rules
  'batch-size-missing': { domain: 'ds-config', severity: Error, href: deepspeedDocs.batch },
  'batch-size-mismatch': { domain: 'ds-config', severity: Error, href: deepspeedDocs.batch },
  'batch-size-world-size': { domain: 'ds-config', severity: Hint, href: deepspeedDocs.batch },
  'fp16-and-bf16': { domain: 'ds-config', severity: Error, href: deepspeedDocs.bf16 },
  'scheduler-argument-not-taken': { domain: 'ds-config', severity: Error, href: deepspeedDocs.scheduler },
  'scheduler-needs-python': { domain: 'ds-config', severity: Error, href: deepspeedDocs.scheduler },
  'enabled-key-missing': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'dynamic-loss-scale-setting': { domain: 'ds-config', severity: Error, href: deepspeedDocs.fp16 },
  'amp-with-zero': { domain: 'ds-config', severity: Error, href: deepspeedDocs.amp },
  'amp-with-fp16-bf16': { domain: 'ds-config', severity: Error, href: deepspeedDocs.amp },
  'master-weights-without-zero': { domain: 'ds-config', severity: Error, href: deepspeedDocs.bf16 },
  'master-weights-need-cpu-adam': { domain: 'ds-config', severity: Error, href: deepspeedDocs.bf16 },
  'param-dtype-mismatch': { domain: 'ds-config', severity: Error, href: deepspeedDocs.dataTypes },
  'grad-accum-dtype-without-zero': { domain: 'ds-config', severity: Error, href: deepspeedDocs.dataTypes },
  'zero-optimization-legacy-bool': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.zero },
  'bf16-optimizer-states-without-master-weights': { domain: 'ds-config', severity: Error, href: deepspeedDocs.bf16 },
  'autocast-with-quantized-weights': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero },
  'offload-param-below-stage-3': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.offloadParam },
  'partial-offload-below-stage-3': { domain: 'ds-config', severity: Error, href: deepspeedDocs.offloadOptimizer },
  'nvme-without-path': { domain: 'ds-config', severity: Error, href: deepspeedDocs.offloadOptimizer },
  'nvme-below-stage-3': { domain: 'ds-config', severity: Information, href: deepspeedDocs.offloadOptimizer },
  'optimizer-offload-at-stage-0': { domain: 'ds-config', severity: Error, href: deepspeedDocs.offloadOptimizer },
  'pipeline-loading-checkpoint-below-stage-3': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.zero },
  'stage-auto': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.zero },
  'legacy-stage1': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero },
  'optimizer-argument-not-taken': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer },
  'amsgrad-unsupported': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer },
  'max-grad-norm-in-optimizer': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer },
  'onebit-optimizer-with-zero': { domain: 'ds-config', severity: Error, href: deepspeedDocs.oneBit },
  'lamb-static-loss-scale': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer },
  'untested-optimizer-with-zero': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.optimizer },
  'muon-reduce-scatter': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer },
  'muon-ns-method': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer },
  'pipeline-with-zero-2-3': { domain: 'ds-config', severity: Error, href: deepspeedDocs.pipeline },
  'pipeline-timers-without-steps-per-print': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.logging },
  'prescale-with-reduce-scatter': { domain: 'ds-config', severity: Error, href: deepspeedDocs.communication },
  'predivide-with-reduce-scatter': { domain: 'ds-config', severity: Error, href: deepspeedDocs.communication },
  'allreduce-sum-unsupported': { domain: 'ds-config', severity: Error, href: deepspeedDocs.communication },
  'allreduce-op-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.communication },
  'communication-data-type-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.communication },
  'log-level-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.logging },
  'tag-validation-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.checkpoint },
  'elasticity-with-batch-keys': { domain: 'ds-config', severity: Error, href: deepspeedDocs.elasticity },
  'elasticity-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.elasticity },
  'curriculum-schedule-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.curriculum },
  'contiguous-memory-without-partitioning': { domain: 'ds-config', severity: Error, href: deepspeedDocs.activationCheckpointing },
  'unmanaged-grad-accumulation-conflict': { domain: 'ds-config', severity: Error, href: deepspeedDocs.batch },
  'autotp-size-mismatch': { domain: 'ds-config', severity: Error, href: deepspeedDocs.autotp },
  'tensor-parallel-dtype': { domain: 'ds-config', severity: Error, href: deepspeedDocs.tensorParallel },
  'zenflow-needs-offload': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zenflow },
  'zenflow-needs-overlap-comm': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zenflow },
  'zenflow-interval-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero },
  'deepcompile-passes-conflict': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'deepcompile-offload-conflict': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'autoep-conflict': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'autotuning-metric-unsupported': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.autotuning },
  'vocabulary-size-not-multiple-of-8': { domain: 'ds-config', severity: Information, href: deepspeedDocs.root },
  // launch scripts: the shell
  'crlf-line-endings': { domain: 'launch', severity: Warning, href: launchDocs.carriageReturn },
  'broken-continuation': { domain: 'launch', severity: Error, href: launchDocs.bashEscape },
  'trailing-space-after-backslash': { domain: 'launch', severity: Error, href: launchDocs.bashEscape },
  'unterminated-quote': { domain: 'launch', severity: Error, href: launchDocs.bashQuoting },
  'unterminated-heredoc': { domain: 'launch', severity: Warning, href: launchDocs.bashHeredoc },
  // launch scripts and YAML: the DeepSpeed config they name
  'unknown-deepspeed-preset': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'deepspeed-config-not-found': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'invalid-inline-deepspeed-json': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'inline-deepspeed-json-repaired': { domain: 'launch', severity: Warning, href: launchDocs.swift },
  'deepspeed-unsupported-subcommand': { domain: 'launch', severity: Error, href: launchDocs.swift },
  /** Also reported in the config itself, from its training context. */
  'zero-optimization-required': { domain: 'launch', severity: Error, href: huggingFaceDocs.accelerate },
  'teacher-deepspeed-unused': { domain: 'launch', severity: Warning, href: launchDocs.swift },
  'teacher-deepspeed-without-stage': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'teacher-deepspeed-not-zero3': { domain: 'launch', severity: Information, href: launchDocs.swift },
  'preset-not-valid-here': { domain: 'launch', severity: Error, href: huggingFaceDocs.trainer },
  // launch scripts: ms-swift
  'deepspeed-with-fsdp': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'cuda-devices-without-nproc': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'nproc-visible-devices-mismatch': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'swift-script-single-process': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'swift-script-config-file': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'env-after-command': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'train-type-renamed': { domain: 'launch', severity: Warning, href: launchDocs.swift },
  'invalid-torch-dtype': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'quant-bits-without-method': { domain: 'launch', severity: Warning, href: launchDocs.swift },
  // launch scripts: the Hugging Face Trainer, launchers, accelerate, LLaMA-Factory
  'hf-script-single-process': { domain: 'launch', severity: Warning, href: huggingFaceDocs.trainer },
  'launcher-num-with-include': { domain: 'launch', severity: Error, href: deepspeedDocs.launcher },
  'launcher-include-with-exclude': { domain: 'launch', severity: Error, href: deepspeedDocs.launcher },
  'launcher-multinode-without-hostfile': { domain: 'launch', severity: Warning, href: deepspeedDocs.launcher },
  'launcher-invalid-host-spec': { domain: 'launch', severity: Error, href: deepspeedDocs.launcher },
  'cuda-visible-devices-ignored': { domain: 'launch', severity: Warning, href: deepspeedDocs.launcher },
  'torchrun-invalid-value': { domain: 'launch', severity: Error, href: launchDocs.torchrun },
  'nproc-exceeds-visible-devices': { domain: 'launch', severity: Warning, href: launchDocs.torchrun },
  'accelerate-invalid-value': { domain: 'launch', severity: Error, href: huggingFaceDocs.accelerate },
  'accelerate-config-file-excludes': { domain: 'launch', severity: Error, href: huggingFaceDocs.accelerate },
  'accelerate-flag-fills-auto': { domain: 'launch', severity: Information, href: huggingFaceDocs.accelerate },
  'llamafactory-invalid-value': { domain: 'launch', severity: Error, href: launchDocs.llamaFactory },
  'yaml-syntax-error': { domain: 'launch', severity: Warning, href: launchDocs.yaml },
  // the memory estimate, on a config's stage and on a script's DeepSpeed value
  'estimate-exceeds-gpu-memory': { domain: 'memory', severity: Warning, href: deepspeedDocs.zeroTutorial },
  // reading a file (the CLI decodes files itself; the editor decodes them for the server)
  'not-utf8': { domain: 'file', severity: Error, href: pythonDocs.unicodeDecodeError },
  /** A file the document names that ZeRO Lens did not read: a named pipe or device, over its size cap, outside an untrusted workspace. */
  'file-not-read': { domain: 'file', severity: Warning, href: fileDocs.fileTypes },
  /** One domain's checks failed with an internal error; the others still ran. */
  'check-failed': { domain: 'file', severity: Information, href: fileDocs.fileTypes },
} as const satisfies Record<string, CodeInfo>;

export type DiagnosticCode = keyof typeof diagnosticRegistry;

/** The codes one domain owns. */
export type CodeOf<D extends DiagnosticDomain> = { [C in DiagnosticCode]: (typeof diagnosticRegistry)[C]['domain'] extends D ? C : never }[DiagnosticCode];

/** Whether a code from outside (a client's diagnostic) is ours and owned by `domain`. */
export function isCodeOf<D extends DiagnosticDomain>(code: unknown, domain: D): code is CodeOf<D> {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(diagnosticRegistry, code) && diagnosticRegistry[code as DiagnosticCode].domain === domain;
}
