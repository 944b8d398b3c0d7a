import type { Diagnostic } from 'vscode-languageserver-types';
import { textOf, type Hosts } from '../../host';
import type { SourceContext } from '../command/context';
import type { LaunchFacts } from '../facts';
import { readReferencedConfig } from '../referencedConfig';
import { addZeroSection, lacksZeroSection, pluginPath, pluginRaises, pluginReader } from '../deepspeedPlugin';
import { launchDiagnostic } from './launchDiagnostic';

/**
 * An error at a `--deepspeed` / `deepspeed:` / `deepspeed_config_file` value whose JSON config (file or
 * inline) has no zero_optimization, when the launch hands it to accelerate's DeepSpeedPlugin.
 */
export async function zeroSectionDiagnostics(ctx: SourceContext, hosts: Hosts, facts: LaunchFacts): Promise<Diagnostic[]> {
  const ref = facts.deepspeed;
  const reader = pluginReader(facts);
  // A reference read from another file (a config file the command names) is reported there.
  if (!ref || !reader || (ref.kind !== 'file' && ref.kind !== 'inline') || ref.span.uri !== ctx.uri || ref.span.start === ref.span.end) return [];
  const config = await readReferencedConfig(async (p) => textOf(await hosts.fs.readFile(p, 'config')), ref).catch(() => undefined);
  if (!config || !lacksZeroSection(config.value)) return [];
  const what = ref.kind === 'file' ? `DeepSpeed config '${ref.text}'` : ref.mapping ? `The DeepSpeed config under ${ref.via}:` : 'The inline DeepSpeed config';
  return [
    launchDiagnostic(
      ctx,
      'zero-optimization-required',
      ref.span.start,
      ref.span.end,
      `${what} has no zero_optimization section, and ${pluginPath(reader)}: ${pluginRaises}. ${addZeroSection}`,
      { reader },
    ),
  ];
}
