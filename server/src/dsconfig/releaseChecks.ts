import { compareReleases, parseRelease, type DeepSpeedRelease } from './deepspeedRelease';

/**
 * Checks whose truth changed between DeepSpeed releases: the release each holds from, read from DeepSpeed's
 * history (`git log -S` on the line that raises, and the first tag that contains the commit). Under an older
 * release the check says nothing, or what that release does; with no release known it holds (the schema's).
 */
export interface ReleaseChange {
  since: string;
  /** The pull request that made it so. */
  change: string;
  /** Text in a config without which the check cannot apply (so the release is looked up only when it may matter). */
  keys: string[];
}

export const releaseChecks = {
  /** steps_per_print's default went from 10 to None (constants.py), so PipelineEngine's timers divide by None. */
  stepsPerPrintNone: { since: '0.15.2', change: '#6602', keys: ['steps_per_print', 'wall_clock_breakdown', 'flops_profiler'] },
  /** data_types.param_dtype exists (engine.py _assert_valid_mixed_precision_config); before, data_types was a plain dict that ignored it. */
  paramDtype: { since: '0.19.2', change: '#8066', keys: ['param_dtype'] },
  /** fp16.loss_scale_window / min_loss_scale refuse a bool (precision_config.py); before, pydantic read true as 1. */
  lossScaleBool: { since: '0.19.3', change: '#8050', keys: ['loss_scale_window', 'min_loss_scale'] },
  /** WarmupLR / WarmupCosineLR test isinstance(warmup_num_steps, int) (lr_schedules.py); before, a float ran. */
  warmupStepsInt: { since: '0.19.3', change: '#8126', keys: ['warmup_num_steps'] },
  /** LRRangeTest tests isinstance(lr_range_test_step_size, int); before, a float ran. */
  rangeTestStepInt: { since: '0.19.4', change: '#8166', keys: ['lr_range_test_step_size'] },
  /** managed_gradient_accumulation exists; before, the top-level key was ignored. */
  managedGradientAccumulation: { since: '0.19.4', change: '#8184', keys: ['managed_gradient_accumulation'] },
  /** gradient_allreduce_op exists (after v0.19.5, in 0.19.6); before, the top-level key was ignored. */
  gradientAllreduceOp: { since: '0.19.6', change: '#8232', keys: ['gradient_allreduce_op'] },
} as const satisfies Record<string, ReleaseChange>;

export type ReleaseCheck = keyof typeof releaseChecks;

/** Every check's keys as a config writes them, quoted: looked for in the text on every keystroke. */
const releaseKeysQuoted: string[] = Object.values(releaseChecks).flatMap((c) => c.keys.map((key) => `"${key}"`));

/** The exactInt lines of the schema (x-deepspeed.exactInt), each with the change that added it. */
export const exactIntSince: Record<string, ReleaseCheck> = {
  'deepspeed/runtime/lr_schedules.py#L708-709': 'warmupStepsInt',
  'deepspeed/runtime/lr_schedules.py#L849-850': 'warmupStepsInt',
  'deepspeed/runtime/lr_schedules.py#L345-346': 'rangeTestStepInt',
};

/** Whether a check holds under a release: from its `since` on, or always when the release is not known. */
export function holdsUnder(check: ReleaseCheck, release: DeepSpeedRelease | undefined): boolean {
  if (!release || !parseRelease(release.version)) return true;
  return compareReleases(release.version, releaseChecks[check].since) >= 0;
}

/** Whether a config's text may meet a release-dependent check (else the release need not be looked up). */
export function mayDependOnRelease(text: string): boolean {
  return releaseKeysQuoted.some((key) => text.includes(key));
}
