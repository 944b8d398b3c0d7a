import type { Hosts } from '../host';
import type { FeatureContributor } from '../feature';
import type { ConfigParses } from './parse';
import { complete } from './completion/complete';
import { hover } from './hover/hover';
import { validateConfigAsync } from './validation/validate';
import { codeActions } from './codeActions/codeActions';

/** The ds_config domain: validation and quick fixes, completion and hover, all from one parse per version. */
export function createDsConfigFeatures(hosts: Hosts, parses: ConfigParses, snippetEdits = false): FeatureContributor {
  return {
    name: 'DeepSpeed config',
    complete: (document, position, settings) => complete(parses, document, position, settings),
    hover: (document, position, settings) => hover(parses, document, position, settings, hosts),
    validate: (document, settings) => validateConfigAsync(parses, document, settings),
    codeActions: (document, range, context, settings, budget) => codeActions(document, range, context, settings, budget, parses, snippetEdits),
  };
}
