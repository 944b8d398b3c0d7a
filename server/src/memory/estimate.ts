import { activationBytes, type ActivationBreakdown } from './activations';
import { CUDA_CONTEXT_BYTES, NCCL_BYTES, reservedBytes, variableLengthBytes } from './allocator';
import { bufferBytes, resolveBuffers } from './buffers';
import { frozenWeightBytes, largestQuantizedLinear, loraAdaptedWeights, loraInputWidths, loraLargestParam, loraLargestParamRough, loraTrainableParams, loraTrainableParamsRough } from './lora';
import { modelStates } from './modelStates';
import { optimizerStateBytes } from './optimizers';
import { countParams, type ParamCount } from './paramCount';
import type { EstimateInput, EstimateResult, FsdpSpec, GpuTerms, OffloadDevice, PhaseEstimate, PhaseName, StageOption, ZeroStage } from './types';
import { optionLabel } from '../protocol/options';
import { english, type Translate } from '../protocol/l10n';
import { fsdpDefaults, fsdpLabel, fsdpStates, wrapUnits } from './fsdp';
import { parallelShare } from './modelParallel';
import { GiB } from './units';
import { bytesOf, precisionPlan } from './precisionPlan';
import { extraModelBytes, trainedApart } from './extraModels';
import { colocatedVllm, rolloutTerms, vllmBytesIn } from './rollout';
import { cpuMemoryPerNode } from './cpuMemory';

/**
 * The estimator: per-GPU, per-node CPU and NVMe bytes for one training setup, phase by phase. Pure arithmetic
 * over the input, no I/O, a few microseconds. docs/memory-model.md explains every term and names its source.
 *
 * The peak is the largest phase: model loading, optimizer creation, forward + backward, the optimizer step,
 * checkpoint saving (and the rollout of RLHF). Each phase sums what is live in it; `reserved` adds what the
 * caching allocator keeps from the other phases (allocator.ts); `total` adds the CUDA context and NCCL, and is
 * what 'fits' is judged on.
 */

const zeroTerms = (): GpuTerms => ({ params: 0, gradients: 0, optimizerStates: 0, activations: 0, buffers: 0, temporaries: 0, extraModels: 0, allocated: 0 });

function withSum(t: Omit<GpuTerms, 'allocated'>): GpuTerms {
  const allocated = t.params + t.gradients + t.optimizerStates + t.activations + t.buffers + t.temporaries + t.extraModels;
  return { ...t, allocated };
}

/** Bytes an optimizer's foreach step needs besides its states: one state-sized temporary (torch `_multi_tensor_adamw`: `exp_avg_sq_sqrt = torch._foreach_sqrt(...)`). */
function foreachWorkspacePerElement(optimizer: EstimateInput['optimizer'], stateBytes: number): number {
  switch (optimizer) {
    case 'adam':
    case 'adamw':
    case 'lion': // `_multi_tensor_lion`-style updates build sign(·) of a state-sized interpolation
    case 'adagrad': // std = foreach_sqrt(state_sums)
      return stateBytes;
    default:
      // SGD (in place), bitsandbytes 8-bit (fused kernels), Adafactor (factored, row/column sized), Muon (per matrix)
      return 0;
  }
}

