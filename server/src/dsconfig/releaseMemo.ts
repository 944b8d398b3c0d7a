import type { Hosts } from '../host';
import { findDeepSpeedRelease, type DeepSpeedRelease } from './deepspeedRelease';
import { sameItems } from '../util/sameItems';
import { pathOf } from '../util/paths';

/** The DeepSpeed release a document's checks run under: `setting` is zeroLens.deepspeedVersion. */
export type ReleaseOfDocument = (uri: string, setting: string | undefined) => Promise<DeepSpeedRelease | undefined>;

/**
 * A feature's release lookup: through the document's recording hosts (`hostsFor`) and a ReleaseMemo, since those
 * hosts are replaced when a file they read changes; with the plain hosts, which never are, from disk each time.
 */
export function releaseLookup(hosts: Hosts, hostsFor?: (uri: string) => Hosts): ReleaseOfDocument {
  const memo = hostsFor && new ReleaseMemo();
  return (uri, setting) => {
    const reading = hostsFor?.(uri) ?? hosts;
    const file = pathOf(uri);
    return memo ? memo.of(reading, setting, file) : findDeepSpeedRelease(reading.fs, reading.workspace.folders(), setting, file);
  };
}

/**
 * The DeepSpeed release found for an open config, kept while the hosts it was looked up through are the same
 * object: the training layer hands a document new recording hosts once a pin file or an environment they read or
 * listed changes, or settings, folders or trust change (`hostsReadingFor`). Without it each keystroke of a config
 * with a release-dependent check asked the disk for every pin file and environment again.
 */
export class ReleaseMemo {
  private readonly found = new WeakMap<Hosts, { setting: string | undefined; file: string; folders: string[]; release: Promise<DeepSpeedRelease | undefined> }>();

  of(hosts: Hosts, setting: string | undefined, file: string): Promise<DeepSpeedRelease | undefined> {
    const folders = hosts.workspace.folders();
    const held = this.found.get(hosts);
    if (held && held.setting === setting && held.file === file && sameItems(held.folders, folders)) return held.release;
    const release = findDeepSpeedRelease(hosts.fs, folders, setting, file);
    this.found.set(hosts, { setting, file, folders: [...folders], release });
    // A lookup that failed is not kept.
    release.catch(() => this.found.delete(hosts));
    return release;
  }
}
