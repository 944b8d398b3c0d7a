import type { ExtraModel, OffloadDevice, ZeroStage } from './types';

/** A trained extra model with an engine of its own below the run's stage (DeepSpeed-Chat's critic): counted apart. */
export function trainedApart(extra: ExtraModel, stage: ZeroStage): boolean {
  return extra.trainable === true && extra.stage !== undefined && extra.stage < stage;
}

/**
 * Bytes per GPU, and per GPU in CPU memory, of the models a run holds besides the one it trains (RLHF's reference
 * and reward models, a distillation teacher, a critic with an engine of its own). A trained extra the run's own
 * optimizer steps (PPO's value model) is counted with the trained model instead.
 */
export function extraModelBytes(
  extras: readonly ExtraModel[],
  run: { stage: ZeroStage; gpus: number; computeBytes: number; offloadOptimizer: OffloadDevice },
): { gpu: number; cpu: number } {
  const { stage, gpus, computeBytes: p } = run;
  let gpu = 0;
  let cpu = 0;
  for (const extra of extras) {
    if (trainedApart(extra, stage)) {
      // Its own engine at a lower stage (DeepSpeed-Chat's critic): 16-bit weights and gradients, an fp32 master, Adam's
      // two moments and the fp32 gradient ZeRO steps on, each partitioned as its stage does; the states on the CPU
      // under the run's optimizer offload, which stage 0 ignores.
      const n = extra.model.totalParams;
      const own = extra.stage ?? 0;
      const share = (from: ZeroStage) => (own >= from ? n / gpus : n);
      gpu += share(3) * p + share(2) * p;
      if (own > 0 && run.offloadOptimizer !== 'none') cpu += share(1) * 16;
      else gpu += share(1) * 16;
      continue;
    }
    if (extra.trainable) continue;
    // TRL prepares frozen models with the run's DeepSpeed config (trl/models/utils.py, prepare_deepspeed): under
    // ZeRO-3 they are partitioned like the trained model; otherwise every GPU holds them whole, in 16-bit.
    const w = extra.model.totalParams * p;
    const sharded = extra.sharded ?? stage === 3;
    // offload_param is read at ZeRO-3 only (DeepSpeed-Chat's frozen models below it stay on the GPU).
    if (extra.offloaded && sharded) cpu += w / gpus;
    else gpu += sharded ? w / gpus : w;
  }
  return { gpu, cpu };
}