/** `t`: the language of the notes (English by default); the numbers do not depend on it. */
export function estimate(input: EstimateInput, t: Translate = english): EstimateResult {
  const notes: string[] = [];
  const errsHigh: string[] = [];
  const model = input.model;
  const arch = model.architecture;
  const engine = input.engine ?? 'deepspeed';
  const torchEngine = engine === 'torch';
  // FSDP steps a plain torch optimizer on its shards: no DeepSpeed master copy, the shard is the master.
  const fsdp = engine === 'fsdp' ? fsdpDefaults(input.fsdp) : undefined;
  const megatron = engine === 'megatron';
  const torchLike = torchEngine || fsdp !== undefined;
  const parallel = input.modelParallel && (megatron || input.modelParallel.kind === 'autotp') ? input.modelParallel : undefined;
  const stage: ZeroStage = torchLike || megatron ? 0 : input.stage;
  const gpus = Math.max(1, input.gpusPerNode) * Math.max(1, input.nodes);
  const perNode = Math.max(1, input.gpusPerNode);
  const zero = stage > 0;
  if ((torchLike || megatron) && input.stage > 0 && !fsdp) notes.push(t('Without DeepSpeed there is no ZeRO: every GPU holds the whole model, its gradients and optimizer states.'));
  // Measured runs with FSDP's CPU offload hold more on the GPU than the terms below count (docs/memory-model.md §11a).
  if (fsdp?.offloadParams) notes.push(t("FSDP with CPU offload: the allocator's pool can grow beyond what this estimate counts (it came to 0.70–1.04 of published peaks but one ms-swift run's, of which it is 0.34, and at batch 1 to 0.81 of a sharded run measured here, whose pool kept what FSDP's setup had cached); leave headroom."));

  // ---- What the optimizer holds, per precision path (precisionPlan.ts) ---------------------------------------
  const plan = precisionPlan(input, { stage, torchEngine, fsdp, megatron }, t);
  notes.push(...plan.notes);
  const p = plan.computeBytes; // compute / activation bytes
  const { storage, amp, trainableBytes, statesIn16Bit, masterDtypeBytes, masterBytes, optimizerGradBytes, bf16Path, gradAccumBytes, loadBytes } = plan;
  const lora = input.lora && input.lora.rank > 0 ? input.lora : undefined;

  // ---- Trainable vs frozen parameters ---------------------------------------------------------------------
  let counts: ParamCount | undefined;
  const frozenExtra = Math.min(Math.max(0, input.frozenParams ?? 0), model.totalParams);
  let trainable = model.totalParams - frozenExtra;
  let weightBytes = model.totalParams * storage;
  let adapters = 0;
  if (lora) {
    counts = arch ? countParams(arch) : undefined;
    adapters = arch ? loraTrainableParams(arch, lora) : loraTrainableParamsRough(model.totalParams, lora);
    if (!arch) notes.push(t('LoRA adapter size is a rough guess: the model has no architecture facts.'));
    weightBytes = frozenWeightBytes(counts, model.totalParams, storage, lora) + adapters * trainableBytes;
    // Without an architecture, which weights the adapters wrap is unknown: all of the base counts as trained (errs high).
    trainable = adapters + (lora.baseTrains ? model.totalParams - (arch ? loraAdaptedWeights(arch, lora) : 0) : 0);
  }
  const baseTrains = !lora || lora.baseTrains === true;
  // PPO trains a value model with the policy, in one optimizer (TRL's PolicyAndValueWrapper).
  const trainedExtras = (input.extraModels ?? []).filter((m) => m.trainable && !trainedApart(m, stage));
  const extraTrainable = trainedExtras.reduce((sum, m) => sum + m.model.totalParams, 0);
  trainable += extraTrainable;
  weightBytes += extraTrainable * storage;
  const totalParams = model.totalParams + adapters + extraTrainable;
  // The largest parameter the optimizer holds: ZeRO-1/2 take it over bit16_groups, the trainable params
  // (stage_1_and_2.py:379-385, 558-567). The largest layer's weight for full fine-tuning, an adapter with LoRA.
  let largestTrainable = Math.min(model.largestLayerParams, trainable);
  if (lora && !lora.baseTrains) largestTrainable = arch ? loraLargestParam(arch, lora) : loraLargestParamRough(model.totalParams, lora);

  const needsEmbedding = input.optimizer === 'muon';
  if (needsEmbedding && !counts && arch) counts = countParams(arch);
  let optimizerStates = optimizerStateBytes({
    optimizer: input.optimizer,
    statesIn16Bit,
    trainable,
    architecture: arch,
    loraRank: lora?.rank,
    embeddingParams: !baseTrains ? 0 : counts ? counts.embedding + counts.lmHead : 0,
  });
  // torch keeps fp32 states for fp32 adapters: optimizerStateBytes with statesIn16Bit false already does.

  const buffers = resolveBuffers(stage, input.buffers);
  const offloadOptimizer: OffloadDevice = zero ? input.offloadOptimizer : 'none';
  const offloadParam: OffloadDevice = stage === 3 ? input.offloadParam : 'none';
  if (!torchLike && !megatron && !zero && input.offloadOptimizer !== 'none') notes.push(t('Optimizer offload needs ZeRO stage 1 or higher; ignored at stage 0.'));
  if (!torchLike && !megatron && stage !== 3 && input.offloadParam !== 'none') notes.push(t('Parameter offload exists only at ZeRO stage 3; ignored.'));
  if (bf16Path && input.offloadOptimizer === 'nvme') notes.push(t('BF16_Optimizer has no offload (DeepSpeed keeps the ZeRO optimizer only for offload device cpu); NVMe offload ignored.'));
  else if (zero && stage < 3 && input.offloadOptimizer === 'nvme') notes.push(t('NVMe offload needs ZeRO stage 3; counted as CPU offload.'));
  if (bf16Path) notes.push(t('bf16 with fp32 gradient accumulation uses DeepSpeed BF16_Optimizer: a full fp32 gradient buffer per GPU.'));

  // bitsandbytes' paged optimizers keep their states in CUDA unified memory (cudaMallocManaged), which the driver
  // pages out to CPU memory under pressure: outside torch's pool and never the cause of an OOM. Counted in CPU RAM.
  const pagedStates = input.pagedOptimizer === true && offloadOptimizerFor(input, stage) === 'none' ? optimizerStates / (torchLike || stage === 0 ? 1 : gpus) : 0;
  if (pagedStates > 0) notes.push(t('Paged optimizer: its states live in CUDA unified memory and page out to CPU when the GPU is full; counted in CPU RAM, not on the GPU.'));
  // ---- Tensor, pipeline and expert parallelism: the share of the model one GPU holds ---------------------------
  let dataParallel = gpus;
  let activationSplit = 1;
  if (parallel) {
    counts ??= arch ? countParams(arch) : undefined;
    const share = parallelShare(parallel, gpus, counts, arch, model.totalParams, model.largestLayerParams);
    const fraction = share.paramsPerGpu / Math.max(1, model.totalParams);
    weightBytes *= fraction;
    trainable *= fraction;
    optimizerStates *= fraction;
    largestTrainable = Math.min(largestTrainable, share.largestLayerPerGpu);
    // Megatron's distributed optimizer shards dense weights over DP and experts over the expert DP group.
    const expertShare = share.paramsPerGpu > 0 ? share.expertParamsPerGpu / share.paramsPerGpu : 0;
    dataParallel = 1 / ((1 - expertShare) / share.dataParallel + expertShare / share.expertDataParallel);
    activationSplit = share.activationSplit;
  }
  const fsdpInfo = fsdp
    ? fsdpStates({
        spec: fsdp,
        gpusPerNode: input.gpusPerNode,
        nodes: input.nodes,
        trainable,
        trainableBytes,
        frozenBytes: Math.max(0, weightBytes - trainable * trainableBytes),
        optimizerStates: pagedStates > 0 ? 0 : optimizerStates,
        computeBytes: p,
        units: wrapUnits(arch, (counts ??= arch ? countParams(arch) : undefined), model.totalParams, model.largestLayerParams),
        trainableShare: lora ? trainable / Math.max(1, model.totalParams) : 1,
        totalParams: model.totalParams,
      })
    : undefined;
  const states = fsdpInfo?.states ?? (megatron ? megatronStates(weightBytes, trainable, optimizerStates, parallel?.distributedOptimizer === false ? 1 : dataParallel, parallel?.offloadOptimizer === true) : modelStates({
    stage,
    precision: input.precision,
    weightBytes,
    trainable,
    elementBytes: torchEngine ? trainableBytes : p,
    gradAccumBytes,
    masterBytes,
    optimizerGradBytes,
    optimizerStates: pagedStates > 0 ? 0 : optimizerStates,
    bf16OptimizerPath: bf16Path,
    gradientAccumulationSteps: input.gradientAccumulationSteps,
    gpus: torchEngine ? 1 : dataParallel,
    offloadOptimizer,
    offloadParam,
    subGroupSize: buffers.subGroupSize,
    maxParamsInCpu: buffers.maxParamsInCpu,
    largestLayerParams: model.largestLayerParams,
    largestTrainableParam: largestTrainable,
  }));

  // ---- Activations ----------------------------------------------------------------------------------------
  const attention = input.attention ?? (input.flashAttention ? 'sdpa' : 'eager');
  const sequenceParallel = Math.max(1, input.sequenceParallel ?? 1) * activationSplit;
  let act: ActivationBreakdown | undefined;
  if (arch) {
    act = activationBytes({
      architecture: arch,
      microBatch: input.microBatch,
      seqLen: input.seqLen,
      bytes: p,
      attention,
      gradientCheckpointing: input.gradientCheckpointing,
      loss: input.loss,
      lossTokens: input.lossTokens,
      sequenceParallel,
      sequencesPerSample: input.sequencesPerSample,
      trainableNorms: baseTrains && frozenExtra === 0,
      trainableHead: baseTrains,
      loraInputs: lora ? loraInputsOf(arch, lora, trainableBytes) : undefined,
    });
  } else {
    notes.push(t('Activations not counted: give a model id or folder so its layers are known.'));
  }
  // A trained value model (PPO) runs its own forward on the same sequences.
  // A trained extra counted apart (its own engine) runs its forward and backward too: its activations count the same.
  const activationScale = 1 + (arch ? (input.extraModels ?? []).filter((m) => m.trainable).reduce((s, m) => s + m.model.totalParams / model.totalParams, 0) : 0);
  const actBackward = (act?.backwardPeak ?? 0) * activationScale;
  const actTail = (act?.tail ?? 0) * activationScale;
  // torch.autocast caches the 16-bit copy of every weight it casts for the rest of the forward, and the matmuls
  // save it for backward (aten/src/ATen/autocast_mode.cpp, cached_casts): one 16-bit copy of the weights.
  const autocastCopies = amp ? model.totalParams * p : 0;
  // A quantised base has no 16-bit weight to multiply with: bitsandbytes dequantises the whole weight for each matmul,
  // in the forward pass and again for the input's gradient (autograd/_functions.py, 0.43–0.49: MatMul4Bit.forward
  // `F.dequantize_4bit(B, quant_state).to(A.dtype)`, MatMul4Bit.backward likewise; MatMul8bitLt.backward
  // `state.CB.to(ctx.dtype_A, copy=True)`). The largest one is live while a layer runs, not at the loss.
  const dequantized = lora?.quantBits && arch ? largestQuantizedLinear(arch) * p : 0;
  const layerWorkspace = act && dequantized > 0 ? Math.max(0, act.layerBackward * activationScale + dequantized - actBackward) : 0;
  if (arch && !input.packing && input.seqLenIsUpperBound !== false) {
    errsHigh.push(t('every sample is assumed to fill {0} tokens (max_length); shorter data need less activation memory', input.seqLen));
  }
  if (input.loss === 'chunked') notes.push(t('Chunked cross-entropy: the fp32 upcast of the logits exists one chunk at a time (torchtune CEWithChunkedOutputLoss, 8 chunks).'));
  if (input.loss === 'liger') notes.push(t("liger's fused linear cross-entropy: the logits are never materialised."));
  if ((input.sequenceParallel ?? 1) > 1) notes.push(t("Sequence parallel {0}: each GPU holds 1/{1} of every sequence's activations.", input.sequenceParallel ?? 1, sequenceParallel));

  // ---- Buffers ----------------------------------------------------------------------------------------------
  const noBuffers = { persistent: 0, forwardBackward: 0, gathered: 0, afterStep: 0 };
  // FSDP gathers wrap units instead of filling DeepSpeed buckets; Megatron reduces into its gradient buffer itself.
  const buffer = fsdpInfo?.buffers ?? (megatron ? noBuffers : bufferBytes({
    stage,
    buffers,
    elementBytes: p,
    trainable,
    totalParams,
    largestLayerParams: model.largestLayerParams,
    paramElementBytes: p,
    // BF16_Optimizer ignores NVMe offload (see above).
    offloadOptimizer: bf16Path ? 'none' : offloadOptimizer,
    largestTrainableParam: largestTrainable,
  }));
  // DistributedDataParallel's reducer allocates flat buckets for every gradient at construction and keeps them
  // (torch/csrc/distributed/c10d/reducer.cpp, initialize_buckets; gradient_as_bucket_view defaults to False, so
  // param.grad is a second copy).
  const ddpBuckets = torchEngine && input.ddp && gpus > 1 ? trainable * trainableBytes : 0;
  // DeepSpeed without ZeRO all-reduces the gradients after backward through flat buckets of
  // reduce_bucket_size elements (engine.py, allreduce_gradients → buffered_allreduce_fallback).
  const stage0Bucket = !torchLike && !megatron && stage === 0 && gpus > 1 ? Math.min(trainable, buffers.reduceBucketSize) * p : 0;

  // ---- Extra models (RLHF, distillation; extraModels.ts) -------------------------------------------------
  const extras = extraModelBytes(input.extraModels ?? [], { stage, gpus, computeBytes: p, offloadOptimizer: input.offloadOptimizer });
  const extraGpu = extras.gpu;
  const extraCpu = extras.cpu;
  const rollout = input.rollout;
  // vLLM colocated on the training GPUs (rollout.ts).
  const vllm = colocatedVllm(rollout, input.gpuMemoryBytes, t);
  notes.push(...vllm.notes);

  // ---- Phases -----------------------------------------------------------------------------------------------
  const gpu = states.gpu;
  const persistentGradients = gpu.gradients;
  const persistentParams = gpu.params;
  const persistentOptimizer = gpu.optimizerStates;
  const persistentBuffers = buffer.persistent + ddpBuckets;
  const stepWorkspacePerElement = torchLike ? foreachWorkspacePerElement(input.optimizer, statesIn16Bit ? 2 : 4) : foreachWorkspacePerElement(input.optimizer, masterDtypeBytes || p);
  // DeepSpeed builds FusedAdam (or DeepSpeedCPUAdam under offload) from a config's optimizer block (engine.py:2095-2140);
  // with no block the HF Trainer hands it torch's AdamW (integrations/deepspeed.py, deepspeed_optim_sched), whose
  // implementation is foreach unless `--optim adamw_torch_fused` (the HF default from torch 2.8 on).
  const fused = input.optimizerKernel === 'fused' || input.optimizer === 'adam8bit';
  const stepElements = torchEngine ? trainable : states.stepElements;
  const optimizerWorkspace = fused ? 0 : stepWorkspacePerElement * stepElements;
  if (input.optimizerKernel === undefined && optimizerWorkspace > 0) {
    errsHigh.push(t("the optimizer's kernel is unknown: counted as torch's foreach AdamW, whose step needs a state-sized temporary (fused kernels need none)"));
  }

  const largestLayerBytes = model.largestLayerParams * p;
  const persistent = (): Omit<GpuTerms, 'allocated'> => ({
    params: persistentParams,
    gradients: persistentGradients,
    optimizerStates: persistentOptimizer,
    activations: 0,
    buffers: persistentBuffers,
    temporaries: 0,
    extraModels: extraGpu,
  });

  // Loading. ZeRO-3 under zero.Init creates each parameter partitioned and gathers one module at a time to load
  // its weights (transformers modeling_utils, _load_state_dict_into_zero3_model: GatheredParameters per module).
  const zeroInit = input.zeroInit ?? true;
  // FSDP moves the model to the GPU one unit at a time and shards it there (device_id, sync_module_states).
  const loadParams = fsdpInfo ? persistentParams + fsdpInfo.loadSaveGather : stage === 3 ? (offloadParam === 'none' ? weightBytes / gpus : 0) + largestLayerBytes : weightBytes;
  const load = withSum({ ...zeroTerms(), params: loadParams, extraModels: extraGpu });

  // Optimizer creation: ZeRO-1/2 build the flat 16-bit groups after moving the weights to CPU
  // (stage_1_and_2.py:406, "move all the parameters to cpu to free up accelerator memory for creating flat buffer"),
  // then the fp32 partition; initialize_optimizer_states adds a zero fp32 gradient for it (stage_1_and_2.py:837-853).
  // Optimizer states themselves are created lazily in the first step (torch, FusedAdam).
  const stateDivisor = torchEngine ? 1 : fsdpInfo ? fsdpInfo.shardGroup : dataParallel;
  const stateShare = persistentOptimizer > 0 ? optimizerStates / stateDivisor : 0;
  const init = withSum({ ...persistent(), optimizerStates: Math.max(0, persistentOptimizer - stateShare), temporaries: states.stepGradient });

  // Forward + backward. Early in backward: every activation, the fp32 gradient of the logits and the output head's
  // gradient (when it trains); late: every gradient plus one layer's activations.
  const backwardGradients = torchEngine ? trainable * trainableBytes : states.backwardGradients;
  // At ZeRO-3 this is also the buffers' largest-layer gradient when the head is the largest layer: counted twice
  // on purpose until a GPU measurement says what coexists (docs/memory-model.md §7, "A known overlap").
  const headGrad = baseTrains && arch ? Math.min(arch.vocabSize * arch.hiddenSize * (torchEngine ? trainableBytes : p), Math.max(backwardGradients, arch.vocabSize * arch.hiddenSize * p)) : 0;
  const early = actBackward + layerWorkspace + autocastCopies + headGrad;
  const late = backwardGradients + actTail + dequantized + stage0Bucket;
  const earlyWins = early >= late;
  const forwardBackward = withSum({
    ...persistent(),
    gradients: persistentGradients + (earlyWins ? headGrad : backwardGradients),
    activations: earlyWins ? actBackward + autocastCopies : actTail,
    buffers: persistentBuffers + buffer.forwardBackward + (earlyWins ? 0 : stage0Bucket),
    temporaries: earlyWins ? layerWorkspace : dequantized,
  });

  // Optimizer step: the gradients it steps with and its workspaces. ZeRO converts a flattened copy of the rank's
  // 16-bit gradients to fp32 (one sub-group at a time at stage 3); torch steps on the gradients themselves.
  const residual = torchEngine ? backwardGradients : bf16Path || stage === 3 ? 0 : stage === 1 ? states.backwardGradients / gpus : states.backwardGradients;
  const stepGradients = persistentGradients + residual + states.stepGradient;
  const stepTemporaries = Math.max(states.stepFlatten, optimizerWorkspace);
  let step = withSum({ ...persistent(), gradients: stepGradients, temporaries: stepTemporaries });
  // ZeRO-1/2 all-gather the updated partitions once the fp32 copy is gone (stage_1_and_2.py, all_gather_dp_groups).
  const gatherAfter = withSum({ ...persistent(), buffers: persistentBuffers + buffer.afterStep });
  if (gatherAfter.allocated > step.allocated) step = gatherAfter;

  // Saving a checkpoint: ZeRO-3 with stage3_gather_16bit_weights_on_model_save gathers one module at a time
  // (engine.py, _zero3_consolidated_16bit_state_dict: GatheredParameters per module, copied to rank 0's CPU).
  // FSDP's state dict gathers the root and one unit at a time; AutoTP gathers each split layer back for the 16-bit save
  // (GatherReplacedLayerParams).
  const saveGather = fsdpInfo ? fsdpInfo.loadSaveGather : stage === 3 ? largestLayerBytes : parallel?.kind === 'autotp' ? largestLayerBytes : 0;
  const save = withSum({ ...persistent(), buffers: persistentBuffers + saveGather });

  const named: Array<[PhaseName, GpuTerms]> = [
    ['load', load],
    ['optimizer-init', init],
    ['forward-backward', forwardBackward],
    ['optimizer-step', step],
    ['checkpoint-save', save],
  ];

  // Rollout: what generation holds (rollout.ts); a colocated vLLM's share is added below, as in every phase.
  if (rollout) named.push(['rollout', withSum(rolloutTerms(persistent(), rollout, arch, { computeBytes: p, stage, totalParams }))]);

  // ---- Reserved, context, total -----------------------------------------------------------------------------
  // The pool the training cycle (forward + backward, step) builds; phases outside the cycle add to it only where
  // they need more than it holds.
  const cycleAllocated = Math.max(forwardBackward.allocated, step.allocated);
  const reservedSteady = reservedBytes({
    persistent: persistentParams + persistentGradients + persistentOptimizer + persistentBuffers + extraGpu,
    backwardGradients,
    activations: actBackward + autocastCopies,
    // The dequantised weights come in the same few shapes every step, like a gather buffer's.
    forwardBackwardBuffers: buffer.forwardBackward + stage0Bucket + dequantized,
    stepTransient: stepGradients - persistentGradients - residual + stepTemporaries,
    stepFitsInActivationBlocks: act ? stepFits(input, arch!, act, torchLike, stage, trainableBytes, Math.max(states.stepGradient, states.stepFlatten, optimizerWorkspace)) : true,
    gradientCheckpointing: input.gradientCheckpointing,
    peakAllocated: cycleAllocated,
    sideStreamPools: fsdpInfo?.sideStreamPool,
    fsdp,
    fragmentation: input.fragmentation,
  });
  // zeroLens.cudaContextGiB / --cuda-context override everything outside torch's pool (context, kernels, NCCL).
  const nccl = input.ncclBytes ?? (gpus > 1 ? NCCL_BYTES : 0);
  const outside = input.cudaContextBytes ?? CUDA_CONTEXT_BYTES + nccl;
  // Variable-length data grow the pool beyond what one step needs; the allocator gives that back before it fails,
  // so it counts up to the card (when the rest fits) and never decides 'fits'.
  const fixedLength = input.fixedLength === true || input.packing === true || input.fragmentation !== undefined;
  const growth = variableLengthBytes(actBackward + autocastCopies, input.gradientCheckpointing, fixedLength);
  const required = reservedSteady + outside;
  const room = input.gpuMemoryBytes !== undefined && required <= input.gpuMemoryBytes ? input.gpuMemoryBytes - required : Infinity;
  const cycleGrowth = Math.min(growth, room);
  if (growth > 0) {
    const about = Math.round((growth / 2 ** 30) * 10) / 10;
    notes.push(
      cycleGrowth < growth
        ? t("Variable-length data: the allocator's pool grows past one step's needs as longer batches arrive (about {0} GiB here, up to the card: it frees that cache before an allocation could fail); packing or PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True avoid most of it.", about)
        : t("Variable-length data: the allocator's pool grows past one step's needs as longer batches arrive (about {0} GiB here); packing or PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True avoid most of it.", about),
    );
  }
  const phases: PhaseEstimate[] = named.map(([phase, terms]) => {
    // max_memory_reserved never falls: once the first step has run, every phase sees the steady pool. Loading and
    // optimizer creation come before it and hold what they allocate.
    // A colocated vLLM that sleeps is woken after the trainer empties torch's cache (ms-swift rollout_mixin.py:1188-1191,
    // aggressive_empty_cache() before engine.wake_up), so the rollout holds only what is live in it.
    const emptied = phase === 'rollout' && rollout?.engine === 'vllm-colocate' && (rollout.sleepLevel ?? 0) > 0;
    const torchReserved = phase === 'load' || phase === 'optimizer-init' || emptied ? terms.allocated : Math.max(terms.allocated, reservedSteady) + cycleGrowth;
    // vLLM's memory is its own pool (outside torch's caching allocator): live in the rollout, and between rollouts
    // unless it sleeps.
    const vllmBytes = vllmBytesIn(vllm, phase);
    const rounded = {} as GpuTerms;
    for (const key of ['params', 'gradients', 'optimizerStates', 'activations', 'buffers', 'temporaries', 'extraModels', 'allocated'] as const) rounded[key] = Math.round(terms[key]);
    rounded.extraModels += Math.round(vllmBytes);
    rounded.allocated += Math.round(vllmBytes);
    const reserved = Math.round(torchReserved + vllmBytes);
    return { phase, ...rounded, reserved, total: Math.round(reserved + outside), cpu: 0 };
  });

  // ---- CPU per node (cpuMemory.ts) -----------------------------------------------------------------------------
  const cpu = cpuMemoryPerNode(
    {
      states,
      extraCpu,
      pagedStates,
      perNode,
      stage,
      torchEngine,
      torchLike,
      fsdp: fsdp !== undefined,
      megatron,
      computeBytes: p,
      storage,
      loadBytes,
      modelParams: model.totalParams,
      savedParams: totalParams,
      zeroInit,
      gather16BitOnSave: buffers.gather16BitOnSave,
      pinMemory: input.pinMemory,
      gradientAccumulationSteps: input.gradientAccumulationSteps,
      rollout,
      gpuParams: persistentParams,
      gpuOptimizerStates: persistentOptimizer,
    },
    t,
  );
  notes.push(...cpu.notes);
  for (const ph of phases) ph.cpu = cpu.byPhase[ph.phase];
  // The phase that sets the peak: the largest total; among equals (the pool of the cycle), the one that allocates most.
  const peak = phases.reduce((best, ph) => (ph.total > best.total || (ph.total === best.total && ph.allocated > best.allocated) ? ph : best), phases[0]);
  const cpuPeak = phases.reduce((best, ph) => (ph.cpu > best.cpu ? ph : best), phases[0]);

  const total = peak.total;
  const allocatedPeak = Math.max(...phases.map((ph) => ph.allocated));
  const reserved = Math.max(...phases.map((ph) => ph.reserved));
  return {
    perGpu: {
      params: peak.params,
      gradients: peak.gradients,
      optimizerStates: peak.optimizerStates,
      activations: peak.activations,
      buffers: peak.buffers,
      temporaries: peak.temporaries,
      extraModels: peak.extraModels,
      allocated: allocatedPeak,
      peakPhase: peak.phase,
      reserved,
      allocatorCache: Math.max(0, reserved - peak.allocated),
      cudaContext: Math.round(outside),
      overhead: Math.round(total - peak.allocated),
      total,
    },
    phases,
    perCpu: { params: cpu.params, gradients: cpu.gradients, optimizerStates: cpu.optimizerStates, total: cpuPeak.cpu, pinned: cpu.pinned, peakPhase: cpuPeak.cpu > 0 ? cpuPeak.phase : null },
    nvme: Math.round(states.nvme * perNode),
    // The growth under variable lengths stops at the card (see above), so this judges what one step needs.
    fits: input.gpuMemoryBytes === undefined ? null : total <= input.gpuMemoryBytes,
    notes,
    errsHigh,
    params: { total: totalParams, trainable },
  };
}

