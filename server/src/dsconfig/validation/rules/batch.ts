import type { Diagnostic } from 'vscode-languageserver-types';
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

const allAuto = (config: ConfigView): FixSpec =>
  fix(config.t('Use "auto" for all three batch keys (filled by the Hugging Face Trainer / accelerate)'), [TB, MICRO, GAS].map((k) => ({ op: 'set' as const, path: [k], value: 'auto' })));

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
      config.diagnostic('batch-size-missing', 'error', range,
        config.t('Neither "{0}" nor "{1}" is set. DeepSpeed needs at least one of them (AssertionError at start); "{2}" alone is not enough.', TB, MICRO, GAS),
        {
          path: [],
          fixes: [
            fix(config.t('Add "{0}": "auto" (filled by the Hugging Face Trainer)', MICRO), [{ op: 'set', path: [MICRO], value: 'auto' }]),
            fix(config.t('Add "{0}": 1', MICRO), [{ op: 'set', path: [MICRO], value: 1 }]),
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
        config.diagnostic('batch-size-world-size', 'hint', range,
          worldSize === 1
            ? config.t('{0} {1} = {2} (micro batch) × {3} (accumulation) × {4}: DeepSpeed only starts with a data-parallel world size of {4} GPU.', TB, tb, micro, gas, worldSize)
            : config.t('{0} {1} = {2} (micro batch) × {3} (accumulation) × {4}: DeepSpeed only starts with a data-parallel world size of {4} GPUs.', TB, tb, micro, gas, worldSize),
          { path: [TB], trainBatchSize: tb, micro, gas, worldSize },
        ),
      ];
    }
    // The run's own GPU count when known (the launch script that uses this config, else the settings), said with
    // where it came from; else the nearest batch size DeepSpeed can start with.
    const world = config.world;
    const gpus = world?.gpus ?? Math.max(1, Math.round(tb / unit));
    const suggested = unit * gpus;
    const message = config.t('{0} ({1}) must equal {2} × {3} × data-parallel world size = {4} × {5} × N. {1} is not a multiple of {6}, so DeepSpeed fails at start for every GPU count (AssertionError).', TB, tb, MICRO, GAS, micro, gas, unit);
    const title = world
      ? config.t('Set {0} to {1} ({2} × {3} × {4})', TB, suggested, micro, gas, world.label)
      : gpus === 1
        ? config.t('Set {0} to {1} ({2} × {3} × {4} GPU)', TB, suggested, micro, gas, gpus)
        : config.t('Set {0} to {1} ({2} × {3} × {4} GPUs)', TB, suggested, micro, gas, gpus);
    return [
      config.diagnostic('batch-size-mismatch', 'error', range,
        world ? message + config.t(' With {0} it is {1}.', world.label, suggested) : message,
        {
          path: [TB],
          trainBatchSize: tb,
          micro,
          gas,
          suggested,
          ...(world && { world: world.gpus, worldSource: world.label }),
          fixes: [fix(title, [{ op: 'set', path: [TB], value: suggested }], true), allAuto(config)],
        },
      ),
    ];
  }
  const divisor = micro !== undefined ? { key: MICRO, value: micro, derived: GAS } : gas !== undefined && !given(MICRO) ? { key: GAS, value: gas, derived: MICRO } : undefined;
  if (!divisor || tb % divisor.value === 0) return [];
  const suggested = nearestMultiple(tb, divisor.value);
  return [
    config.diagnostic('batch-size-mismatch', 'error', range,
      config.t('{0} ({1}) is not a multiple of {2} ({3}). DeepSpeed derives {4} by integer division and then finds {0} ≠ {5} × {6} × world size (AssertionError).', TB, tb, divisor.key, divisor.value, divisor.derived, MICRO, GAS),
      {
        path: [TB],
        trainBatchSize: tb,
        [divisor.key === MICRO ? 'micro' : 'gas']: divisor.value,
        suggested,
        fixes: [fix(config.t('Set {0} to {1}', TB, suggested), [{ op: 'set', path: [TB], value: suggested }], true), allAuto(config)],
      },
    ),
  ];
};

