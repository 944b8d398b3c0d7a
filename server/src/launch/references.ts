import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { FileSystemHost, WorkspaceHost } from '../host';
import { analyzeDocument, factsOf } from './analysis';
import type { LaunchFacts } from './facts';

/** Launch facts of one document (script or YAML). Pure: no file is read. */
export function extractLaunchFacts(document: TextDocument, workspaceFolders: string[] = []): LaunchFacts[] {
  try {
    return factsOf(analyzeDocument(document, workspaceFolders));
  } catch {
    return [];
  }
}

function samePath(a: string, b: string): boolean {
  const na = path.normalize(a);
  const nb = path.normalize(b);
  return process.platform === 'win32' ? na.toLowerCase() === nb.toLowerCase() : na === nb;
}

async function readFacts(fs: FileSystemHost, file: string, folders: string[]): Promise<LaunchFacts[]> {
  const text = await fs.readFile(file);
  if (text === undefined) return [];
  // A JSON config (`swift sft sft.json`) is read as YAML, of which JSON is a subset.
  const languageId = /\.(ya?ml|json)$/i.test(file) ? 'yaml' : 'shellscript';
  return extractLaunchFacts(TextDocument.create(URI.file(file).toString(), languageId, 0, text), folders);
}

/**
 * Launches in the workspace that use the DeepSpeed config at `configPath`: `--deepspeed path`, accelerate
 * `deepspeed_config_file`, LLaMA-Factory `deepspeed:`, also through an accelerate `--config_file` or a
 * `llamafactory-cli train x.yaml` (then the script's facts are merged over the YAML's).
 */
export async function findLaunchReferences(fs: FileSystemHost, workspace: WorkspaceHost, configPath: string): Promise<LaunchFacts[]> {
  const folders = workspace.folders();
  const files = await workspace.launchFiles();
  const byFile = new Map<string, LaunchFacts[]>();
  await Promise.all(files.map(async (f) => byFile.set(f, await readFacts(fs, f, folders).catch(() => []))));
  const found: LaunchFacts[] = [];
  const refersTo = (facts: LaunchFacts) => facts.deepspeed?.kind === 'file' && facts.deepspeed.candidates.some((c) => samePath(c, configPath));
  for (const file of files) {
    for (const facts of byFile.get(file) ?? []) {
      if (refersTo(facts)) {
        found.push(await completedByConfigFile(fs, facts, folders, byFile));
        continue;
      }
      // A script whose YAML (accelerate config, LLaMA-Factory config) names the JSON.
      if (!facts.configFile || facts.deepspeed?.kind === 'file') continue;
      const merged = await throughConfigFile(fs, facts, folders, byFile);
      if (merged && refersTo(merged)) found.push(merged);
    }
  }
  return found;
}

/**
 * The facts of the config file a launch names (accelerate `--config_file`, `llamafactory-cli train x.yaml`,
 * `swift sft x.yaml`): the first candidate path that reads. Undefined when there is none, or it is no
 * launcher config.
 */
export async function configFileFacts(
  fs: FileSystemHost,
  facts: LaunchFacts,
  folders: string[],
  known?: Map<string, LaunchFacts[]>,
): Promise<LaunchFacts | undefined> {
  if (!facts.configFile) return undefined;
  for (const candidate of facts.configFile.candidates) {
    const found = known?.get(candidate) ?? (await readFacts(fs, candidate, folders));
    if (found.length > 0 || known?.has(candidate)) return found[0];
  }
  return undefined;
}

/**
 * A launch whose DeepSpeed settings live in the config file it names: the file's facts with the script's on
 * top. Undefined when there is no such file or it says nothing about DeepSpeed.
 */
export async function throughConfigFile(
  fs: FileSystemHost,
  facts: LaunchFacts,
  folders: string[],
  known?: Map<string, LaunchFacts[]>,
): Promise<LaunchFacts | undefined> {
  const config = await configFileFacts(fs, facts, folders, known);
  return config?.deepspeed ? mergeFacts(config, facts) : undefined;
}

/**
 * A launch with its own DeepSpeed value, completed by the config file it names: `swift sft x.yaml
 * --deepspeed zero3` takes the model from the YAML, a script's `--deepspeed` under accelerate `--config_file`
 * the process counts.
 */
export async function completedByConfigFile(
  fs: FileSystemHost,
  facts: LaunchFacts,
  folders: string[],
  known?: Map<string, LaunchFacts[]>,
): Promise<LaunchFacts> {
  const config = await configFileFacts(fs, facts, folders, known).catch(() => undefined);
  return config ? { ...mergeFacts(config, facts), deepspeed: facts.deepspeed } : facts;
}

/** Script facts override the YAML's where the script says something. */
function mergeFacts(base: LaunchFacts, over: LaunchFacts): LaunchFacts {
  // The script is the launch (uri, span); each fact keeps its own span.uri, which may be the YAML's.
  const merged: LaunchFacts = { ...base, uri: over.uri, chain: [...over.chain, ...base.chain], launcher: over.launcher, span: over.span, commandIndex: over.commandIndex };
  for (const [key, value] of Object.entries(over) as [keyof LaunchFacts, unknown][]) {
    if (value === undefined || ['uri', 'launcher', 'chain', 'span', 'commandIndex', 'deepspeed'].includes(key)) continue;
    const current = merged[key] as { isDefault?: boolean } | undefined;
    if (current && !current.isDefault && (value as { isDefault?: boolean }).isDefault) continue;
    (merged as unknown as Record<string, unknown>)[key] = value;
  }
  // accelerate's --num_processes is the total over all machines; without --num_machines on the command
  // line the YAML's num_machines divides it (utils/launch.py: num_processes // num_machines).
  if (over.chain.includes('accelerate') && over.gpusPerNode && !over.nodes && base.nodes && base.nodes.value > 1) {
    merged.gpusPerNode = { ...over.gpusPerNode, value: Math.max(1, Math.floor(over.gpusPerNode.value / base.nodes.value)) };
  }
  return merged;
}
