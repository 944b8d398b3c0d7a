import type { Diagnostic } from 'vscode-languageserver-types';
import { fix, type ConfigView } from '../configView';
import type { Rule } from './rule';

const LOCO = ['zero_optimization', 'zeropp_loco_param'];

/** The values DeepSpeed's docstring suggests (zero/config.py:330-339); the code itself has no defaults. */
const documented = { err_beta: 0.8, reset_T: 1024 } as const;

/**
 * zeropp_loco_param is a free-form dict read only by qgZ's LoCo reduce: stage 3 with zero_quantized_gradients
 * across nodes (zero/stage3.py:1807-1810). It indexes both keys without a default (comm/coalesced_collectives.py:110-111).
 */
function locoInUse(config: ConfigView): boolean {
  const stage = config.stage();
  return (stage === 3 || stage === 'auto') && !!config.section(LOCO) && config.isTrue(['zero_optimization', 'zero_quantized_gradients']);
}

function missingKeys(config: ConfigView): Diagnostic[] {
  return (Object.keys(documented) as (keyof typeof documented)[])
    .filter((key) => !config.has([...LOCO, key]))
    .map((key) =>
      config.diagnostic('missing-key', 'warning', config.keyRange(LOCO),
        config.t('"zeropp_loco_param" has no "{0}", and DeepSpeed has no default for it: qgZ\'s LoCo reduce reads loco_param[\'{0}\'] and fails with KeyError at the first gradient reduction across nodes.', key),
        { path: LOCO, missing: [key], fixes: [fix(config.t('Add "{0}": {1} (the documented value)', key, documented[key]), [{ op: 'set', path: [...LOCO, key], value: documented[key] }], true)] },
      ),
    );
}

/** DeepSpeed does not check the ranges (a plain dict), so a value outside the documented one is only suspicious. */
function outsideDocumentedRange(config: ConfigView): Diagnostic[] {
  const out: Diagnostic[] = [];
  const beta = config.number([...LOCO, 'err_beta']);
  if (beta !== undefined && (beta < 0 || beta > 1)) {
    const path = [...LOCO, 'err_beta'];
    out.push(config.diagnostic('out-of-range', 'warning', config.valueRange(path), config.t('"err_beta" is a moving-average coefficient, documented between 0 and 1; DeepSpeed does not check it and uses {0} as given.', beta), { path, value: beta }));
  }
  const resetT = config.number([...LOCO, 'reset_T']);
  if (resetT !== undefined && resetT < 1) {
    const path = [...LOCO, 'reset_T'];
    out.push(config.diagnostic('out-of-range', 'warning', config.valueRange(path), config.t('"reset_T" counts gradient reductions between resets of the error buffer, documented as about 1024; with {0} DeepSpeed clears the buffer at nearly every reduction, so LoCo\'s error feedback does little.', resetT), { path, value: resetT }));
  }
  return out;
}

export const zeroppLocoParam: Rule = (config) => (locoInUse(config) ? [...missingKeys(config), ...outsideDocumentedRange(config)] : []);

export const zeroppLocoRules: Rule[] = [zeroppLocoParam];
