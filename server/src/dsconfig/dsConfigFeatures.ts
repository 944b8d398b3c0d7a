import type { Hosts } from '../host';
import type { FeatureContributor } from '../feature';

/** Scaffold: replaced by the dsconfig domain's real contributor. */
export function createDsConfigFeatures(_hosts: Hosts): FeatureContributor {
  return {};
}
