import type { FileSystemHost } from '../host';
import type { LaunchFacts } from '../launch/facts';
import { compareReleases, findPinnedRelease } from '../dsconfig/deepspeedRelease';
import { msg } from '../l10n';
import { pathOf } from '../util/paths';

/** A TRL GRPO command that leaves beta to TRL's default (launch/launchers/trlScripts.ts, readTrlTrainer). */
const leavesBeta = (s: LaunchFacts) => s.rlhfType?.value === 'grpo' && s.beta?.isDefault === true;

/**
 * GRPO's beta where a TRL command leaves it, as the trl release the workspace pins has it: GRPOConfig's default was
 * 0.04 until v0.19 made it 0.0 (huggingface/trl 7359ddcc, first in v0.19.0: trl/trainer/grpo_config.py:390-391;
 * v0.18.2 has 0.04 there), and a beta other than 0 loads the reference model. Unpinned, the current default (0) stays.
 */
export async function withTrlRelease(scripts: LaunchFacts[], fs: FileSystemHost, folders: string[]): Promise<LaunchFacts[]> {
  if (!scripts.some(leavesBeta)) return scripts;
  return Promise.all(
    scripts.map(async (s) => {
      if (!leavesBeta(s)) return s;
      const release = await findPinnedRelease(fs, folders, 'trl', pathOf(s.uri));
      if (!release || compareReleases(release.version, '0.19.0') >= 0) return s;
      return { ...s, beta: { ...s.beta!, value: 0.04, viaText: msg("TRL {0}'s default, per {1}", release.version, release.source) } };
    }),
  );
}
