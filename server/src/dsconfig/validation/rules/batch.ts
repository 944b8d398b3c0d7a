import { fix, type ConfigView } from '../configView';
import type { FixSpec } from '../fixTypes';
import type { Rule } from './rule';

const TB = 'train_batch_size';
const MICRO = 'train_micro_batch_size_per_gpu';
const GAS = 'gradient_accumulation_steps';

function positiveInt(config: ConfigView, key: string): number | undefined {
  const value = config.number([key]);
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : undefined;
}

const allAuto = (): FixSpec =>
  fix('Use "auto" for all three batch keys (filled by the Hugging Face Trainer / accelerate)', [TB, MICRO, GAS].map((k) => ({ op: 'set' as const, path: [k], value: 'auto' })));

/** Nearest multiple of `unit` to `value`, at least `unit`. */
function nearestMultiple(value: number, unit: number): number {
  return unit * Math.max(1, Math.round(value / unit));
}

/**
 * train_batch_size = micro × gradient_accumulation_steps × data-parallel world size (§2.1). The world size is
 * not in the file, so only divisibility can be decided here; the implied world size is reported as a hint.
 */
export const batchTriple: Rule = (config) => {
  // With elasticity on, DeepSpeed computes the three keys itself (see the elasticity rule).
  if (config.isTrue(['elasticity', 'enabled'])) return [];
  // DeepSpeed tests each key with `is not None`: a null is the same as leaving the key out.
  const given = (key: string) => config.has([key]) && config.get([key]) !== null;
  if (!given(TB) && !given(MICRO)) {
    const range = config.has([GAS]) ? config.keyRange([GAS]) : config.rootRange();
    return [
      config.diagnostic(
        'batch-size-missing',
        'error',
        range,
        `Neither "${TB}" nor "${MICRO}" is set. DeepSpeed needs at least one of them (AssertionError at start); "${GAS}" alone is not enough.`,
        {
          path: [],
          fixes: [
            fix(`Add "${MICRO}": "auto" (filled by the Hugging Face Trainer)`, [{ op: 'set', path: [MICRO], value: 'auto' }]),
            fix(`Add "${MICRO}": 1`, [{ op: 'set', path: [MICRO], value: 1 }]),
          ],
        },
      ),
    ];
  }
  const tb = positiveInt(config, TB);
  const micro = positiveInt(config, MICRO);
  const gas = positiveInt(config, GAS);
  if (tb === undefined) return [];
  const range = config.keyRange([TB]);

  if (micro !== undefined && gas !== undefined) {
    const unit = micro * gas;
    if (tb % unit === 0) {
      const worldSize = tb / unit;
      return [
        config.diagnostic(
          'batch-size-world-size',
          'hint',
          range,
          `${TB} ${tb} = ${micro} (micro batch) × ${gas} (accumulation) × ${worldSize}: DeepSpeed only starts with a data-parallel world size of ${worldSize} GPU${worldSize === 1 ? '' : 's'}.`,
          { path: [TB], trainBatchSize: tb, micro, gas, worldSize },
        ),
      ];
    }
    // The run's own GPU count when the settings give it; else the nearest batch size DeepSpeed can start with.
    const gpus = config.worldSize ?? Math.max(1, Math.round(tb / unit));
    const suggested = unit * gpus;
    return [
      config.diagnostic(
        'batch-size-mismatch',
        'error',
        range,
        `${TB} (${tb}) must equal ${MICRO} × ${GAS} × data-parallel world size = ${micro} × ${gas} × N. ${tb} is not a multiple of ${unit}, so DeepSpeed fails at start for every GPU count (AssertionError).`,
        {
          path: [TB],
          trainBatchSize: tb,
          micro,
          gas,
          suggested,
          fixes: [fix(`Set ${TB} to ${suggested} (${micro} × ${gas} × ${gpus} GPU${gpus === 1 ? '' : 's'})`, [{ op: 'set', path: [TB], value: suggested }], true), allAuto()],
        },
      ),
    ];
  }
  const divisor = micro !== undefined ? { key: MICRO, value: micro, derived: GAS } : gas !== undefined && !given(MICRO) ? { key: GAS, value: gas, derived: MICRO } : undefined;
  if (!divisor || tb % divisor.value === 0) return [];
  const suggested = nearestMultiple(tb, divisor.value);
  return [
    config.diagnostic(
      'batch-size-mismatch',
      'error',
      range,
      `${TB} (${tb}) is not a multiple of ${divisor.key} (${divisor.value}). DeepSpeed derives ${divisor.derived} by integer division and then finds ${TB} ≠ ${MICRO} × ${GAS} × world size (AssertionError).`,
      {
        path: [TB],
        trainBatchSize: tb,
        [divisor.key === MICRO ? 'micro' : 'gas']: divisor.value,
        suggested,
        fixes: [fix(`Set ${TB} to ${suggested}`, [{ op: 'set', path: [TB], value: suggested }], true), allAuto()],
      },
    ),
  ];
};

export const batchRules: Rule[] = [batchTriple];
