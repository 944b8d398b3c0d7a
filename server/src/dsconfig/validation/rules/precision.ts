import type { Diagnostic } from 'vscode-languageserver-types';
import { fix, type ConfigView } from '../configView';
import type { Rule } from './rule';

/** fp16 and bf16 both on (§3.3): DeepSpeed asserts "bfloat16 and fp16 modes cannot be simultaneously enabled". */
export const fp16AndBf16: Rule = (config) => {
  const bf16 = config.bf16Key();
  if (!config.isTrue(['fp16', 'enabled']) || !config.isTrue([bf16, 'enabled'])) return [];
  // Point at whichever comes later in the file: that is usually the one just added.
  const fp16Node = config.propertyNode(['fp16', 'enabled']);
  const bf16Node = config.propertyNode([bf16, 'enabled']);
  const at = (fp16Node?.offset ?? 0) > (bf16Node?.offset ?? 0) ? ['fp16', 'enabled'] : [bf16, 'enabled'];
  return [
    config.diagnostic(
      'fp16-and-bf16',
      'error',
      config.keyRange(at),
      'fp16 and bf16 are both enabled. DeepSpeed refuses this at start ("bfloat16 and fp16 modes cannot be simultaneously enabled"); pick one: bf16 on Ampere (A100, RTX 30xx) or newer, fp16 on older GPUs.',
      {
        path: at,
        bf16Key: bf16,
        fixes: [
          fix('Keep bf16 (turn fp16 off)', [{ op: 'set', path: ['fp16', 'enabled'], value: false }], true),
          fix('Keep fp16 (turn bf16 off)', [{ op: 'set', path: [bf16, 'enabled'], value: false }]),
        ],
      },
    ),
  ];
};

const ampOff = fix('Turn Apex AMP off', [{ op: 'set', path: ['amp', 'enabled'], value: false }], true);

