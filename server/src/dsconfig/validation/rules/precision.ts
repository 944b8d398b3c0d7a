import type { Diagnostic } from 'vscode-languageserver-types';
import { fix, type ConfigView } from '../configView';
import type { Rule } from './rule';
import { toStage } from './stageFix';

/** fp16 and bf16 both on (§3.3): DeepSpeed asserts "bfloat16 and fp16 modes cannot be simultaneously enabled". */
export const fp16AndBf16: Rule = (config) => {
  const bf16 = config.bf16Key();
  if (!config.isTrue(['fp16', 'enabled']) || !config.isTrue([bf16, 'enabled'])) return [];
  // Point at whichever comes later in the file: that is usually the one just added.
  const fp16Node = config.propertyNode(['fp16', 'enabled']);
  const bf16Node = config.propertyNode([bf16, 'enabled']);
  const at = (fp16Node?.offset ?? 0) > (bf16Node?.offset ?? 0) ? ['fp16', 'enabled'] : [bf16, 'enabled'];
  return [
    config.diagnostic('fp16-and-bf16', 'error', config.keyRange(at),
      config.t('fp16 and bf16 are both enabled. DeepSpeed refuses this at start ("bfloat16 and fp16 modes cannot be simultaneously enabled"); pick one: bf16 on Ampere (A100, RTX 30xx) or newer, fp16 on older GPUs.'),
      {
        path: at,
        bf16Key: bf16,
        fixes: [
          fix(config.t('Keep {0} (turn {1} off)', 'bf16', 'fp16'), [{ op: 'set', path: ['fp16', 'enabled'], value: false }], true),
          fix(config.t('Keep {0} (turn {1} off)', 'fp16', 'bf16'), [{ op: 'set', path: [bf16, 'enabled'], value: false }]),
        ],
      },
    ),
  ];
};

const ampOff = (config: ConfigView) => fix(config.t('Turn Apex AMP off'), [{ op: 'set', path: ['amp', 'enabled'], value: false }], true);

/** Apex AMP cannot be combined with ZeRO, fp16 or bf16 (§3.3). */
export const ampConflicts: Rule = (config) => {
  if (!config.isTrue(['amp', 'enabled'])) return [];
  const out: Diagnostic[] = [];
  const stage = config.knownStage();
  if (stage !== undefined && stage > 0) {
    out.push(
      config.diagnostic('amp-with-zero', 'error', config.keyRange(['amp', 'enabled']),
        config.t('Apex AMP ("amp") does not work with ZeRO: DeepSpeed asserts "Amp and ZeRO are not currently compatible" at stage {0}. Use "bf16" or "fp16" instead.', stage),
        { path: ['amp', 'enabled'], stage, fixes: [ampOff(config)] },
      ),
    );
  }
  const bf16 = config.bf16Key();
  const other = config.isTrue(['fp16', 'enabled']) ? 'fp16' : config.isTrue([bf16, 'enabled']) ? bf16 : undefined;
  if (other) {
    out.push(
      config.diagnostic('amp-with-fp16-bf16', 'error', config.keyRange(['amp', 'enabled']),
        config.t('Apex AMP ("amp") and "{0}" are both enabled. DeepSpeed raises NotImplementedError: AMP already does the mixed precision, so use one or the other.', other),
        { path: ['amp', 'enabled'], other, fixes: [ampOff(config), fix(config.t('Turn {0} off', other), [{ op: 'set', path: [other, 'enabled'], value: false }])] },
      ),
    );
  }
  // Under AMP the model stays fp32 (fp16 and bf16 off), and an accumulation dtype other than the model's raises
  // NotImplementedError("Model data type and gradient accumulation data type must be equal to use Amp"),
  // engine.py:2000-2001 (_do_optimizer_sanity_check).
  const accumPath = ['data_types', 'grad_accum_dtype'];
  const written = config.get(accumPath);
  const accum = typeof written === 'string' ? dtypeSpellings[written] : undefined;
  if (!other && (stage === undefined || stage === 0) && accum && accum !== 'fp32') {
    out.push(
      config.diagnostic('amp-grad-accum-dtype', 'error', config.valueRange(accumPath),
        config.t('With Apex AMP the model trains in fp32, and "grad_accum_dtype" is {0}: DeepSpeed raises NotImplementedError ("Model data type and gradient accumulation data type must be equal to use Amp").', accum),
        { path: accumPath, fixes: [fix(config.t('Accumulate in {0}', 'fp32'), [{ op: 'set', path: accumPath, value: 'fp32' }], true), fix(config.t('Remove "{0}"', 'grad_accum_dtype'), [{ op: 'remove', path: accumPath }])] },
      ),
    );
  }
  return out;
};

