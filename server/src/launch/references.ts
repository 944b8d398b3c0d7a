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
  const languageId = /\.ya?ml$/i.test(file) ? 'yaml' : 'shellscript';
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
        found.push(facts);
        continue;
      }
      // A script whose YAML (accelerate config, LLaMA-Factory config) names the JSON.
      if (!facts.configFile || facts.deepspeed?.kind === 'file') continue;
      const yamlPath = facts.configFile.candidates.find((c) => byFile.has(c)) ?? facts.configFile.candidates[0];
      const yamlFacts = yamlPath ? (byFile.get(yamlPath) ?? (await readFacts(fs, yamlPath, folders))) : [];
      const yaml = yamlFacts.find(refersTo);
      if (yaml) found.push(mergeFacts(yaml, facts));
    }
  }
  return found;
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
  return merged;
}
