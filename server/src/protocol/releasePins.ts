/**
 * Where a workspace folder's DeepSpeed release is read from (dsconfig/deepspeedRelease.ts), in one place: the
 * server reads and watches these files, and the client hands their open documents to it, so an unsaved pin counts
 * as an unsaved launch script does.
 */

/** The pin files at a workspace folder's root, in the order they are looked at. */
export const releasePinFiles = ['requirements.txt', 'requirements-train.txt', 'environment.yml', 'pyproject.toml', 'uv.lock', 'poetry.lock', 'Pipfile.lock'] as const;

export type ReleasePinFile = (typeof releasePinFiles)[number];

/**
 * The packages whose pinned release changes what ZeRO Lens says: DeepSpeed (defaults that changed between releases)
 * and TRL (GRPO's beta, 0.04 before v0.19: training/trlRelease.ts).
 */
export const pinnedPackages = ['deepspeed', 'trl'] as const;

export type PinnedPackage = (typeof pinnedPackages)[number];

/** The environments inside a workspace folder whose site-packages may hold a DeepSpeed release. */
export const releaseEnvironments = ['.venv', 'venv', 'env'] as const;

// Functions, not computed constants: a bundle that does not call them (the webview's) drops them.

/** The pin files anywhere in the workspace, as a glob (LSP 3.17 GlobPattern; VS Code's DocumentFilter pattern). */
export function releasePinGlob(): string {
  return `**/{${releasePinFiles.join(',')}}`;
}

/**
 * What the release is read from, for the editor's file watcher: the pins, and the release folder `pip install`
 * writes (pip @02f20688 src/pip/_internal/operations/install/wheel.py, _install_wheel: `dest_info_dir =
 * os.path.join(lib_dir, info_dir)`, then INSTALLER and RECORD inside it), as the folder and as its files: LSP 3.17
 * workspace/didChangeWatchedFiles.md L3 (@1c961d06) reports folders as well as files, L52-57 give the glob syntax.
 */
export function releaseWatchGlobs(): string[] {
  const releaseFolder = `**/{${releaseEnvironments.join(',')}}/lib/python3*/site-packages/{${pinnedPackages.join(',')}}-*.dist-info`;
  return [releasePinGlob(), releaseFolder, `${releaseFolder}/*`];
}
