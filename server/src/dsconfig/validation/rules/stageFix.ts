import { fix, type ConfigView } from '../configView';
import type { FixSpec } from '../fixTypes';

/** The quick fix many rules offer: set zero_optimization.stage, titled in the reader's language. */
export const toStage = (config: ConfigView, stage: number): FixSpec =>
  fix(config.t('Switch to ZeRO stage {0}', stage), [{ op: 'set', path: ['zero_optimization', 'stage'], value: stage }]);