export const batchRules: Rule[] = [batchTriple];

/**
 * The batch triple against a known GPU count (§2.1): DeepSpeed derives the missing keys by integer division and
 * asserts train_batch_size == micro × accumulation × data-parallel world size (runtime/config.py
 * _batch_assertion, "Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu *
 * gradient_acc_step * world_size"). Only where the data-parallel size is the GPU count: no tensor, pipeline or
 * sequence parallelism in the config (an mpu the config does not show divides it, and nothing is said then).
 */
export function batchWorldChecks(config: ConfigView, world: { gpus: number; label: string }, maybeModelParallel = false): Diagnostic[] {
  if (config.isTrue(['elasticity', 'enabled'])) return [];
  const parallel = (config.number(['tensor_parallel', 'autotp_size']) ?? 1) > 1 || (config.number(['sequence_parallel_size']) ?? 1) > 1 || config.has(['pipeline']) || config.has(['data_parallel_size']);
  if (parallel) return [];
  const tb = positiveInt(config, TB);
  if (tb === undefined) return [];
  const micro = positiveInt(config, MICRO);
  const gas = positiveInt(config, GAS);
  // What DeepSpeed derives for the keys the config leaves out (runtime/config.py _set_batch_related_parameters).
  const n = world.gpus;
  const m = micro ?? (gas !== undefined ? Math.floor(tb / n / gas) : Math.floor(tb / n));
  const g = gas ?? (micro !== undefined ? Math.floor(tb / micro / n) : 1);
  if (m > 0 && g > 0 && tb === m * g * n) return [];
  if (config.has([MICRO]) && micro === undefined) return [];
  if (config.has([GAS]) && gas === undefined) return [];
  // A batch that no GPU count multiplies out to is already an error of the config alone (batchRules).
  if (micro !== undefined && gas !== undefined && tb % (micro * gas) !== 0) return [];
  const unit = (micro ?? 1) * (gas ?? 1) * n;
  const suggested = micro !== undefined ? unit : nearestMultiple(tb, n * (gas ?? 1));
  const derived = (value: number) => config.t('{0} (derived)', value);
  const shown = `${micro ?? derived(m)} × ${gas ?? derived(g)} × ${n}`;
  // A plain deepspeed.initialize script may split the GPUs with its own mpu (Megatron, a PipelineModule): the
  // data-parallel size is then smaller than the GPU count, which the config does not show.
  const caveat = maybeModelParallel ? config.t(' (unless the training script splits the GPUs with tensor or pipeline parallelism, which makes the data-parallel size smaller)') : '';
  // Fewer samples than GPUs: DeepSpeed derives a micro batch or accumulation of 0 and asserts it is greater than 0
  // (DeepSpeed edaa7221 deepspeed/runtime/config.py:933, :935); "0 (derived) × …" would not say why.
  const message =
    tb < n
      ? config.t('{0} ({1}) is smaller than the number of GPUs, {2}: every GPU needs at least one sample, so DeepSpeed asserts at start{3}.', TB, tb, world.label, caveat)
      : config.t('{0} ({1}) must equal {2} × {3} × the data-parallel world size; with {5} that is {4} = {6}: DeepSpeed asserts at start{7}.', TB, tb, MICRO, GAS, shown, world.label, m * g * n, caveat);
  return [
    config.diagnostic('batch-size-mismatch', maybeModelParallel ? 'warning' : 'error', config.keyRange([TB]),
      message,
      {
        path: [TB],
        trainBatchSize: tb,
        world: n,
        suggested,
        fixes: [fix(config.t('Set {0} to {1}', TB, suggested), [{ op: 'set', path: [TB], value: suggested }], true), allAuto(config)],
      },
    ),
  ];
}