/** Master-weight options need ZeRO 1–3, and bf16 optimizer states need bf16 master weights (§3.1, §3.2, §14.5). */
export const masterWeights: Rule = (config) => {
  const out: Diagnostic[] = [];
  const bf16 = config.bf16Key();
  const stage = config.knownStage();
  const options = [
    ['fp16', 'fp16_master_weights_and_grads'],
    [bf16, 'bf16_master_weights_and_grads'],
    [bf16, 'bf16_optimizer_states'],
  ];
  if (stage === 0) {
    for (const path of options) {
      if (!config.isTrue(path)) continue;
      out.push(
        config.diagnostic('master-weights-without-zero', 'error', config.keyRange(path),
          config.t('"{0}" needs ZeRO stage 1, 2 or 3; with ZeRO off DeepSpeed fails its config check (AssertionError).', path[1]),
          { path, fixes: [fix(config.t('Turn "{0}" off', path[1]), [{ op: 'set', path, value: false }])] },
        ),
      );
    }
  }
  if (config.isTrue([bf16, 'bf16_optimizer_states']) && !config.isTrue([bf16, 'bf16_master_weights_and_grads'])) {
    const path = [bf16, 'bf16_optimizer_states'];
    out.push(
      config.diagnostic('bf16-optimizer-states-without-master-weights', 'error', config.keyRange(path),
        config.t('"bf16_optimizer_states" needs "bf16_master_weights_and_grads": true; DeepSpeed asserts this when it reads the config.'),
        {
          path,
          fixes: [
            fix(config.t('Turn "{0}" on', 'bf16_master_weights_and_grads'), [{ op: 'set', path: [bf16, 'bf16_master_weights_and_grads'], value: true }], true),
            fix(config.t('Turn "{0}" off', 'bf16_optimizer_states'), [{ op: 'set', path, value: false }]),
          ],
        },
      ),
    );
  }
  return out;
};

const dtypeSpellings: Record<string, 'fp16' | 'bf16' | 'fp32' | 'int8'> = {
  fp16: 'fp16', float16: 'fp16', half: 'fp16', 'torch.float16': 'fp16',
  bf16: 'bf16', bfloat16: 'bf16', 'torch.bfloat16': 'bf16',
  fp32: 'fp32', float32: 'fp32', float: 'fp32', 'torch.float32': 'fp32',
  // DtypeEnum has int8, but no training mode is int8: as param_dtype it never matches.
  int8: 'int8', 'torch.int8': 'int8',
};

/** The training precision the config selects, or undefined while the Trainer still fills "auto". */
function precisionMode(config: ConfigView): 'fp16' | 'bf16' | 'fp32' | undefined {
  const bf16 = config.bf16Key();
  if (config.get(['fp16', 'enabled']) === 'auto' || config.get([bf16, 'enabled']) === 'auto') return undefined;
  if (config.isTrue(['fp16', 'enabled'])) return 'fp16';
  if (config.isTrue([bf16, 'enabled'])) return 'bf16';
  return 'fp32';
}

/** data_types.param_dtype must match the precision mode (§3.3); DeepSpeed reads it from 0.19.2 on. */
export const paramDtype: Rule = (config) => {
  if (!config.holds('paramDtype')) return [];
  const path = ['data_types', 'param_dtype'];
  const value = config.get(path);
  const mode = precisionMode(config);
  const dtype = typeof value === 'string' ? dtypeSpellings[value] : undefined;
  if (!dtype || !mode || dtype === mode) return [];
  return [
    config.diagnostic('param-dtype-mismatch', 'error', config.valueRange(path), config.t('"param_dtype" is {0} but the config trains in {1}; DeepSpeed asserts that they match.', dtype, mode), {
      path,
      fixes: [fix(config.t('Use "{0}"', mode), [{ op: 'set', path, value: mode }], true)],
    }),
  ];
};

/** Master-weight options and partial offload run only on DeepSpeed's CPU Adam with optimizer offload (§3.1, §3.2, §14.23). */
export const masterWeightsNeedCpuAdam: Rule = (config) => {
  const stage = config.knownStage();
  if (stage === undefined || stage === 0) return [];
  const bf16 = config.bf16Key();
  const offloaded = config.optimizerOffloaded();
  const type = config.lowerString(['optimizer', 'type']);
  // Without an optimizer block the client's optimizer decides; only DeepSpeed-built Adam/AdamW becomes CPU Adam.
  const cpuAdam = type === undefined || ((type === 'adam' || type === 'adamw') && !config.isTrue(['optimizer', 'params', 'torch_adam']));
  const out: Diagnostic[] = [];
  // `message` words the option and what it lacks: one sentence per option, so each language orders it its own way.
  const needs = (path: string[], message: (missing: string) => string, needOffload: boolean) => {
    if ((!needOffload || offloaded) && cpuAdam) return;
    const missing = !offloaded && needOffload ? config.t('optimizer offload ("offload_optimizer": {"device": "cpu"})') : config.t('DeepSpeed\'s CPU Adam ("optimizer": {"type": "AdamW"} without "torch_adam")');
    out.push(
      config.diagnostic('master-weights-need-cpu-adam', 'error', config.keyRange(path), message(missing), {
        path,
        fixes: !offloaded && needOffload ? [fix(config.t('Offload the optimizer to the CPU'), [{ op: 'set', path: ['zero_optimization', 'offload_optimizer', 'device'], value: 'cpu' }])] : [],
      }),
    );
  };
  if (config.isTrue(['fp16', 'fp16_master_weights_and_grads'])) needs(['fp16', 'fp16_master_weights_and_grads'], (missing) => config.t('"fp16_master_weights_and_grads" needs {0}; DeepSpeed asserts when it builds the ZeRO optimizer.', missing), true);
  if (config.isTrue([bf16, 'bf16_master_weights_and_grads']) && !config.isTrue([bf16, 'bf16_optimizer_states'])) needs([bf16, 'bf16_master_weights_and_grads'], (missing) => config.t('"bf16_master_weights_and_grads" without "bf16_optimizer_states" needs {0}; DeepSpeed asserts when it builds the ZeRO optimizer.', missing), true);
  const ratio = config.number(['zero_optimization', 'offload_optimizer', 'ratio']);
  if (ratio !== undefined && ratio < 1 && stage === 3 && offloaded) needs(['zero_optimization', 'offload_optimizer', 'ratio'], (missing) => config.t('Partial optimizer offload ("ratio" < 1) needs {0}; DeepSpeed asserts when it builds the ZeRO optimizer.', missing), false);
  return out;
};

