import type { Hosts } from '../host';
import type { FeatureContributor } from '../feature';
import { complete } from './completion/complete';
import { hover } from './hover/hover';
import { validateConfigAsync } from './validation/validate';
import { codeActions } from './codeActions/codeActions';

/** The ds_config domain: validation and quick fixes, completion and hover, all from one parse per version. */
export function createDsConfigFeatures(_hosts: Hosts): FeatureContributor {
  return {
    complete,
    hover,
    validate: validateConfigAsync,
    codeActions,
  };
}
