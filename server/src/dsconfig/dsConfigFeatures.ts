import type { Hosts } from '../host';
import type { FeatureContributor } from '../feature';
import { complete } from './completion/complete';
import { hover } from './hover/hover';

/** Scaffold: replaced by the dsconfig domain's real contributor. */
export function createDsConfigFeatures(_hosts: Hosts): FeatureContributor {
  return { complete, hover };
}
