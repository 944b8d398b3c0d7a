import { editDistance } from '../../util/editDistance';
import { swiftPresetNames, type SwiftPresetName } from '../facts';
import { legacyPresetNames } from '../swiftPresets';

const squash = (s: string) => s.toLowerCase().replace(/[-_\s.]/g, '').replace(/^default/, '').replace(/\.json$/, '');

/** Presets a misspelt value probably meant, best first (2.x names map to their 3.x successors). */
export function suggestPresets(value: string): SwiftPresetName[] {
  const legacy = legacyPresetNames[value] ?? legacyPresetNames[value.toLowerCase()];
  if (legacy) return [legacy];
  const v = squash(value.replace(/\.json$/i, ''));
  const exact = swiftPresetNames.filter((p) => squash(p) === v);
  if (exact.length) return exact;
  const scored = swiftPresetNames
    .map((p) => ({ p, d: editDistance(v, squash(p)) }))
    .filter((x) => x.d <= Math.max(1, Math.floor(squash(x.p).length / 3)))
    .sort((a, b) => a.d - b.d);
  return scored.slice(0, 2).map((x) => x.p);
}
