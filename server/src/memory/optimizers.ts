import type { ModelArchitecture, OptimizerName } from './types';

/**
 * Optimizer-state bytes per trainable parameter, not counting the weights, the gradients or a master
 * copy. `statesIn16Bit` halves the floating-point states (DeepSpeed `bf16_optimizer_states`).
 * See docs/memory-model.md §"Optimizers" for where each number comes from.
 */
export interface OptimizerStateInput {
  optimizer: OptimizerName;
  statesIn16Bit: boolean;
  /** Trainable parameters. */
  trainable: number;
  architecture?: ModelArchitecture;
  /** LoRA rank when the trainable params are adapters (changes the matrix shapes Adafactor factors). */
  loraRank?: number;
  /** Embedding + untied head params among the trainable ones (Muon hands them to AdamW). */
  embeddingParams?: number;
}

/** bitsandbytes 8-bit blockwise states: one uint8 per element per state + one fp32 absmax per 256. */
export const ADAM8BIT_BYTES = 2 * (1 + 4 / 256);

export function optimizerStateBytes(i: OptimizerStateInput): number {
  const fp = i.statesIn16Bit ? 2 : 4;
  switch (i.optimizer) {
    case 'adam':
    case 'adamw':
      return 2 * fp * i.trainable;
    case 'adam8bit':
      return ADAM8BIT_BYTES * i.trainable;
    case 'sgd':
      return 0;
    case 'sgd-momentum':
    case 'lion':
    case 'adagrad': // one state: momentum, or Adagrad's running sum of squares
      return fp * i.trainable;
    case 'adafactor': {
      // Factored second moment: a row and a column vector per matrix, 4(n+m) bytes for n·m params.
      // LoRA matrices are r × d; full models are dominated by matrices with both sides ≥ hidden size.
      const h = i.architecture?.hiddenSize;
      if (i.loraRank) return 4 * i.trainable * (1 / i.loraRank + (h ? 1 / h : 0));
      return h ? (4 * i.trainable * 2) / h : 0;
    }
    case 'muon': {
      // Muon keeps one momentum buffer for 2-D hidden matrices; embeddings and the head go to AdamW.
      const adamPart = Math.min(i.embeddingParams ?? 0, i.trainable);
      return fp * (i.trainable - adamPart) + 2 * fp * adamPart;
    }
  }
}

export const optimizerNames: readonly OptimizerName[] = ['adamw', 'adam', 'adam8bit', 'sgd', 'sgd-momentum', 'lion', 'adagrad', 'adafactor', 'muon'];

/**
 * DeepSpeed / torch / bitsandbytes optimizer type names as they appear in ds_config `optimizer.type`
 * and trainer flags (`--optim adamw_torch`), mapped to the estimator's names.
 */
export function optimizerFromName(name: string): OptimizerName | undefined {
  const n = name.toLowerCase().replace(/[\s-]/g, '_');
  if (/(8bit|_8bit|bnb|paged_adamw_8|adamw_8)/.test(n) && n.includes('adam')) return 'adam8bit';
  if (n.includes('lion')) return 'lion';
  if (n.includes('adagrad')) return 'adagrad';
  if (n.includes('adafactor')) return 'adafactor';
  if (n.includes('muon')) return 'muon';
  if (n === 'sgd_momentum' || n === 'sgdm') return 'sgd-momentum';
  if (n === 'sgd') return 'sgd';
  if (n.includes('adamw')) return 'adamw';
  // DeepSpeed's Adam, OneBitAdam, ZeroOneAdam, OneBitLamb, Lamb and CPU/fused variants keep two moments.
  if (n.includes('adam') || n.includes('lamb')) return 'adam';
  return undefined;
}
