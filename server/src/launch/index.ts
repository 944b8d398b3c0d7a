/**
 * The launch domain's public API. Other domains (the training layer, the CLI) use these to learn how a
 * DeepSpeed config is launched: which model, how many GPUs, which batch and sequence length.
 */
export type { LaunchFacts, Fact, SourceSpan, DeepSpeedReference, LauncherKind, SwiftPresetName } from './facts';
export { swiftPresetNames, isSwiftPreset, precisionOf } from './facts';
export { extractLaunchFacts, launchFactsOfText } from './references';
export { createLaunchFeatures } from './launchFeatures';
export { parseShell } from './shell/parser';
export type { ShellScript, Command, Word, Assignment } from './shell/types';