/**
 * Whether the optimizer step's workspaces fit in blocks the activations leave cached (allocator.ts): a request
 * reuses a cached block only when one block is large enough. torch's foreach temporaries come one per parameter
 * (typically an MLP matrix, h·I elements); ZeRO's are flat, one per partition or sub-group. The gradients
 * produced during backward take the freed logits blocks first where they are per-parameter tensors (plain
 * PyTorch, ZeRO-0/1), so there only the layers' blocks remain: the saved layer inputs (s·b·h) under
 * checkpointing, the MLP's s·b·I tensors without.
 */
function stepFits(input: EstimateInput, arch: NonNullable<EstimateInput['model']['architecture']>, act: ActivationBreakdown, torchEngine: boolean, stage: ZeroStage, storage: number, largestStepPiece: number): boolean {
  const p = bytesOf(input.precision);
  const inter = arch.moe ? arch.moe.moeIntermediateSize : arch.intermediateSize;
  const layerBlock = input.gradientCheckpointing ? p * act.tokens * arch.hiddenSize : p * act.tokens * inter;
  if (torchEngine) return arch.hiddenSize * inter * storage <= layerBlock;
  const logitsBlock = (input.loss ?? 'standard') === 'standard' ? 4 * act.tokens * arch.vocabSize : (input.loss === 'chunked' ? (4 * act.tokens * arch.vocabSize) / 8 : 0);
  const largestBlock = stage >= 2 ? Math.max(layerBlock, logitsBlock) : layerBlock;
  return largestStepPiece <= largestBlock;
}

