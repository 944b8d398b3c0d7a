import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The folder the editor has open, as a VS Code window on a project does: it holds the measured config, and every
 * document the bench opens lies in it. Until 2026-11-27 the bench opened no folder, so ZeRO Lens never looked for
 * launch scripts or a DeepSpeed pin in a workspace while it was measured.
 */
export const benchWorkspace = '/tmp/zero-lens-bench';

/** The URI of a document at `relative` in the workspace. */
export function benchUri(relative: string): string {
  return `file://${benchWorkspace}/${relative}`;
}

/** The workspace on disk: the typical config saved where the measured document is. */
export function makeBenchWorkspace(typicalText: string): void {
  mkdirSync(benchWorkspace, { recursive: true });
  writeFileSync(path.join(benchWorkspace, 'ds_config.json'), typicalText);
}
