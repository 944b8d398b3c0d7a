import type { Diagnostic } from 'vscode-languageserver-types';
import type { SourceContext } from '../command/context';
import { changedDefaults, compareReleases, type DeepSpeedRelease } from '../../dsconfig/deepspeedRelease';
import { valueRange } from '../command/options';
import type { OptionReader } from '../launchers/trainerArgs';
import { launchDiagnostic } from './launchDiagnostic';
import type { Translate } from '../../l10n';

/**
 * Under DeepSpeed the Hugging Face Trainer does not clip gradients itself: accelerate's clip_grad_norm_ only
 * returns DeepSpeed's norm (accelerator.py:2982-2986 @16cb6eb8), and DeepSpeed clips with the config's
 * gradient_clipping. The Trainer fills that key from --max_grad_norm only where it says "auto" (fill_match), so a
 * config without it clips at DeepSpeed's default, which changed: 0 (no clipping) before 0.19.3, 1.0 from then on
 * (#8068). Said where the script writes --max_grad_norm and that default, under the workspace's release
 * (`releaseOf`: zeroLens.deepspeedVersion, a pin, an environment; asked only once the option is written), is another
 * value; with the release unknown, only when the value is neither default. Nothing raises: a warning.
 */
export async function maxGradNormNotApplied(ctx: SourceContext, reader: OptionReader, config: Record<string, unknown>, releaseOf: () => Promise<DeepSpeedRelease | undefined>, t: Translate): Promise<Diagnostic[]> {
  if ('gradient_clipping' in config) return [];
  const option = reader.option('max_grad_norm');
  const text = option && reader.text(option);
  const given = text ? Number(text) : NaN;
  if (!option || !Number.isFinite(given)) return [];
  const { since, change, value, before } = changedDefaults.gradient_clipping;
  const release = await releaseOf();
  const clipping = release ? ((compareReleases(release.version, since) >= 0 ? value : before) as number) : undefined;
  if (clipping === given || (clipping === undefined && (given === value || given === before))) return [];
  const uses = (v: unknown) => (v === 0 ? t('no clipping') : t('clipping at {0}', String(v)));
  const which = release
    ? t('its default, {0} in DeepSpeed {1} ({2})', uses(clipping), release.version, release.source)
    : t('its default: {0} from DeepSpeed {1} on ({2}), {3} before', uses(value), since, change, uses(before));
  const end = valueRange(option)?.end ?? option.nameEnd;
  return [
    launchDiagnostic(
      ctx,
      'max-grad-norm-not-applied',
      option.nameStart,
      end,
      t('{0} is {1}, but the DeepSpeed config has no "gradient_clipping": under DeepSpeed the Hugging Face Trainer leaves clipping to DeepSpeed, which uses {2}, so {0} {1} is not applied. Write "gradient_clipping": "auto" in the config (the Trainer fills it with {0}).', option.written, given, which),
      { given, deepspeedDefault: clipping ?? null, release: release?.version ?? null },
    ),
  ];
}
