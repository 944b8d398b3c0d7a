import type { Translate } from '../protocol/l10n';
import type { EstimateInput, FsdpSpec, ZeroStage } from './types';

/** Which code holds the run's tensors, as estimate() decides it from the input's engine. */
export interface RunEngine {
  /** The ZeRO stage DeepSpeed runs at; 0 for plain PyTorch, FSDP and Megatron. */
  stage: ZeroStage;
  /** Plain PyTorch (DDP or one GPU). */
  torchEngine: boolean;
  /** FSDP's spec with its defaults filled in; undefined when the run is not FSDP. */
  fsdp: FsdpSpec | undefined;
  megatron: boolean;
}

/** Bytes per element of what the run holds, and the optimizer path that follows from them. */
export interface PrecisionPlan {
  /** Compute and activation dtype. */
  computeBytes: number;
  /** The dtype the model is loaded in (torch_dtype, else the training precision). */
  loadBytes: number;
  /** The dtype the weights are stored in while training. */
  storage: number;
  /** torch.autocast over fp32 weights (AMP). */
  amp: boolean;
  /** The dtype of the trained weights (LoRA adapters, FSDP's upcast parameters). */
  trainableBytes: number;
  statesIn16Bit: boolean;
  /** DeepSpeed's master weights' dtype; 0 where the optimizer steps on the weights themselves. */
  masterDtypeBytes: number;
  /** The master copy's bytes per element where it is a copy of its own (ZeRO-3 may step on the partition). */
  masterBytes: number;
  /** The gradient copy the optimizer steps on. */
  optimizerGradBytes: number;
  /** DeepSpeed's BF16_Optimizer (usesBf16Optimizer). */
  bf16Path: boolean;
  gradAccumBytes: number;
  /** What the reader should know about the path, in the order estimate() reports it. */
  notes: string[];
}

/** Bytes per element of a training dtype. */
export const bytesOf = (p: 'bf16' | 'fp16' | 'fp32'): number => (p === 'fp32' ? 4 : 2);

/**
 * Whether DeepSpeed routes this setup to BF16_Optimizer: bf16 with fp32 gradient accumulation at ZeRO-1
 * without CPU offload (engine.py:1994, _do_optimizer_sanity_check; zero_cpu_offload() is true for device cpu
 * only, so NVMe offload still gets BF16_Optimizer, which has no offload). grad_accum_dtype defaults to the model
 * dtype; without ZeRO, bf16 with bf16 accumulation uses the FP16_Optimizer wrapper and fp32 accumulation is refused.
 */
export function usesBf16Optimizer(input: Pick<EstimateInput, 'precision' | 'stage' | 'fp32GradAccum' | 'offloadOptimizer' | 'engine'>): boolean {
  return (input.engine ?? 'deepspeed') === 'deepspeed' && input.precision === 'bf16' && input.fp32GradAccum === true && input.stage === 1 && input.offloadOptimizer !== 'cpu';
}

/**
 * What the optimizer holds, per precision path. DeepSpeed casts the module to the 16-bit dtype of its config
 * (engine.py, _configure_distributed_model: module.half()/.bfloat16()) and keeps fp32 master weights; plain PyTorch
 * keeps weights, gradients and optimizer states in the dtype the model was loaded in (torch_dtype): pure bf16 when
 * loaded in bf16, fp32 weights with 16-bit autocast (AMP) when loaded in fp32.
 * FSDP under accelerate's mixed precision keeps the trainable parameters in fp32 (accelerator.py prepare_model:
 * "Upcasted low precision parameters ... because mixed precision turned on in FSDP"; fsdp_utils.py for FSDP2) and
 * computes in the 16-bit param_dtype; without it everything stays in the dtype the model was loaded in.
 */