/** Apex AMP cannot be combined with ZeRO, fp16 or bf16 (§3.3). */
export const ampConflicts: Rule = (config) => {
  if (!config.isTrue(['amp', 'enabled'])) return [];
  const out: Diagnostic[] = [];
  const stage = config.knownStage();
  if (stage !== undefined && stage > 0) {
    out.push(
      config.diagnostic(
        'amp-with-zero',
        'error',
        config.keyRange(['amp', 'enabled']),
        `Apex AMP ("amp") does not work with ZeRO: DeepSpeed asserts "Amp and ZeRO are not currently compatible" at stage ${stage}. Use "bf16" or "fp16" instead.`,
        { path: ['amp', 'enabled'], stage, fixes: [ampOff] },
      ),
    );
  }
  const bf16 = config.bf16Key();
  const other = config.isTrue(['fp16', 'enabled']) ? 'fp16' : config.isTrue([bf16, 'enabled']) ? bf16 : undefined;
  if (other) {
    out.push(
      config.diagnostic(
        'amp-with-fp16-bf16',
        'error',
        config.keyRange(['amp', 'enabled']),
        `Apex AMP ("amp") and "${other}" are both enabled. DeepSpeed raises NotImplementedError: AMP already does the mixed precision, so use one or the other.`,
        { path: ['amp', 'enabled'], other, fixes: [ampOff, fix(`Turn ${other} off`, [{ op: 'set', path: [other, 'enabled'], value: false }])] },
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
      config.diagnostic(
        'amp-grad-accum-dtype',
        'error',
        config.valueRange(accumPath),
        `With Apex AMP the model trains in fp32, and "grad_accum_dtype" is ${accum}: DeepSpeed raises NotImplementedError ("Model data type and gradient accumulation data type must be equal to use Amp").`,
        { path: accumPath, fixes: [fix('Accumulate in fp32', [{ op: 'set', path: accumPath, value: 'fp32' }], true), fix('Remove "grad_accum_dtype"', [{ op: 'remove', path: accumPath }])] },
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
        config.diagnostic(
          'master-weights-without-zero',
          'error',
          config.keyRange(path),
          `"${path[1]}" needs ZeRO stage 1, 2 or 3; with ZeRO off DeepSpeed fails its config check (AssertionError).`,
          { path, fixes: [fix(`Turn "${path[1]}" off`, [{ op: 'set', path, value: false }])] },
        ),
      );
    }
  }
  if (config.isTrue([bf16, 'bf16_optimizer_states']) && !config.isTrue([bf16, 'bf16_master_weights_and_grads'])) {
    const path = [bf16, 'bf16_optimizer_states'];
    out.push(
      config.diagnostic(
        'bf16-optimizer-states-without-master-weights',
        'error',
        config.keyRange(path),
        '"bf16_optimizer_states" needs "bf16_master_weights_and_grads": true; DeepSpeed asserts this when it reads the config.',
        {
          path,
          fixes: [
            fix('Turn "bf16_master_weights_and_grads" on', [{ op: 'set', path: [bf16, 'bf16_master_weights_and_grads'], value: true }], true),
            fix('Turn "bf16_optimizer_states" off', [{ op: 'set', path, value: false }]),
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
    config.diagnostic('param-dtype-mismatch', 'error', config.valueRange(path), `"param_dtype" is ${dtype} but the config trains in ${mode}; DeepSpeed asserts that they match.`, {
      path,
      fixes: [fix(`Use "${mode}"`, [{ op: 'set', path, value: mode }], true)],
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
  const needs = (path: string[], what: string, needOffload: boolean) => {
    if ((!needOffload || offloaded) && cpuAdam) return;
    const missing = !offloaded && needOffload ? 'optimizer offload ("offload_optimizer": {"device": "cpu"})' : 'DeepSpeed\'s CPU Adam ("optimizer": {"type": "AdamW"} without "torch_adam")';
    out.push(
      config.diagnostic('master-weights-need-cpu-adam', 'error', config.keyRange(path), `${what} needs ${missing}; DeepSpeed asserts when it builds the ZeRO optimizer.`, {
        path,
        fixes: !offloaded && needOffload ? [fix('Offload the optimizer to the CPU', [{ op: 'set', path: ['zero_optimization', 'offload_optimizer', 'device'], value: 'cpu' }])] : [],
      }),
    );
  };
  if (config.isTrue(['fp16', 'fp16_master_weights_and_grads'])) needs(['fp16', 'fp16_master_weights_and_grads'], '"fp16_master_weights_and_grads"', true);
  if (config.isTrue([bf16, 'bf16_master_weights_and_grads']) && !config.isTrue([bf16, 'bf16_optimizer_states'])) needs([bf16, 'bf16_master_weights_and_grads'], '"bf16_master_weights_and_grads" without "bf16_optimizer_states"', true);
  const ratio = config.number(['zero_optimization', 'offload_optimizer', 'ratio']);
  if (ratio !== undefined && ratio < 1 && stage === 3 && offloaded) needs(['zero_optimization', 'offload_optimizer', 'ratio'], 'Partial optimizer offload ("ratio" < 1)', false);
  return out;
};

/** torch_autocast cannot run with ZeRO++ quantized weights (§3.3). */
export const autocastQuantizedWeights: Rule = (config) => {
  if (!config.isTrue(['torch_autocast', 'enabled']) || !config.isTrue(['zero_optimization', 'zero_quantized_weights'])) return [];
  const path = ['zero_optimization', 'zero_quantized_weights'];
  return [
    config.diagnostic('autocast-with-quantized-weights', 'error', config.keyRange(path), '"torch_autocast" and ZeRO++ quantized weights ("zero_quantized_weights") cannot be used together; DeepSpeed asserts at start.', {
      path,
      fixes: [
        fix('Turn "zero_quantized_weights" off', [{ op: 'set', path, value: false }]),
        fix('Turn "torch_autocast" off', [{ op: 'set', path: ['torch_autocast', 'enabled'], value: false }]),
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
    const when = enabled === true ? 'fp16 is on' : 'the Trainer turns fp16 on ("enabled": "auto")';
    return [
      config.diagnostic(
        'dynamic-loss-scale-setting',
        enabled === true ? 'error' : 'warning',
        config.valueRange(path),
        `"${key}" must be greater than 0 with dynamic loss scaling ("loss_scale": 0): when ${when}, DeepSpeed raises ValueError on ${value}.`,
        { path, value, fixes: [fix(`Use the default ${fallback}`, [{ op: 'set', path, value: fallback }], true)] },
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
    config.diagnostic(
      'grad-accum-dtype-without-zero',
      'error',
      config.valueRange(path),
      `"grad_accum_dtype" is ${accum} but the config trains in ${mode} without ZeRO. DeepSpeed supports other accumulation types only with ZeRO (bf16 with fp32 accumulation at stage 1) and raises NotImplementedError ("unsupported mix").`,
      {
        path,
        fixes: [
          fix(`Accumulate in ${mode}`, [{ op: 'set', path, value: mode }], true),
          ...(mode === 'bf16' && accum === 'fp32' ? [fix('Switch to ZeRO stage 1', [{ op: 'set', path: ['zero_optimization', 'stage'], value: 1 }])] : []),
        ],
      },
    ),
  ];
};

export const precisionRules: Rule[] = [fp16AndBf16, ampConflicts, masterWeights, masterWeightsNeedCpuAdam, paramDtype, autocastQuantizedWeights, dynamicLossScaleSettings, gradAccumWithoutZero];
