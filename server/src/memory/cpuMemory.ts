import type { Translate } from '../protocol/l10n';
import type { ModelStates } from './modelStates';
import type { PhaseName, RolloutSpec, ZeroStage } from './types';

/** What the CPU side of an estimate depends on; byte counts per GPU (per rank) unless named otherwise. */
export interface CpuMemoryInput {
  /** Where the model states live (modelStates.ts, fsdp.ts, Megatron's). */
  states: Pick<ModelStates, 'cpu' | 'cpuAlwaysPinned' | 'cpuAccumulationBuffer'>;
  /** Extra models and paged optimizer states kept in CPU memory. */
  extraCpu: number;
  pagedStates: number;
  perNode: number;
  stage: ZeroStage;
  torchEngine: boolean;
  /** Plain PyTorch or FSDP: DeepSpeed's offload settings do not apply. */
  torchLike: boolean;
  fsdp: boolean;
  megatron: boolean;
  computeBytes: number;
  storage: number;
  loadBytes: number;
  /** The model's parameters, and with adapters and trained extras the parameters a checkpoint holds. */
  modelParams: number;
  savedParams: number;
  zeroInit: boolean;
  gather16BitOnSave: boolean;
  pinMemory: boolean | undefined;
  gradientAccumulationSteps: number;
  rollout: RolloutSpec | undefined;
  /** GPU bytes of the trained model's weights and optimizer states, which a rollout may move to CPU. */
  gpuParams: number;
  gpuOptimizerStates: number;
}

/** CPU memory per node: the model states it holds, what is page-locked, and the total in each phase. */
export interface CpuMemory {
  params: number;
  gradients: number;
  optimizerStates: number;
  pinned: number;
  byPhase: Record<PhaseName, number>;
  notes: string[];
}

export function cpuMemoryPerNode(i: CpuMemoryInput, t: Translate): CpuMemory {
  const notes: string[] = [];
  const { perNode, stage } = i;
  const p = i.computeBytes;
  const params = Math.round(i.states.cpu.params * perNode);
  const gradients = Math.round(i.states.cpu.gradients * perNode);
  const optimizerStates = Math.round(i.states.cpu.optimizerStates * perNode);
  const steady = params + gradients + optimizerStates + Math.round((i.extraCpu + i.pagedStates) * perNode);
  const alwaysPinned = Math.round(i.states.cpuAlwaysPinned * perNode);
  if (i.states.cpuAccumulationBuffer > 0) {
    notes.push(
      t(
        "Gradient accumulation ({0} steps) with ZeRO-{1} optimizer offload: each rank keeps its partition's gradients in a CPU buffer between micro-steps (accumulated_grads_in_cpu), {2} bytes/param.",
        i.gradientAccumulationSteps,
        stage,
        p,
      ),
    );
  }
  // offload_*.pin_memory defaults to true since DeepSpeed 0.19.5 (offload_config.py).
  const pinMemory = i.fsdp ? false : i.pinMemory ?? true;
  const pinned = pinMemory ? steady : alwaysPinned;
  if (steady > 0 && !i.torchLike && !i.megatron) {
    notes.push(
      !pinMemory
        ? t('Offloaded CPU memory is pageable (pin_memory: false); NVMe swap buffers and the CPU copy of NVMe-offloaded params are always pinned.')
        : i.pinMemory === undefined
          ? t('Offloaded CPU memory is pinned (pin_memory: true, the default).')
          : t('Offloaded CPU memory is pinned (pin_memory: true).'),
    );
  }
  // Loading: without zero.Init every process materialises the whole model in CPU memory before it moves to the GPU
  // (DeepSpeed's estimators count this as 4Ψ per GPU for zero_init=0); under zero.Init a process reads one
  // checkpoint shard at a time (transformers' default max_shard_size, 5 GB).
  const storageBytes = i.modelParams * (i.torchEngine ? i.storage : Math.max(i.storage, p));
  const loadPerRank = stage === 3 && i.zeroInit ? Math.min(storageBytes, 5e9) : storageBytes;
  // FSDP under accelerate loads the checkpoint on rank 0 only (fsdp_cpu_ram_efficient_loading, its default) and
  // broadcasts it (sync_module_states): one copy per node, in the dtype it is loaded in.
  const load = i.fsdp ? Math.round(i.modelParams * i.loadBytes) : Math.round(loadPerRank * perNode);
  // Saving: the model's 16-bit weights pass through rank 0's CPU memory: save_pretrained's safetensors buffer below
  // ZeRO-3, and under ZeRO-3 the consolidated 16-bit state dict when stage3_gather_16bit_weights_on_model_save is on
  // (engine.py, _zero3_consolidated_16bit_state_dict); otherwise every rank saves its own partitions.
  const consolidates = stage < 3 || i.gather16BitOnSave;
  const save = steady + (consolidates ? Math.round(i.savedParams * p) : 0);
  const rollout = steady + (i.rollout?.offloadModel ? Math.round(i.gpuParams * perNode) : 0) + (i.rollout?.offloadOptimizer ? Math.round(i.gpuOptimizerStates * perNode) : 0);
  return {
    params,
    gradients,
    optimizerStates,
    pinned,
    byPhase: { load, 'optimizer-init': steady, 'forward-backward': steady, 'optimizer-step': steady, 'checkpoint-save': save, rollout },
    notes,
  };
}
