import type { TextDocument } from 'vscode-languageserver-textdocument';
import { launchFormat } from '../classify';
import { ShellParse } from './shell/parser';
import type { ShellScript } from './shell/types';
import { SourceContext } from './command/context';
import { ShellCommandsAnalysis } from './analyzeScript';
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
  if (isYamlDocument(document)) {
    const ctx = new SourceContext(document, folders);
    return { kind: 'yaml', ctx, ...analyzeYaml(ctx, document.getText()) };
  }
  const job = new ScriptAnalysisJob(document, folders);
  job.runUntil(Infinity);
  return job.result();
}

/**
 * A launch script's analysis made in steps that stop at a deadline and resume: the parse, then each command.
 * The server's validation of a huge script runs it in slices between which requests are answered
 * (launch/parses.ts); `analyzeDocument` makes it in one go.
 */
export class ScriptAnalysisJob {
  private readonly ctx: SourceContext;
  private readonly parse: ShellParse;
  private script: ShellScript | undefined;
  private commands: ShellCommandsAnalysis | undefined;

  constructor(document: TextDocument, folders: string[]) {
    this.ctx = new SourceContext(document, folders);
    this.parse = new ShellParse(document.getText());
  }

  get done(): boolean {
    return !!this.commands?.done;
  }

  /** Works until done or `deadline` (performance.now()) has passed. */
  runUntil(deadline: number): void {
    this.parse.runUntil(deadline);
    if (!this.parse.done) return;
    this.script ??= this.parse.result();
    this.commands ??= new ShellCommandsAnalysis(this.ctx, this.script);
    this.commands.runUntil(deadline);
  }

  /** The analysis; call once done. */
  result(): LaunchAnalysis {
    const script = this.script!;
    const commands = this.commands!.launches;
    // Configs the script writes itself (cat <<EOT > $config_json) are what its launches read.
    attachWrittenConfigs(heredocConfigs(script), commands);
    return { kind: 'script', ctx: this.ctx, script, commands };
  }
}

export function factsOf(analysis: LaunchAnalysis): LaunchFacts[] {
  if (analysis.kind === 'yaml') return analysis.yaml ? [analysis.yaml.facts] : [];
  return analysis.commands.map((c) => c.facts);
}
