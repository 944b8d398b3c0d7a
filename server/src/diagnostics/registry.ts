import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { deepspeedDocs, fileDocs, fsdpDocs, huggingFaceDocs, launchDocs, parallelDocs, pythonDocs } from './docsLinks';

const { Error, Warning, Information, Hint } = DiagnosticSeverity;

/** The part of ZeRO Lens that owns a check (and so offers its fixes). */
export type DiagnosticDomain = 'ds-config' | 'launch' | 'memory' | 'file';

export interface CodeInfo {
  domain: DiagnosticDomain;
  /** The severity unless the check chooses one per case (some ds_config checks do). */
  severity: DiagnosticSeverity;
  /** The docs link (`codeDescription.href`) unless the check names a more precise page. */
  href: string;
  /**
   * The upstream line that raises, `owner/repo@commit:path#Lline` (a range `#La-b`): an error's link
   * (`codeDescription.href`) is that line, so the user sees what fails and where (see `upstreamLink`).
   */
  raises?: string;
}

/** The pinned commits cited: the ones the schema and the checks were read from. */
const DS = 'deepspeedai/DeepSpeed@edaa7221267243c7be7fb49c5d5f5c4fb97b4641';
const ACCELERATE = 'huggingface/accelerate@16cb6eb8';
const LLAMA_FACTORY = 'hiyouga/LLaMA-Factory@ff6d4d12';
const MS_SWIFT = 'modelscope/ms-swift@3602360a562313afbf2ef6065fdf61f271a2c5b9';
/** Read from the published v4.57.6 package (the last 4.x; ms-swift allows <5.17): its tag pins the lines. */
const TRANSFORMERS = 'huggingface/transformers@v4.57.6';