/** torch_autocast cannot run with ZeRO++ quantized weights (§3.3). */
export const autocastQuantizedWeights: Rule = (config) => {
  if (!config.isTrue(['torch_autocast', 'enabled']) || !config.isTrue(['zero_optimization', 'zero_quantized_weights'])) return [];
  const path = ['zero_optimization', 'zero_quantized_weights'];
  return [
    config.diagnostic('autocast-with-quantized-weights', 'error', config.keyRange(path), config.t('"torch_autocast" and ZeRO++ quantized weights ("zero_quantized_weights") cannot be used together; DeepSpeed asserts at start.'), {
      path,
      fixes: [
        fix(config.t('Turn "{0}" off', 'zero_quantized_weights'), [{ op: 'set', path, value: false }]),
        fix(config.t('Turn "{0}" off', 'torch_autocast'), [{ op: 'set', path: ['torch_autocast', 'enabled'], value: false }]),
      ],
    }),
  ];
};

/**
 * With fp16 on and "loss_scale": 0 (dynamic scaling), DeepSpeed refuses a loss_scale_window or min_loss_scale
 * of 0 or less (precision_config.py, _validate_dynamic_loss_scale_params). With static scaling they are unused.
 */
export const dynamicLossScaleSettings: Rule = (config) => {
  const enabled = config.get(['fp16', 'enabled']);
  if (enabled !== true && enabled !== 'auto') return [];
  const lossScale = config.has(['fp16', 'loss_scale']) ? config.number(['fp16', 'loss_scale']) : 0;
  if (lossScale !== 0) return [];
  const defaults: Record<string, number> = { loss_scale_window: 1000, min_loss_scale: 1 };
  return Object.entries(defaults).flatMap(([key, fallback]) => {
    const path = ['fp16', key];
    const value = config.number(path);
    if (value === undefined || value > 0) return [];
    return [
      config.diagnostic('dynamic-loss-scale-setting', enabled === true ? 'error' : 'warning', config.valueRange(path),
        enabled === true
          ? config.t('"{0}" must be greater than 0 with dynamic loss scaling ("loss_scale": 0): when fp16 is on, DeepSpeed raises ValueError on {1}.', key, value)
          : config.t('"{0}" must be greater than 0 with dynamic loss scaling ("loss_scale": 0): when the Trainer turns fp16 on ("enabled": "auto"), DeepSpeed raises ValueError on {1}.', key, value),
        { path, value, fixes: [fix(config.t('Use the default {0}', fallback), [{ op: 'set', path, value: fallback }], true)] },
      ),
    ];
  });
};

/**
 * Without ZeRO (and without Apex AMP, which has its own check) DeepSpeed needs grad_accum_dtype to equal the
 * training dtype: any other mix is "unsupported" (engine.py, _do_optimizer_sanity_check: NotImplementedError).
 */
export const gradAccumWithoutZero: Rule = (config) => {
  const path = ['data_types', 'grad_accum_dtype'];
  const value = config.get(path);
  const accum = typeof value === 'string' ? dtypeSpellings[value] : undefined;
  const mode = precisionMode(config);
  if (!accum || !mode || accum === mode || config.knownStage() !== 0 || config.isTrue(['amp', 'enabled'])) return [];
  return [
    config.diagnostic('grad-accum-dtype-without-zero', 'error', config.valueRange(path),
      config.t('"grad_accum_dtype" is {0} but the config trains in {1} without ZeRO. DeepSpeed supports other accumulation types only with ZeRO (bf16 with fp32 accumulation at stage 1) and raises NotImplementedError ("unsupported mix").', accum, mode),
      {
        path,
        fixes: [
          fix(config.t('Accumulate in {0}', mode), [{ op: 'set', path, value: mode }], true),
          ...(mode === 'bf16' && accum === 'fp32' ? [toStage(config, 1)] : []),
        ],
      },
    ),
  ];
};

export const precisionRules: Rule[] = [fp16AndBf16, ampConflicts, masterWeights, masterWeightsNeedCpuAdam, paramDtype, autocastQuantizedWeights, dynamicLossScaleSettings, gradAccumWithoutZero];
