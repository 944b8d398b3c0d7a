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
    const effect = select === 0 ? 'turns periodic re-selection of the important columns off' : 're-selects every ' + -select + ' steps, as a Python modulo by a negative number still hits 0';
    out.push(config.diagnostic('out-of-range', 'warning', config.valueRange(path), `"select_interval": ${select} ${effect}. DeepSpeed accepts it; write a positive interval if you meant one.`, { path, value: select }));
  }
  const warmUp = config.number([...ZENFLOW, 'full_warm_up_rounds']);
  if (warmUp !== undefined && warmUp < 0) {
    const path = [...ZENFLOW, 'full_warm_up_rounds'];
    out.push(
      config.diagnostic('out-of-range', 'warning', config.valueRange(path), `"full_warm_up_rounds": ${warmUp} means no warm-up, and DeepSpeed also shifts the update schedule by it. Use 0 for no warm-up.`, {
        path,
        value: warmUp,
        fixes: [fix('Use 0', [{ op: 'set', path, value: 0 }], true)],
      }),
    );
  }
  return out;
};

export const zenflowValueRules: Rule[] = [zenflowUnusualValues];