export function precisionPlan(input: EstimateInput, engine: RunEngine, t: Translate): PrecisionPlan {
  const { stage, torchEngine, fsdp, megatron } = engine;
  const notes: string[] = [];
  const torchLike = torchEngine || fsdp !== undefined;
  const zero = stage > 0;
  const p = bytesOf(input.precision);
  const mixed = input.precision !== 'fp32';
  const loadBytes = bytesOf(input.torchDtype ?? input.precision);
  const storage = fsdp ? (fsdp.mixedPrecision && !input.lora ? 4 : loadBytes) : torchEngine ? loadBytes : p;
  const amp = torchEngine && storage === 4 && p === 2;
  const lora = input.lora && input.lora.rank > 0 ? input.lora : undefined;
  // PEFT keeps adapters in fp32 when the base is 16-bit (tuners_utils.py, _cast_adapter_dtype with
  // autocast_adapter_dtype=True, get_peft_model's default); DeepSpeed casts them with the module.
  const trainableBytes = (torchLike && lora) || (fsdp?.mixedPrecision && mixed) ? 4 : storage;

  const bf16Master = !torchLike && input.precision === 'bf16' && zero && input.bf16MasterWeightsAndGrads === true;
  const statesIn16Bit = torchLike ? trainableBytes === 2 : input.precision === 'bf16' && zero && input.bf16OptimizerStates === true;
  const masterDtypeBytes = torchLike ? 0 : mixed ? (bf16Master ? 2 : 4) : zero ? 4 : 0;
  // ZeRO-3 steps on the weight partition itself when it already has the master dtype and stays on the GPU
  // (stage3.py, _create_fp32_partitions): fp32 training, or bf16 master weights, without optimizer offload.
  const sharedMaster = stage === 3 && input.offloadOptimizer === 'none' && (input.precision === 'fp32' || bf16Master);
  // ZeRO steps on its own copy of the shard's gradient; FP16_Optimizer on a full fp32 copy; torch on the gradient itself.
  const optimizerGradBytes = torchLike ? 0 : zero ? masterDtypeBytes : mixed ? 4 : 0;
  const bf16Path = usesBf16Optimizer({ ...input, stage, engine: input.engine ?? 'deepspeed' });
  // fp32 accumulation of a 16-bit model; data_types.grad_accum_dtype defaults to the model dtype (engine.py, get_data_types).
  const fp32Accum = !torchLike && !megatron && mixed && input.fp32GradAccum === true;
  if (!torchLike && !megatron && !zero && (input.bf16MasterWeightsAndGrads || input.bf16OptimizerStates)) {
    notes.push(t('bf16 master weights / optimizer states need ZeRO stage 1–3; ignored at stage 0.'));
  }
  if (!torchLike && !zero && fp32Accum) {
    notes.push(t('DeepSpeed refuses {0} with fp32 gradient accumulation without ZeRO (NotImplementedError); counted with {0} accumulation.', input.precision));
  }
  const accumNote = zero && fp32Accum && !bf16Path ? fp32AccumulationNote(stage, input.offloadOptimizer !== 'none', t) : undefined;
  if (accumNote) notes.push(accumNote);
  if (torchEngine) {
    notes.push(
      amp
        ? t('Plain PyTorch with {0} autocast on fp32 weights: weights, gradients and optimizer states in fp32, no separate master copy.', input.precision)
        : t("Plain PyTorch in {0}: weights, gradients and optimizer states in the model's dtype, no fp32 master copy.", input.torchDtype ?? input.precision),
    );
  }
  return {
    computeBytes: p,
    loadBytes,
    storage,
    amp,
    trainableBytes,
    statesIn16Bit,
    masterDtypeBytes,
    masterBytes: sharedMaster ? 0 : masterDtypeBytes,
    optimizerGradBytes,
    bf16Path,
    gradAccumBytes: zero && fp32Accum ? 4 : p,
    notes,
  };
}

/** Why fp32 gradient accumulation outside BF16_Optimizer costs what it does at this stage (undefined: nothing). */
function fp32AccumulationNote(stage: ZeroStage, offloaded: boolean, t: Translate): string | undefined {
  if (stage === 1) return t('fp32 gradient accumulation at ZeRO-1: every gradient is kept as an fp32 copy on the GPU until the step (param.grad_accum), 4 bytes/param instead of 2.');
  if (stage !== 3) return undefined;
  return offloaded
    ? t('fp32 gradient accumulation at ZeRO-3: the gradient partition is fp32, 4 bytes/param instead of 2 (in CPU memory under optimizer offload).')
    : t('fp32 gradient accumulation at ZeRO-3: the gradient partition is fp32, 4 bytes/param instead of 2 (on the GPU).');
}
