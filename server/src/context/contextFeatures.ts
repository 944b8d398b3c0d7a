import type { Hosts } from '../host';
import type { FeatureContributor } from '../feature';

/** Scaffold: replaced by the context domain's real contributor. */
export function createContextFeatures(_hosts: Hosts): FeatureContributor {
  return {};
}
