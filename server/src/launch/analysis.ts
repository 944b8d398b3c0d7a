import type { TextDocument } from 'vscode-languageserver-textdocument';
import { launchFormat } from '../classify';
import { parseShell } from './shell/parser';
import type { ShellScript } from './shell/types';
import { SourceContext } from './command/context';
import { analyzeShellCommands } from './analyzeScript';
import { attachWrittenConfigs, heredocConfigs } from './heredocConfigs';
import type { LaunchCommand } from './command/launchCommand';
import { analyzeYaml, type YamlLaunch, type YamlSyntaxError } from './yaml/analyzeYaml';
import type { LaunchFacts } from './facts';

/** Everything the launch features need about one document, computed once per version. */
export type LaunchAnalysis =
  | { kind: 'script'; ctx: SourceContext; script: ShellScript; commands: LaunchCommand[] }
  | { kind: 'yaml'; ctx: SourceContext; yaml: YamlLaunch | undefined; syntaxError: YamlSyntaxError | undefined };

/** YAML, or a JSON argument file (`swift sft --config sft.json`; JSON is YAML): read as a launcher config, not as shell. */
export function isYamlDocument(document: TextDocument): boolean {
  return launchFormat(document) === 'yaml';
}

export function analyzeDocument(document: TextDocument, folders: string[] = []): LaunchAnalysis {
  const ctx = new SourceContext(document, folders);
  const text = document.getText();
  if (isYamlDocument(document)) return { kind: 'yaml', ctx, ...analyzeYaml(ctx, text) };
  const script = parseShell(text);
  const commands = analyzeShellCommands(ctx, script);
  // Configs the script writes itself (cat <<EOT > $config_json) are what its launches read.
  attachWrittenConfigs(heredocConfigs(script), commands);
  return { kind: 'script', ctx, script, commands };
}

export function factsOf(analysis: LaunchAnalysis): LaunchFacts[] {
  if (analysis.kind === 'yaml') return analysis.yaml ? [analysis.yaml.facts] : [];
  return analysis.commands.map((c) => c.facts);
}
