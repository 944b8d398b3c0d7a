import { missing, textOf, type FileSystemHost } from '../host';
import { folderHolding, joinPath } from '../util/paths';
import { english, type Translate } from '../l10n';
import { releaseEnvironments, releasePinFiles, type PinnedPackage, type ReleasePinFile } from '../protocol/releasePins';

/**
 * The DeepSpeed release a workspace runs, and the defaults that changed between releases. The schema reflects
 * DeepSpeed at edaa7221 (0.19.6-dev); a user on an older cluster runs an older release, so a hover says which
 * release a default belongs to and gives the one of the user's release when it is known.
 */

export interface DeepSpeedRelease {
  version: string;
  /** Where it was found: `zeroLens.deepspeedVersion`, `requirements.txt`, `.venv/…/deepspeed-0.14.4.dist-info`. */
  source: string;
}

/** The release the schema's defaults describe (version.txt at edaa7221). */
export const schemaRelease = '0.19.6';

/** `0.19.3` → [0, 19, 3]; undefined for text that is no release. */
export function parseRelease(text: string): number[] | undefined {
  const m = /^\s*v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

export function compareReleases(a: string, b: string): number {
  const x = parseRelease(a) ?? [0, 0, 0];
  const y = parseRelease(b) ?? [0, 0, 0];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** A default DeepSpeed changed: the value from `since` on, and the one before it. */
export interface ChangedDefault {
  since: string;
  value: unknown;
  before: unknown;
  change: string;
}

/** Dotted paths whose default changed, with the pull request that changed it (read from DeepSpeed's history). */
export const changedDefaults: Record<string, ChangedDefault> = {
  // runtime/constants.py GRADIENT_CLIPPING_DEFAULT: 0.0 → 1.0, "Default gradient_clipping to 1.0 (#8068)", first in v0.19.3.
  gradient_clipping: { since: '0.19.3', value: 1, before: 0, change: '#8068' },
  // runtime/zero/offload_config.py pin_memory: False → True, first in v0.19.5.
  'zero_optimization.offload_param.pin_memory': { since: '0.19.5', value: true, before: false, change: 'v0.19.5' },
  'zero_optimization.offload_optimizer.pin_memory': { since: '0.19.5', value: true, before: false, change: 'v0.19.5' },
};

/** The default of a key under a release, with the words that say which release it belongs to. */
export function releaseDefault(path: string, schemaDefault: unknown, release: DeepSpeedRelease | undefined, t: Translate = english): { value: unknown; note?: string } {
  const changed = changedDefaults[path];
  if (!changed) return { value: schemaDefault };
  const show = (v: unknown) => `\`${JSON.stringify(v)}\``;
  if (!release || !parseRelease(release.version)) {
    return { value: changed.value, note: t('{0} from DeepSpeed {1} on ({2}); {3} before. Set `zeroLens.deepspeedVersion` or pin deepspeed in requirements.txt to see yours.', show(changed.value), changed.since, changed.change, show(changed.before)) };
  }
  const newer = compareReleases(release.version, changed.since) >= 0;
  const value = newer ? changed.value : changed.before;
  const since = newer ? t('since {0}', changed.since) : t('{0} only from {1} on', show(changed.value), changed.since);
  return { value, note: t('{0} in DeepSpeed {1} ({2}); {3} ({4}).', show(value), release.version, release.source, since, changed.change) };
}

/**
 * `deepspeed==0.14.4`, `deepspeed[autotuning]==0.14.4` (PEP 508 extras), conda's `deepspeed=0.14.4` in an environment
 * file, `deepspeed = "0.14.4"`, `name = "deepspeed"\nversion = "0.14.4"` (lock files); the same for trl.
 */
function pinPattern(file: ReleasePinFile, name: PinnedPackage): RegExp {
  const extras = `${name}\\s*(?:\\[[^\\]]*\\])?`;
  const patterns: Record<ReleasePinFile, string> = {
    'requirements.txt': `^\\s*${extras}\\s*===?\\s*v?([\\d.]+)`,
    'requirements-train.txt': `^\\s*${extras}\\s*===?\\s*v?([\\d.]+)`,
    'environment.yml': `^\\s*-\\s*${extras}\\s*={1,3}\\s*v?([\\d.]+)`,
    'pyproject.toml': `["']${extras}\\s*===?\\s*v?([\\d.]+)["']|^\\s*${name}\\s*=\\s*["']=*\\s*v?([\\d.]+)["']`,
    'uv.lock': `name\\s*=\\s*"${name}"\\s*\\n\\s*version\\s*=\\s*"([\\d.]+)"`,
    'poetry.lock': `name\\s*=\\s*"${name}"\\s*\\n\\s*version\\s*=\\s*"([\\d.]+)"`,
    'Pipfile.lock': `"${name}"\\s*:\\s*\\{[^}]*"version"\\s*:\\s*"==([\\d.]+)"`,
  };
  return new RegExp(patterns[file], 'im');
}

/**
 * The release a workspace pins or has installed: the setting first; then an exact pin in a requirements or lock
 * file at a workspace root; then an environment inside the workspace (`.venv`, `venv`, `env`:
 * lib/python3.X/site-packages/deepspeed-X.Y.Z.dist-info). A range (`deepspeed>=0.12`) says no release.
 * With `file`, only the workspace folder holding it is searched (its settings are that folder's too); a file
 * outside every folder searches them all.
 */
export function findDeepSpeedRelease(fs: FileSystemHost, folders: string[], setting: string | undefined, file?: string): Promise<DeepSpeedRelease | undefined> {
  if (setting && parseRelease(setting)) return Promise.resolve({ version: setting.trim().replace(/^v/, ''), source: 'zeroLens.deepspeedVersion' });
  return findPinnedRelease(fs, folders, 'deepspeed', file);
}

/** The release of `name` the pin files or an environment of the workspace folder holding `file` say, as above. */
export async function findPinnedRelease(fs: FileSystemHost, folders: string[], name: PinnedPackage, file?: string): Promise<DeepSpeedRelease | undefined> {
  const holding = file === undefined ? undefined : folderHolding(file, folders);
  // Made only where an environment is found: most keystrokes of a config look in no site-packages.
  let distInfo: RegExp | undefined;
  for (const folder of holding ? [holding] : folders) {
    for (const pins of releasePinFiles) {
      const text = textOf(await fs.readFile(joinPath(folder, pins), 'requirements').catch(() => missing));
      const m = text ? pinPattern(pins, name).exec(text) : null;
      const version = m?.[1] ?? m?.[2];
      if (version) return { version, source: pins };
    }
    for (const env of releaseEnvironments) {
      const lib = joinPath(folder, `${env}/lib`);
      const pythons = (await fs.listDir(lib).catch(() => undefined)) ?? [];
      for (const python of pythons.filter((p) => /^python3/.test(p))) {
        const sitePackages = joinPath(lib, `${python}/site-packages`);
        const entries = (await fs.listDir(sitePackages).catch(() => undefined)) ?? [];
        distInfo ??= new RegExp(`^${name}-([\\d.]+)\\.dist-info$`, 'i');
        const info = entries.map((e) => distInfo!.exec(e)).find((m) => m);
        if (info) return { version: info[1], source: `${env}/lib/${python}/site-packages/${info[0]}` };
      }
    }
  }
  return undefined;
}
