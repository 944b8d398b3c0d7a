/**
 * A summary of the launch domain for tests and tools: how a DeepSpeed config is launched (which model, how many
 * GPUs, which batch and sequence). Inside the server each module imports the file it needs; which folders may
 * import launch/ at all is the layer check's business (.dependency-cruiser.cjs), not this file's.
 */
export type { LaunchFacts, Fact, SourceSpan, DeepSpeedReference, LauncherKind, SwiftPresetName } from './facts';
export { swiftPresetNames, isSwiftPreset, precisionOf } from './facts';
export { extractLaunchFacts, launchFactsOfText } from './references';
export { createLaunchFeatures } from './launchFeatures';
export { parseShell } from './shell/parser';
export type { ShellScript, Command, Word, Assignment } from './shell/types';