function loraInputsOf(arch: NonNullable<EstimateInput['model']['architecture']>, lora: NonNullable<EstimateInput['lora']>, adapterBytes: number) {
  const widths = loraInputWidths(arch, lora);
  return { perLinearWidth: widths.perLinear, uniqueWidth: widths.unique, castBytes: adapterBytes, dropout: (lora.dropout ?? 0) > 0 };
}

function offloadOptimizerFor(input: EstimateInput, stage: ZeroStage): OffloadDevice {
  return stage > 0 ? input.offloadOptimizer : 'none';
}

/**
 * Megatron-Core's model states on one GPU (its share of the model already taken): bf16 weights, the fp32 main-gradient
 * buffer allocated at init and kept (distributed/param_and_grad_buffer.py; `accumulate_allreduce_grads_in_fp32` under
 * bf16), fp32 main parameters and Adam states sharded over data parallel by the distributed optimizer
 * (optimizer/distrib_optimizer.py), or moved to CPU by `optimizer_cpu_offload`. Gradients accumulate straight into
 * the buffer (gradient_accumulation_fusion), the step is a fused Adam: no transient gradients or workspaces.
 */
function megatronStates(weightBytes: number, trainable: number, optimizerStates: number, dataParallel: number, offload: boolean): ReturnType<typeof modelStates> {
  const shard = (4 * trainable + optimizerStates) / Math.max(1, dataParallel);
  return {
    gpu: { params: weightBytes, gradients: 4 * trainable, optimizerStates: offload ? 0 : shard },
    backwardGradients: 0,
    stepGradient: 0,
    stepFlatten: 0,
    stepElements: 0,
    cpu: { params: 0, gradients: 0, optimizerStates: offload ? shard : 0 },
    cpuAlwaysPinned: 0,
    cpuAccumulationBuffer: 0,
    nvme: 0,
  };
}

