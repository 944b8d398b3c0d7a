import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { deepspeedDocs, fileDocs, fsdpDocs, huggingFaceDocs, launchDocs, parallelDocs, pythonDocs } from './docsLinks';
import { ACCELERATE, BASH, DS, LLAMA_FACTORY, MEGATRON, SWIFT, TRANSFORMERS, TRANSFORMERS_4_57 } from './upstream';

export { upstreamLink } from './upstream';

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

/** A code's row: its severity, its docs link and, for an error, the upstream line that raises. */
type Row = readonly [severity: DiagnosticSeverity, href: string, raises?: string];

/** One domain's codes, written as rows (`code: [severity, docs link, raising line]`). */
function codesOf<D extends DiagnosticDomain, K extends string>(domain: D, rows: Record<K, Row>): Record<K, CodeInfo & { domain: D }> {
  const out = {} as Record<K, CodeInfo & { domain: D }>;
  for (const code of Object.keys(rows) as K[]) {
    const [severity, href, raises] = rows[code];
    out[code] = raises === undefined ? { domain, severity, href } : { domain, severity, href, raises };
  }
  return out;
}

/**
 * Every diagnostic code ZeRO Lens emits, of every domain. Codes are public surface (CLI output, quick fixes,
 * user filters): never rename one, and keep severities and links unless DeepSpeed's behaviour changed.
 */
