import type { Hosts } from '../host';
import type { FeatureContributor } from '../feature';
import type { ConfigParses } from './parse';
import { complete } from './completion/complete';
import { hover } from './hover/hover';
import { validateConfigAsync } from './validation/validate';
import { WalkMemo } from './validation/walkMemo';
import { SectionErrorsMemo } from './validation/sectionErrors';
import { RuleMemo } from './validation/ruleMemo';
import { codeActions } from './codeActions/codeActions';
import { releaseLookup } from './releaseMemo';
import { mayDependOnRelease } from './releaseChecks';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ZeroLensSettings } from '../settings';
import type { WorldSize } from './validation/worldSize';

/**
 * The run's world size for a config (from its training context: the launch script that uses it, else the settings),
 * injected by the facade, since the training layer sits above this domain.
 */
export type WorldOf = (document: TextDocument, settings: ZeroLensSettings) => Promise<WorldSize | undefined>;

/**
 * The ds_config domain: validation and quick fixes, completion and hover, all from one parse per version. Without
 * `worldOf` the world-size rules take the GPU count from the settings alone. `hostsFor` records what a document's
 * checks read (the DeepSpeed release's pin files and environments), so a change there checks it again; it hands
 * new hosts once that changed, and the release found is kept until then.
 */
export function createDsConfigFeatures(hosts: Hosts, parses: ConfigParses, snippetEdits = false, worldOf?: WorldOf, hostsFor?: (uri: string) => Hosts): FeatureContributor {
  // The schema walk's findings per object, ajv's per section and each rule's, taken over by the next version where an
  // edit left what they read as it was.
  const memo = { walks: new WalkMemo(), sections: new SectionErrorsMemo(), rules: new RuleMemo() };
  // Validation and hover read it through the same hosts, so a hover on a key whose default changed between releases
  // asks no disk either.
  const releaseOf = releaseLookup(hosts, hostsFor);
  const releaseFor = (document: TextDocument, settings: ZeroLensSettings) => releaseOf(document.uri, settings.deepspeedVersion);
  return {
    name: 'DeepSpeed config',
    complete: (document, position, settings) => complete(parses, document, position, settings),
    hover: (document, position, settings) => hover(parses, document, position, settings, () => releaseFor(document, settings)),
    // The release is looked up only when the config has a check whose truth depends on it.
    validate: async (document, settings, budget) => {
      const release = mayDependOnRelease(document.getText()) ? await releaseFor(document, settings) : undefined;
      // The world size comes from the estimate's analysis: should that fail (it is reported as its own check-failed),
      // the DeepSpeed checks still run, with the settings' world size.
      let world: WorldSize | undefined;
      try {
        world = worldOf ? await worldOf(document, settings) : undefined;
      } catch {
        world = undefined;
      }
      // Awaited rather than handed on: an async function that returns a promise pays for one more promise job.
      return await validateConfigAsync(parses, document, settings, release, budget, memo, world);
    },
    // "Fix all" validates again, with the world size the diagnostics had, so its batch fix is theirs.
    codeActions: (document, range, context, settings, budget) =>
      codeActions(document, range, context, settings, budget, parses, snippetEdits, worldOf && (() => worldOf(document, settings).catch(() => undefined))),
  };
}