const stageChoices: Array<[ZeroStage, OffloadDevice, OffloadDevice]> = [
  [0, 'none', 'none'],
  [1, 'none', 'none'],
  [1, 'cpu', 'none'],
  [2, 'none', 'none'],
  [2, 'cpu', 'none'],
  [3, 'none', 'none'],
  [3, 'cpu', 'none'],
  [3, 'cpu', 'cpu'],
];

/**
 * The same setup at every stage: stages 0–3, CPU optimizer offload at 1–3, CPU param offload at 3. A run without
 * DeepSpeed (engine torch) keeps its own engine in the stage-0 row; the other rows are what DeepSpeed would hold.
 */
export function estimateAllOptions(input: EstimateInput, t: Translate = english): StageOption[] {
  return stageChoices.map(([stage, offloadOptimizer, offloadParam]) => {
    // A run under FSDP or Megatron is compared with what DeepSpeed would hold; plain PyTorch keeps its own row.
    const engine = stage === 0 && input.engine === 'torch' ? 'torch' : 'deepspeed';
    return {
      stage,
      offloadOptimizer,
      offloadParam,
      label: stage === 0 && engine === 'torch' ? torchLabel(input, t) : optionLabel({ stage, offloadOptimizer, offloadParam }, t),
      // overlap_comm's default depends on the stage, so a user's explicit value is kept and the rest re-derived.
      result: estimate({ ...input, stage, offloadOptimizer, offloadParam, engine }, t),
    };
  });
}

