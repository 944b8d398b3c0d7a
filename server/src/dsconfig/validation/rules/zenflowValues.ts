import type { Diagnostic } from 'vscode-languageserver-types';
import { fix } from '../configView';
import type { Rule } from './rule';

const ZENFLOW = ['zero_optimization', 'zenflow'];

/**
 * ZenFlowConfig puts no bounds on select_interval or full_warm_up_rounds (zenflow_config.py:22,39), so values
 * below the sensible range start; they only change the schedule (zenflow/engine.py:82-90). A warning, not an error.
 */
export const zenflowUnusualValues: Rule = (config) => {
  if (!config.section(ZENFLOW)) return [];
  const out: Diagnostic[] = [];
  const select = config.number([...ZENFLOW, 'select_interval']);
  if (select !== undefined && select < 1) {
    const path = [...ZENFLOW, 'select_interval'];
    const effect = select === 0 ? config.t('turns periodic re-selection of the important columns off') : config.t('re-selects every {0} steps, as a Python modulo by a negative number still hits 0', -select);
    out.push(config.diagnostic('out-of-range', 'warning', config.valueRange(path), config.t('"select_interval": {0} {1}. DeepSpeed accepts it; write a positive interval if you meant one.', select, effect), { path, value: select }));
  }
  const warmUp = config.number([...ZENFLOW, 'full_warm_up_rounds']);
  if (warmUp !== undefined && warmUp < 0) {
    const path = [...ZENFLOW, 'full_warm_up_rounds'];
    out.push(
      config.diagnostic('out-of-range', 'warning', config.valueRange(path), config.t('"full_warm_up_rounds": {0} means no warm-up, and DeepSpeed also shifts the update schedule by it. Use 0 for no warm-up.', warmUp), {
        path,
        value: warmUp,
        fixes: [fix(config.t('Use 0'), [{ op: 'set', path, value: 0 }], true)],
      }),
    );
  }
  return out;
};

export const zenflowValueRules: Rule[] = [zenflowUnusualValues];