export const diagnosticRegistry = {
  ...codesOf('ds-config', {
    // ds_config: text level
    'json-syntax': [Error, deepspeedDocs.root, `${ACCELERATE}:src/accelerate/utils/deepspeed.py#L142-143`],
    'duplicate-key': [Error, deepspeedDocs.root, `${DS}:deepspeed/runtime/config_utils.py#L205-210`],
    'jsonc-comment': [Warning, huggingFaceDocs.configFile],
    'jsonc-trailing-comma': [Warning, huggingFaceDocs.configFile],
    'utf8-bom': [Warning, huggingFaceDocs.configFile],
    'file-too-large': [Information, deepspeedDocs.root],
    'nesting-too-deep': [Warning, deepspeedDocs.root],
    'config-not-object': [Error, deepspeedDocs.root, `${DS}:deepspeed/__init__.py#L203-210`],
    'internal-error': [Information, deepspeedDocs.root],
    'too-many-problems': [Information, deepspeedDocs.root],
    // ds_config: schema level
    'invalid-type': [Error, deepspeedDocs.root, `${DS}:deepspeed/runtime/config_utils.py#L57`],
    'invalid-value': [Warning, deepspeedDocs.root, `${DS}:deepspeed/runtime/config_utils.py#L57`],
    'out-of-range': [Warning, deepspeedDocs.root, `${DS}:deepspeed/runtime/config_utils.py#L57`],
    'missing-key': [Error, deepspeedDocs.root, `${DS}:deepspeed/runtime/engine.py#L1610`],
    'schema': [Error, deepspeedDocs.root, `${DS}:deepspeed/runtime/config_utils.py#L57`],
    'unknown-key': [Error, deepspeedDocs.root, `${DS}:deepspeed/runtime/config_utils.py#L110`],
    'ignored-key': [Warning, deepspeedDocs.root],
    'deprecated-key': [Warning, deepspeedDocs.zero],
    'deprecated-with-replacement': [Error, deepspeedDocs.zero, `${DS}:deepspeed/runtime/config_utils.py#L88-91`],
    'alias-both-set': [Error, deepspeedDocs.zero, `${DS}:deepspeed/runtime/config_utils.py#L110`],
    'ignored-at-stage': [Warning, deepspeedDocs.zero],
    'integer-fraction': [Error, deepspeedDocs.zero, `${DS}:deepspeed/runtime/config_utils.py#L57`],
    'integer-exponent-string': [Error, deepspeedDocs.zero, `${DS}:deepspeed/runtime/config_utils.py#L57`],
    'integer-as-string': [Hint, deepspeedDocs.zero],
    'integer-written-as-float': [Warning, deepspeedDocs.scheduler],
    'number-as-string': [Hint, deepspeedDocs.zero],
    'boolean-as-string': [Warning, deepspeedDocs.root, `${DS}:deepspeed/module_inject/auto_ep_config.py#L115-116`],
    'boolean-as-number': [Warning, deepspeedDocs.root, `${DS}:deepspeed/module_inject/auto_ep_config.py#L115-116`],
    'boolean-as-integer': [Warning, deepspeedDocs.root, `${DS}:deepspeed/runtime/precision_config.py#L172-173`],
    'non-finite-number': [Error, deepspeedDocs.root, `${DS}:deepspeed/runtime/precision_config.py#L130`],
    'auto-dropped': [Warning, huggingFaceDocs.auto],
    'auto-not-filled': [Error, huggingFaceDocs.auto, `${DS}:deepspeed/runtime/config.py#L985`],
    // ds_config: cross-key rules
    'batch-size-missing': [Error, deepspeedDocs.batch, `${DS}:deepspeed/runtime/config.py#L985`],
    'batch-size-mismatch': [Error, deepspeedDocs.batch, `${DS}:deepspeed/runtime/config.py#L936-940`],
    'batch-size-world-size': [Hint, deepspeedDocs.batch],
    'fp16-and-bf16': [Error, deepspeedDocs.bf16, `${DS}:deepspeed/runtime/config.py#L826-828`],
    'scheduler-argument-not-taken': [Error, deepspeedDocs.scheduler, `${DS}:deepspeed/runtime/engine.py#L1610`],
    'scheduler-needs-python': [Error, deepspeedDocs.scheduler, `${DS}:deepspeed/runtime/engine.py#L1610`],
    'enabled-key-missing': [Error, deepspeedDocs.root, `${DS}:deepspeed/runtime/config.py#L146`],
    'dynamic-loss-scale-setting': [Error, deepspeedDocs.fp16, `${DS}:deepspeed/runtime/precision_config.py#L191-196`],
    'amp-with-zero': [Error, deepspeedDocs.amp, `${DS}:deepspeed/runtime/engine.py#L1983-1985`],
    'amp-with-fp16-bf16': [Error, deepspeedDocs.amp, `${DS}:deepspeed/runtime/engine.py#L2003`],
    'amp-grad-accum-dtype': [Error, deepspeedDocs.amp, `${DS}:deepspeed/runtime/engine.py#L2000-2001`],
    'master-weights-without-zero': [Error, deepspeedDocs.bf16, `${DS}:deepspeed/runtime/config.py#L1037-1048`],
    'master-weights-need-cpu-adam': [Error, deepspeedDocs.bf16, `${DS}:deepspeed/runtime/zero/stage_1_and_2.py#L292-294`],
    'param-dtype-mismatch': [Error, deepspeedDocs.dataTypes, `${DS}:deepspeed/runtime/engine.py#L1513-1515`],
    'grad-accum-dtype-without-zero': [Error, deepspeedDocs.dataTypes, `${DS}:deepspeed/runtime/engine.py#L2021`],
    'zero-optimization-legacy-bool': [Warning, deepspeedDocs.zero],
    'bf16-optimizer-states-without-master-weights': [Error, deepspeedDocs.bf16, `${DS}:deepspeed/runtime/config.py#L1049`],
    'autocast-with-quantized-weights': [Error, deepspeedDocs.zero, `${DS}:deepspeed/runtime/torch_autocast.py#L32`],
    'offload-param-below-stage-3': [Warning, deepspeedDocs.offloadParam],
    'partial-offload-below-stage-3': [Error, deepspeedDocs.offloadOptimizer, `${DS}:deepspeed/runtime/zero/config.py#L392`],
    'nvme-without-path': [Error, deepspeedDocs.offloadOptimizer, `${DS}:deepspeed/runtime/zero/stage3.py#L791`],
    'nvme-below-stage-3': [Information, deepspeedDocs.offloadOptimizer],
    'allgather-bucket-size-odd': [Error, deepspeedDocs.zero, `${DS}:deepspeed/runtime/zero/stage_1_and_2.py#L349-351`],
    'optimizer-offload-at-stage-0': [Error, deepspeedDocs.offloadOptimizer, `${DS}:deepspeed/ops/adam/cpu_adam.py#L182-183`],
    'pipeline-loading-checkpoint-below-stage-3': [Warning, deepspeedDocs.zero],
    'stage-auto': [Warning, deepspeedDocs.zero],
    'legacy-stage1': [Error, deepspeedDocs.zero, `${DS}:deepspeed/runtime/zero/stage_1_and_2.py#L2778`],
    'optimizer-argument-not-taken': [Error, deepspeedDocs.optimizer, `${DS}:deepspeed/runtime/engine.py#L2104-2178`],
    'amsgrad-unsupported': [Error, deepspeedDocs.optimizer, `${DS}:deepspeed/ops/adam/fused_adam.py#L88`],
    'max-grad-norm-in-optimizer': [Warning, deepspeedDocs.optimizer],
    'onebit-optimizer-with-zero': [Error, deepspeedDocs.oneBit, `${DS}:deepspeed/runtime/engine.py#L2152-2159`],
    'lamb-static-loss-scale': [Error, deepspeedDocs.optimizer, `${DS}:deepspeed/runtime/engine.py#L1697-1698`],
    'untested-optimizer-with-zero': [Warning, deepspeedDocs.optimizer],
    'muon-reduce-scatter': [Error, deepspeedDocs.optimizer, `${DS}:deepspeed/runtime/zero/stage3.py#L351-352`],
    'muon-ns-method': [Error, deepspeedDocs.optimizer, `${DS}:deepspeed/runtime/zero/muon/original_muon.py#L313-314`],
    'pipeline-with-zero-2-3': [Error, deepspeedDocs.pipeline, `${DS}:deepspeed/runtime/pipe/engine.py#L76-77`],
    'pipeline-timers-without-steps-per-print': [Warning, deepspeedDocs.logging],
    'prescale-with-reduce-scatter': [Error, deepspeedDocs.communication, `${DS}:deepspeed/runtime/zero/stage3.py#L389`],
    'predivide-with-reduce-scatter': [Error, deepspeedDocs.communication, `${DS}:deepspeed/runtime/zero/stage3.py#L388`],
    'allreduce-sum-unsupported': [Error, deepspeedDocs.communication, `${DS}:deepspeed/runtime/config.py#L1031-1035`],
    'allreduce-op-invalid': [Error, deepspeedDocs.communication, `${DS}:deepspeed/runtime/config.py#L238-241`],
    'communication-data-type-invalid': [Error, deepspeedDocs.communication, `${DS}:deepspeed/runtime/config.py#L223`],
    'log-level-invalid': [Error, deepspeedDocs.logging, `${DS}:deepspeed/utils/logging.py#L187-189`],
    'tag-validation-invalid': [Error, deepspeedDocs.checkpoint, `${DS}:deepspeed/runtime/config.py#L648-650`],
    'elasticity-with-batch-keys': [Error, deepspeedDocs.elasticity, `${DS}:deepspeed/runtime/config.py#L764`],
    'elasticity-invalid': [Error, deepspeedDocs.elasticity, `${DS}:deepspeed/elasticity/elasticity.py#L352-354`],
    'curriculum-schedule-invalid': [Error, deepspeedDocs.curriculum, `${DS}:deepspeed/runtime/data_pipeline/curriculum_scheduler.py#L44-47`],
    'contiguous-memory-without-partitioning': [Warning, deepspeedDocs.activationCheckpointing],
    'unmanaged-grad-accumulation-conflict': [Error, deepspeedDocs.batch, `${DS}:deepspeed/runtime/engine.py#L1705-1713`],
    'autotp-size-mismatch': [Error, deepspeedDocs.autotp, `${DS}:deepspeed/runtime/engine.py#L730-732`],
    'tensor-parallel-dtype': [Error, deepspeedDocs.tensorParallel, `${DS}:deepspeed/runtime/tensor_parallel/config.py#L40`],
    'zenflow-needs-offload': [Error, deepspeedDocs.zenflow, `${DS}:deepspeed/runtime/zenflow/zenflow_stage_1_and_2.py#L109-110`],
    'zenflow-needs-overlap-comm': [Error, deepspeedDocs.zenflow, `${DS}:deepspeed/runtime/zenflow/zenflow_stage_1_and_2.py#L69-70`],
    'zenflow-interval-invalid': [Error, deepspeedDocs.zero, `${DS}:deepspeed/runtime/zenflow/engine.py#L36-63`],
    'deepcompile-passes-conflict': [Error, deepspeedDocs.root, `${DS}:deepspeed/runtime/engine.py#L5693-5695`],
    'deepcompile-offload-conflict': [Error, deepspeedDocs.root, `${DS}:deepspeed/compile/init_z3.py#L93-98`],
    'autoep-conflict': [Error, deepspeedDocs.root, `${DS}:deepspeed/module_inject/auto_ep_folding.py#L184-262`],
    'autotuning-metric-unsupported': [Warning, deepspeedDocs.autotuning],
    'vocabulary-size-not-multiple-of-8': [Information, deepspeedDocs.root],
    /** ds_config checks that depend on who consumes the config (estimates/consumerDiagnostics.ts). */
    'zero3-save-without-gather': [Warning, huggingFaceDocs.trainer],
    'client-optimizer-with-offload': [Warning, deepspeedDocs.offloadOptimizer],
    'moe-without-leaf-module': [Warning, deepspeedDocs.zero],
  }),
  ...codesOf('launch', {
    // launch scripts: the shell
    'crlf-line-endings': [Warning, launchDocs.carriageReturn],
    'broken-continuation': [Error, launchDocs.bashEscape, `${BASH}:execute_cmd.c#L5910-5911`],
    'trailing-space-after-backslash': [Error, launchDocs.bashEscape, `${BASH}:execute_cmd.c#L5910-5911`],
    'unterminated-quote': [Error, launchDocs.bashQuoting, `${BASH}:parse.y#L3912`],
    'unterminated-heredoc': [Warning, launchDocs.bashHeredoc],
    // launch scripts and YAML: the DeepSpeed config they name
    'unknown-deepspeed-preset': [Error, launchDocs.swift, `${SWIFT}:swift/utils/utils.py#L432-435`],
    'deepspeed-config-not-found': [Error, launchDocs.swift, `${ACCELERATE}:src/accelerate/utils/deepspeed.py#L153-155`],
    'invalid-inline-deepspeed-json': [Error, launchDocs.swift, `${ACCELERATE}:src/accelerate/utils/deepspeed.py#L153-155`],
    'inline-deepspeed-json-repaired': [Warning, launchDocs.swift],
    'deepspeed-unsupported-subcommand': [Error, launchDocs.swift, `${SWIFT}:swift/pipelines/base.py#L36-40`],
    /** Also reported in the config itself, from its training context. */
    'zero-optimization-required': [Error, huggingFaceDocs.accelerate, `${ACCELERATE}:src/accelerate/utils/dataclasses.py#L1276-1277`],
    'teacher-deepspeed-unused': [Warning, launchDocs.swift],
    'teacher-deepspeed-without-stage': [Error, launchDocs.swift, `${SWIFT}:swift/rlhf_trainers/utils.py#L341`],
    'teacher-deepspeed-not-zero3': [Information, launchDocs.swift],
    'preset-not-valid-here': [Error, huggingFaceDocs.trainer, `${ACCELERATE}:src/accelerate/utils/deepspeed.py#L153-155`],
    // launch scripts: ms-swift
    'deepspeed-with-fsdp': [Error, launchDocs.swift, `${SWIFT}:swift/arguments/sft_args.py#L293-294`],
    'cuda-devices-without-nproc': [Error, launchDocs.swift, `${SWIFT}:swift/arguments/sft_args.py#L254-257`],
    'nproc-visible-devices-mismatch': [Error, launchDocs.swift, `${SWIFT}:swift/utils/env.py#L70-71`],
    'swift-script-single-process': [Error, launchDocs.swift, `${SWIFT}:swift/arguments/sft_args.py#L254-257`],
    'swift-script-config-file': [Error, launchDocs.swift, `${SWIFT}:swift/pipelines/base.py#L36-40`],
    'env-after-command': [Error, launchDocs.swift, `${SWIFT}:swift/pipelines/base.py#L36-40`],
    'train-type-renamed': [Warning, launchDocs.swift],
    'invalid-torch-dtype': [Error, launchDocs.swift, `${SWIFT}:swift/arguments/base_args/model_args.py#L74`],
    'quant-bits-without-method': [Warning, launchDocs.swift],
    // launch scripts: the Hugging Face Trainer, launchers, accelerate, LLaMA-Factory
    'hf-script-single-process': [Warning, huggingFaceDocs.trainer],
    /** Under the HF Trainer, a config without gradient_clipping clips at DeepSpeed's default, not --max_grad_norm. */
    'max-grad-norm-not-applied': [Warning, huggingFaceDocs.auto],
    'hf-trainer-config-mismatch': [Error, huggingFaceDocs.auto, `${TRANSFORMERS}:src/transformers/integrations/deepspeed.py#L277-282`],
    'launcher-num-with-include': [Error, deepspeedDocs.launcher, `${DS}:deepspeed/launcher/runner.py#L462-464`],
    'launcher-include-with-exclude': [Error, deepspeedDocs.launcher, `${DS}:deepspeed/launcher/runner.py#L325-326`],
    'launcher-multinode-without-hostfile': [Warning, deepspeedDocs.launcher],
    'launcher-invalid-host-spec': [Error, deepspeedDocs.launcher, `${DS}:deepspeed/launcher/runner.py#L292-293`],
    'cuda-visible-devices-ignored': [Warning, deepspeedDocs.launcher],
    'torchrun-invalid-value': [Error, launchDocs.torchrun],
    'nproc-exceeds-visible-devices': [Warning, launchDocs.torchrun],
    'accelerate-invalid-value': [Error, huggingFaceDocs.accelerate, `${ACCELERATE}:src/accelerate/utils/launch.py#L549-554`],
    'accelerate-config-file-excludes': [Error, huggingFaceDocs.accelerate, `${ACCELERATE}:src/accelerate/utils/dataclasses.py#L1525-1532`],
    'accelerate-unknown-key': [Error, huggingFaceDocs.accelerate, `${ACCELERATE}:src/accelerate/commands/config/config_args.py#L154-159`],
    'accelerate-nvme-without-path': [Warning, huggingFaceDocs.accelerate],
    'accelerate-flag-fills-auto': [Information, huggingFaceDocs.accelerate],
    'llamafactory-invalid-value': [Error, launchDocs.llamaFactory, `${LLAMA_FACTORY}:src/llamafactory/hparams/finetuning_args.py#L464`],
    'llamafactory-zero3-incompatible': [Error, launchDocs.llamaFactory, `${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L532-533`],
    /** GaLore, APOLLO and BAdam under DeepSpeed; each case links the line that raises first (llamaFactoryDeepSpeed.ts). */
    'llamafactory-deepspeed-incompatible': [Error, launchDocs.llamaFactory, `${LLAMA_FACTORY}:src/llamafactory/hparams/parser.py#L518-519`],
    'yaml-syntax-error': [Warning, launchDocs.yaml],
    // FSDP (accelerate's fsdp_config, the Trainer's --fsdp/--fsdp_config, ms-swift's --fsdp) and parallel sizes: the
    // registered `raises` is the Trainer's or Megatron's line; each check links the line that raises in its own case
    // (accelerate's, ms-swift's; launch/upstream.ts)
    'fsdp-unknown-key': [Warning, fsdpDocs.accelerate],
    'fsdp-invalid-value': [Error, fsdpDocs.accelerate, `${TRANSFORMERS_4_57}:src/transformers/training_args.py#L1919-1920`],
    'fsdp-ignored-by-version': [Warning, fsdpDocs.versions],
    'fsdp-conflicting-options': [Error, fsdpDocs.trainer, `${TRANSFORMERS_4_57}:src/transformers/training_args.py#L1927-1928`],
    'fsdp-ram-efficient-loading-without-sync': [Error, fsdpDocs.accelerate, `${TRANSFORMERS_4_57}:src/transformers/training_args.py#L2032-2038`],
    'fsdp-offload-without-sharding': [Warning, fsdpDocs.trainer],
    'fsdp-with-deepspeed': [Error, fsdpDocs.accelerate, `${TRANSFORMERS_4_57}:src/transformers/trainer.py#L571-575`],
    'fsdp-section-ignored': [Warning, fsdpDocs.accelerate],
    'fsdp-activation-and-gradient-checkpointing': [Error, fsdpDocs.trainer, `${TRANSFORMERS_4_57}:src/transformers/trainer.py#L5530-5535`],
    'fsdp-config-without-fsdp': [Warning, fsdpDocs.trainer],
    'fsdp-config-not-found': [Error, fsdpDocs.trainer, `${TRANSFORMERS_4_57}:src/transformers/training_args.py#L1942-1946`],
    'fsdp-orig-params-with-lora': [Warning, fsdpDocs.peft],
    // tensor, pipeline, context and expert parallel sizes against the GPUs and the model (launch/parallel/)
    'parallel-sizes-gpu-mismatch': [Error, parallelDocs.megatronSwift, `${MEGATRON}:megatron/core/parallel_state.py#L815-823`],
    'parallel-size-model-mismatch': [Error, parallelDocs.megatronSwift, `${MEGATRON}:megatron/core/transformer/transformer_config.py#L1446-1450`],
    'autotp-exceeds-kv-heads': [Warning, deepspeedDocs.autotp],
  }),
  ...codesOf('memory', {
    // the memory estimate, on a config's stage and on a script's DeepSpeed value
    'estimate-exceeds-gpu-memory': [Warning, deepspeedDocs.zeroTutorial],
    'estimate-exceeds-cpu-memory': [Warning, deepspeedDocs.offloadOptimizer],
  }),
  ...codesOf('file', {
    // reading a file (the CLI decodes files itself; the editor decodes them for the server)
    'not-utf8': [Error, pythonDocs.unicodeDecodeError, `${ACCELERATE}:src/accelerate/utils/deepspeed.py#L142-143`],
    /** A file the document names that ZeRO Lens did not read: a named pipe or device, over its size cap, outside an untrusted workspace. */
    'file-not-read': [Warning, fileDocs.fileTypes],
    /** One domain's checks failed with an internal error; the others still ran. */
    'check-failed': [Information, fileDocs.fileTypes],
  }),
};

export type DiagnosticCode = keyof typeof diagnosticRegistry;

/** The codes one domain owns. */
export type CodeOf<D extends DiagnosticDomain> = { [C in DiagnosticCode]: (typeof diagnosticRegistry)[C]['domain'] extends D ? C : never }[DiagnosticCode];

/** Whether a code from outside (a client's diagnostic) is ours and owned by `domain`. */
export function isCodeOf<D extends DiagnosticDomain>(code: unknown, domain: D): code is CodeOf<D> {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(diagnosticRegistry, code) && diagnosticRegistry[code as DiagnosticCode].domain === domain;
}