/** An FSDP strategy with its estimate, beside the ZeRO options. */
export interface FsdpOptionResult {
  spec: FsdpSpec;
  label: string;
  result: EstimateResult;
}

/**
 * The same setup under PyTorch FSDP: FULL_SHARD, SHARD_GRAD_OP and FULL_SHARD with CPU offload (HYBRID_SHARD on
 * several nodes), keeping the run's own FSDP version and precision policy when it runs FSDP, and accelerate's
 * defaults (FSDP1, mixed precision unless the run trains in fp32) otherwise. The run's own strategy is added when
 * the list lacks it.
 */
export function estimateFsdpOptions(input: EstimateInput, t: Translate = english): FsdpOptionResult[] {
  const own = input.engine === 'fsdp' ? fsdpDefaults(input.fsdp) : undefined;
  const base = own ?? fsdpDefaults({ mixedPrecision: input.precision !== 'fp32' });
  const specs: FsdpSpec[] = [
    { ...base, strategy: 'FULL_SHARD', offloadParams: false },
    { ...base, strategy: 'SHARD_GRAD_OP', offloadParams: false },
    { ...base, strategy: 'FULL_SHARD', offloadParams: true },
  ];
  if (input.nodes > 1) specs.push({ ...base, strategy: 'HYBRID_SHARD', offloadParams: false });
  if (own && !specs.some((s) => sameFsdp(s, own))) specs.push(own);
  // DeepSpeed keeps the weights in the training dtype; FSDP holds them in the dtype the model was loaded in.
  const torchDtype = input.engine === 'fsdp' || input.engine === 'torch' ? input.torchDtype : undefined;
  return specs.map((spec) => ({ spec, label: fsdpLabel(spec, t), result: estimate({ ...input, engine: 'fsdp', fsdp: spec, torchDtype, modelParallel: undefined }, t) }));
}

export function sameFsdp(a: Pick<FsdpSpec, 'strategy' | 'offloadParams'>, b: Pick<FsdpSpec, 'strategy' | 'offloadParams'>): boolean {
  return a.strategy === b.strategy && a.offloadParams === b.offloadParams;
}

/** The stage-0 row of a run without DeepSpeed. */
export function torchLabel(input: Pick<EstimateInput, 'ddp' | 'gpusPerNode' | 'nodes'>, t: Translate = english): string {
  return input.gpusPerNode * input.nodes > 1 ? t('DDP (no DeepSpeed)') : t('One GPU (no DeepSpeed)');
}

export { GiB };
