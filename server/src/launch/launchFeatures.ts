import type { Hosts } from '../host';
import type { FeatureContributor } from '../feature';

/** Scaffold: replaced by the launch domain's real contributor. */
export function createLaunchFeatures(_hosts: Hosts): FeatureContributor {
  return {};
}
