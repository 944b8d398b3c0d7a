/**
 * What each kind of quick fix does. Code that picks fixes (the preferred stage switch, the preset switches
 * that fit) goes by these, never by titles, which are worded for people and will be translated.
 */
export const fixKinds = [
  // ds_config edits, named by their ops (`fixKindOfOps`)
  'set-value',
  'remove-key',
  'rename-key',
  'delete-text',
  'edit-config',
  // the memory context's moves in a config
  'add-zero-section',
  'switch-stage',
  'offload-optimizer',
  'offload-param',
  'switch-option',
  // launch scripts and YAML
  'switch-preset',
  'change-value',
  'rename-flag',
  'add-flag',
  'remove-flag',
  'remove-entry',
  'add-nproc-per-node',
  'set-nproc-per-node',
  'move-env-before-command',
  'use-torchrun',
  'run-with-swift',
  'rewrite-json',
  'remove-blank-line',
  'move-comment-above',
  'remove-trailing-space',
] as const;

export type FixKind = (typeof fixKinds)[number];

const known = new Set<string>(fixKinds);

export function isFixKind(value: unknown): value is FixKind {
  return typeof value === 'string' && known.has(value);
}