/** `owner/repo@commit:path#L12` (or a release tag, `@v4.57.6`) → the GitHub page of that line. */
export function upstreamLink(raises: string): string {
  const m = /^([^@]+)@([0-9a-f]+|v\d[\w.-]*):([^#]+)(#L[\d-]+)?$/.exec(raises);
  if (!m) return raises;
  const lines = m[4] ? m[4].replace(/-(\d+)$/, '-L$1') : '';
  return `https://github.com/${m[1]}/blob/${m[2]}/${m[3]}${lines}`;
}

/**
 * Every diagnostic code ZeRO Lens emits, of every domain. Codes are public surface (CLI output, quick fixes,
 * user filters): never rename one, and keep severities and links unless DeepSpeed's behaviour changed.
 */
export const diagnosticRegistry = {
  // ds_config: text level
  'json-syntax': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root },
  'duplicate-key': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root, raises: `${DS}:deepspeed/runtime/config_utils.py#L205-210` },
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
  'unknown-key': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root, raises: `${DS}:deepspeed/runtime/config_utils.py#L110` },
  'ignored-key': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.root },
  'deprecated-key': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.zero },
  'deprecated-with-replacement': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero, raises: `${DS}:deepspeed/runtime/config_utils.py#L88-91` },
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
  'non-finite-number': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root, raises: `${DS}:deepspeed/runtime/precision_config.py#L130` },
  'auto-dropped': { domain: 'ds-config', severity: Warning, href: huggingFaceDocs.auto },
  'auto-not-filled': { domain: 'ds-config', severity: Error, href: huggingFaceDocs.auto, raises: `${DS}:deepspeed/runtime/config.py#L985` },
  // ds_config: cross-key rules
  'batch-size-missing': { domain: 'ds-config', severity: Error, href: deepspeedDocs.batch, raises: `${DS}:deepspeed/runtime/config.py#L985` },
  'batch-size-mismatch': { domain: 'ds-config', severity: Error, href: deepspeedDocs.batch, raises: `${DS}:deepspeed/runtime/config.py#L936-940` },
  'batch-size-world-size': { domain: 'ds-config', severity: Hint, href: deepspeedDocs.batch },
  'fp16-and-bf16': { domain: 'ds-config', severity: Error, href: deepspeedDocs.bf16, raises: `${DS}:deepspeed/runtime/config.py#L826-828` },
  'scheduler-argument-not-taken': { domain: 'ds-config', severity: Error, href: deepspeedDocs.scheduler },
  'scheduler-needs-python': { domain: 'ds-config', severity: Error, href: deepspeedDocs.scheduler },
  'enabled-key-missing': { domain: 'ds-config', severity: Error, href: deepspeedDocs.root, raises: `${DS}:deepspeed/runtime/config.py#L146` },
  'dynamic-loss-scale-setting': { domain: 'ds-config', severity: Error, href: deepspeedDocs.fp16, raises: `${DS}:deepspeed/runtime/precision_config.py#L191-196` },
  'amp-with-zero': { domain: 'ds-config', severity: Error, href: deepspeedDocs.amp, raises: `${DS}:deepspeed/runtime/engine.py#L1983-1985` },
  'amp-with-fp16-bf16': { domain: 'ds-config', severity: Error, href: deepspeedDocs.amp, raises: `${DS}:deepspeed/runtime/engine.py#L2003` },
  'amp-grad-accum-dtype': { domain: 'ds-config', severity: Error, href: deepspeedDocs.amp, raises: `${DS}:deepspeed/runtime/engine.py#L2000-2001` },
  'master-weights-without-zero': { domain: 'ds-config', severity: Error, href: deepspeedDocs.bf16 },
  'master-weights-need-cpu-adam': { domain: 'ds-config', severity: Error, href: deepspeedDocs.bf16 },
  'param-dtype-mismatch': { domain: 'ds-config', severity: Error, href: deepspeedDocs.dataTypes },
  'grad-accum-dtype-without-zero': { domain: 'ds-config', severity: Error, href: deepspeedDocs.dataTypes, raises: `${DS}:deepspeed/runtime/engine.py#L2021` },
  'zero-optimization-legacy-bool': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.zero },
  'bf16-optimizer-states-without-master-weights': { domain: 'ds-config', severity: Error, href: deepspeedDocs.bf16 },
  'autocast-with-quantized-weights': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero },
  'offload-param-below-stage-3': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.offloadParam },
  'partial-offload-below-stage-3': { domain: 'ds-config', severity: Error, href: deepspeedDocs.offloadOptimizer, raises: `${DS}:deepspeed/runtime/zero/config.py#L392` },
  'nvme-without-path': { domain: 'ds-config', severity: Error, href: deepspeedDocs.offloadOptimizer },
  'nvme-below-stage-3': { domain: 'ds-config', severity: Information, href: deepspeedDocs.offloadOptimizer },
  'allgather-bucket-size-odd': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero, raises: `${DS}:deepspeed/runtime/zero/stage_1_and_2.py#L349-351` },
  'optimizer-offload-at-stage-0': { domain: 'ds-config', severity: Error, href: deepspeedDocs.offloadOptimizer },
  'pipeline-loading-checkpoint-below-stage-3': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.zero },
  'stage-auto': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.zero },
  'legacy-stage1': { domain: 'ds-config', severity: Error, href: deepspeedDocs.zero, raises: `${DS}:deepspeed/runtime/zero/stage_1_and_2.py#L2778` },
  'optimizer-argument-not-taken': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer },
  'amsgrad-unsupported': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer, raises: `${DS}:deepspeed/ops/adam/fused_adam.py#L88` },
  'max-grad-norm-in-optimizer': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.optimizer },
  'onebit-optimizer-with-zero': { domain: 'ds-config', severity: Error, href: deepspeedDocs.oneBit, raises: `${DS}:deepspeed/runtime/engine.py#L2152-2159` },
  'lamb-static-loss-scale': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer },
  'untested-optimizer-with-zero': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.optimizer },
  'muon-reduce-scatter': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer },
  'muon-ns-method': { domain: 'ds-config', severity: Error, href: deepspeedDocs.optimizer },
  'pipeline-with-zero-2-3': { domain: 'ds-config', severity: Error, href: deepspeedDocs.pipeline, raises: `${DS}:deepspeed/runtime/pipe/engine.py#L76-77` },
  'pipeline-timers-without-steps-per-print': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.logging },
  'prescale-with-reduce-scatter': { domain: 'ds-config', severity: Error, href: deepspeedDocs.communication },
  'predivide-with-reduce-scatter': { domain: 'ds-config', severity: Error, href: deepspeedDocs.communication },
  'allreduce-sum-unsupported': { domain: 'ds-config', severity: Error, href: deepspeedDocs.communication, raises: `${DS}:deepspeed/runtime/config.py#L1031-1035` },
  'allreduce-op-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.communication },
  'communication-data-type-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.communication, raises: `${DS}:deepspeed/runtime/config.py#L223` },
  'log-level-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.logging },
  'tag-validation-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.checkpoint },
  'elasticity-with-batch-keys': { domain: 'ds-config', severity: Error, href: deepspeedDocs.elasticity, raises: `${DS}:deepspeed/runtime/config.py#L764` },
  'elasticity-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.elasticity, raises: `${DS}:deepspeed/elasticity/elasticity.py#L352-354` },
  'curriculum-schedule-invalid': { domain: 'ds-config', severity: Error, href: deepspeedDocs.curriculum, raises: `${DS}:deepspeed/runtime/data_pipeline/curriculum_scheduler.py#L44-47` },
  'contiguous-memory-without-partitioning': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.activationCheckpointing },
  'unmanaged-grad-accumulation-conflict': { domain: 'ds-config', severity: Error, href: deepspeedDocs.batch },
  'autotp-size-mismatch': { domain: 'ds-config', severity: Error, href: deepspeedDocs.autotp, raises: `${DS}:deepspeed/runtime/engine.py#L730-732` },
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
  'zero-optimization-required': { domain: 'launch', severity: Error, href: huggingFaceDocs.accelerate, raises: `${ACCELERATE}:src/accelerate/utils/dataclasses.py#L1276-1277` },
  /** ds_config checks that depend on who consumes the config (estimates/consumerDiagnostics.ts). */
  'zero3-save-without-gather': { domain: 'ds-config', severity: Warning, href: huggingFaceDocs.trainer },
  'client-optimizer-with-offload': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.offloadOptimizer },
  'moe-without-leaf-module': { domain: 'ds-config', severity: Warning, href: deepspeedDocs.zero },
  'teacher-deepspeed-unused': { domain: 'launch', severity: Warning, href: launchDocs.swift },
  'teacher-deepspeed-without-stage': { domain: 'launch', severity: Error, href: launchDocs.swift },
  'teacher-deepspeed-not-zero3': { domain: 'launch', severity: Information, href: launchDocs.swift },
  'preset-not-valid-here': { domain: 'launch', severity: Error, href: huggingFaceDocs.trainer },
  // launch scripts: ms-swift
  'deepspeed-with-fsdp': { domain: 'launch', severity: Error, href: launchDocs.swift, raises: `${MS_SWIFT}:swift/arguments/sft_args.py#L293-294` },
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
  'hf-trainer-config-mismatch': { domain: 'launch', severity: Error, href: huggingFaceDocs.auto },
  'launcher-num-with-include': { domain: 'launch', severity: Error, href: deepspeedDocs.launcher },
  'launcher-include-with-exclude': { domain: 'launch', severity: Error, href: deepspeedDocs.launcher },
  'launcher-multinode-without-hostfile': { domain: 'launch', severity: Warning, href: deepspeedDocs.launcher },
  'launcher-invalid-host-spec': { domain: 'launch', severity: Error, href: deepspeedDocs.launcher },
  'cuda-visible-devices-ignored': { domain: 'launch', severity: Warning, href: deepspeedDocs.launcher },
  'torchrun-invalid-value': { domain: 'launch', severity: Error, href: launchDocs.torchrun },
  'nproc-exceeds-visible-devices': { domain: 'launch', severity: Warning, href: launchDocs.torchrun },
  'accelerate-invalid-value': { domain: 'launch', severity: Error, href: huggingFaceDocs.accelerate },
  'accelerate-config-file-excludes': { domain: 'launch', severity: Error, href: huggingFaceDocs.accelerate },
  'accelerate-nvme-without-path': { domain: 'launch', severity: Warning, href: huggingFaceDocs.accelerate },
  'accelerate-flag-fills-auto': { domain: 'launch', severity: Information, href: huggingFaceDocs.accelerate },
  'llamafactory-invalid-value': { domain: 'launch', severity: Error, href: launchDocs.llamaFactory },
  'llamafactory-zero3-incompatible': { domain: 'launch', severity: Error, href: launchDocs.llamaFactory, raises: `${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L532-533` },
  'yaml-syntax-error': { domain: 'launch', severity: Warning, href: launchDocs.yaml },
  // FSDP (accelerate's fsdp_config, the Trainer's --fsdp/--fsdp_config, ms-swift's --fsdp): errors without a
  // registered `raises` link the line that raises in each case (launch/fsdp/, launch/parallel/)
  'fsdp-unknown-key': { domain: 'launch', severity: Warning, href: fsdpDocs.accelerate },
  'fsdp-invalid-value': { domain: 'launch', severity: Error, href: fsdpDocs.accelerate },
  'fsdp-ignored-by-version': { domain: 'launch', severity: Warning, href: fsdpDocs.versions },
  'fsdp-conflicting-options': { domain: 'launch', severity: Error, href: fsdpDocs.trainer },
  'fsdp-ram-efficient-loading-without-sync': { domain: 'launch', severity: Error, href: fsdpDocs.accelerate },
  'fsdp-offload-without-sharding': { domain: 'launch', severity: Warning, href: fsdpDocs.trainer },
  'fsdp-with-deepspeed': { domain: 'launch', severity: Error, href: fsdpDocs.accelerate },
  'fsdp-section-ignored': { domain: 'launch', severity: Warning, href: fsdpDocs.accelerate },
  'fsdp-activation-and-gradient-checkpointing': { domain: 'launch', severity: Error, href: fsdpDocs.trainer, raises: `${TRANSFORMERS}:src/transformers/trainer.py#L5530-5535` },
  'fsdp-config-without-fsdp': { domain: 'launch', severity: Warning, href: fsdpDocs.trainer },
  'fsdp-config-not-found': { domain: 'launch', severity: Error, href: fsdpDocs.trainer },
  // tensor, pipeline, context and expert parallel sizes against the GPUs and the model (launch/parallel/)
  'parallel-sizes-gpu-mismatch': { domain: 'launch', severity: Error, href: parallelDocs.megatronSwift },
  'parallel-size-model-mismatch': { domain: 'launch', severity: Error, href: parallelDocs.megatronSwift },
  'autotp-exceeds-kv-heads': { domain: 'launch', severity: Warning, href: deepspeedDocs.autotp },
  // the memory estimate, on a config's stage and on a script's DeepSpeed value
  'estimate-exceeds-gpu-memory': { domain: 'memory', severity: Warning, href: deepspeedDocs.zeroTutorial },
  'estimate-exceeds-cpu-memory': { domain: 'memory', severity: Warning, href: deepspeedDocs.offloadOptimizer },
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
