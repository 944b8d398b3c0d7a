import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { textOf, type FileSystemHost } from '../host';
import { launchFormat } from '../classify';
import { samePath } from '../util/paths';
import { analyzeDocument, factsOf } from './analysis';
import type { LaunchFacts } from './facts';
import { withAccelerateKeys } from './launchers/trlCli';

/**
 * Launch facts and the config files launches name, as pure functions: the caller (the training layer) reads
 * the files and caches what it read.
 */

/** Launch facts of one document (script or YAML). Pure: no file is read. */
export function extractLaunchFacts(document: TextDocument, workspaceFolders: string[] = []): LaunchFacts[] {
  try {
    return factsOf(analyzeDocument(document, workspaceFolders));
  } catch {
    return [];
  }
}

/** Launch facts of a file's text; a JSON config (`swift sft sft.json`) is read as YAML, of which JSON is a subset. */
export function launchFactsOfText(path: string, text: string, folders: string[]): LaunchFacts[] {
  const uri = URI.file(path).toString();
  const languageId = launchFormat(TextDocument.create(uri, 'plaintext', 0, text)) === 'yaml' ? 'yaml' : 'shellscript';
  return extractLaunchFacts(TextDocument.create(uri, languageId, 0, text), folders);
}

/** The launch facts of a file, or undefined when it cannot be read. */
export type FactsOfFile = (path: string) => Promise<LaunchFacts[] | undefined>;

/** Facts of files read straight from a file system (the launch checks; the training layer caches its own). */
export function factsOfFileIn(fs: FileSystemHost, folders: string[]): FactsOfFile {
  return async (path) => {
    const text = textOf(await fs.readFile(path, /\.(ya?ml|json)$/i.test(path) ? 'yaml' : 'script'));
    return text === undefined ? undefined : launchFactsOfText(path, text, folders);
  };
}

/** Whether a launch hands the DeepSpeed config at `configPath` to DeepSpeed (`--deepspeed path` and the like). */
export function refersTo(facts: LaunchFacts, configPath: string): boolean {
  return facts.deepspeed?.kind === 'file' && facts.deepspeed.candidates.some((c) => samePath(c, configPath));
}

/**
 * The facts of the config file a launch names (accelerate `--config_file`, `llamafactory-cli train x.yaml`,
 * `swift sft x.yaml`): the first candidate path that reads. Undefined when there is none, or it is no
 * launcher config.
 */
export async function configFileFacts(facts: LaunchFacts, factsOfFile: FactsOfFile): Promise<LaunchFacts | undefined> {
  return facts.configFile ? firstFacts(facts.configFile.candidates, factsOfFile) : undefined;
}

async function firstFacts(candidates: string[], factsOfFile: FactsOfFile): Promise<LaunchFacts | undefined> {
  for (const candidate of candidates) {
    const found = await factsOfFile(candidate);
    if (found) return found[0];
  }
  return undefined;
}

/** What a launch says besides how it trains: never taken from a script's arguments file. */
const launchKeys = new Set([
  'uri', 'launcher', 'chain', 'span', 'commandIndex', 'wordsFrom', 'script', 'configFile', 'argsFile', 'deepspeed', 'gpusPerNode', 'nodes', 'configEnv', 'noTrainerArguments', 'argsFileLaunches', 'accelerateKeys',
]);

/**
 * The script's arguments file (TrlParser `--config`, H4ArgumentParser's first argument; launchers/hf.ts) under its
 * command line: a value the command writes wins, the file's written values come next. A default the file's reader
 * supplies (LLaMA-Factory's, ms-swift's) is not the script's: left out.
 */
export async function withArgumentsFile(facts: LaunchFacts, factsOfFile: FactsOfFile): Promise<LaunchFacts> {
  const file = facts.argsFile && (await firstFacts(facts.argsFile.candidates, factsOfFile).catch(() => undefined));
  if (!file) return facts;
  const merged: LaunchFacts = { ...facts };
  // The file's `deepspeed:` is TrainingArguments.deepspeed (transformers 00349ae8 src/transformers/training_args.py,
  // `# --- DeepSpeed ---`), a default TrlParser takes from it (trl f2cd5771 trl/scripts/utils.py:359-379): the
  // command's own --deepspeed wins.
  if (file.deepspeed?.kind === 'file' && !facts.deepspeed) merged.deepspeed = file.deepspeed;
  if (facts.argsFileLaunches && file.accelerateKeys) withAccelerateKeys(merged, file.accelerateKeys);
  for (const [key, value] of Object.entries(file) as [keyof LaunchFacts, { isDefault?: boolean } | undefined][]) {
    if (!value || value.isDefault || launchKeys.has(key)) continue;
    const own = facts[key] as { isDefault?: boolean } | undefined;
    if (!own || own.isDefault) (merged as unknown as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/**
 * A launch whose DeepSpeed settings live in the config file it names: the file's facts with the script's on
 * top. Undefined when there is no such file or it says nothing about DeepSpeed.
 */
export async function throughConfigFile(written: LaunchFacts, factsOfFile: FactsOfFile): Promise<LaunchFacts | undefined> {
  return configFileSettings(await withArgumentsFile(written, factsOfFile), factsOfFile);
}

/**
 * A launch with its own DeepSpeed value, completed by the config file it names: `swift sft x.yaml
 * --deepspeed zero3` takes the model from the YAML, a script's `--deepspeed` under accelerate `--config_file`
 * the process counts.
 */
export async function completedByConfigFile(written: LaunchFacts, factsOfFile: FactsOfFile): Promise<LaunchFacts> {
  return configFileCompletes(await withArgumentsFile(written, factsOfFile), factsOfFile);
}

/**
 * The launch as it runs: with its own DeepSpeed value completed by its config file, or with the DeepSpeed
 * settings of the config file it names. Undefined when it launches no DeepSpeed config either way. The arguments
 * file is read under the command line once, first: a TRL recipe's `deepspeed:` may be the value.
 */
export async function effectiveFacts(written: LaunchFacts, factsOfFile: FactsOfFile): Promise<LaunchFacts | undefined> {
  const facts = await withArgumentsFile(written, factsOfFile).catch(() => written);
  if (facts.deepspeed) return configFileCompletes(facts, factsOfFile);
  return facts.configFile ? configFileSettings(facts, factsOfFile).catch(() => undefined) : undefined;
}

/** throughConfigFile on facts that already hold their arguments file's. */
async function configFileSettings(facts: LaunchFacts, factsOfFile: FactsOfFile): Promise<LaunchFacts | undefined> {
  const config = await configFileFacts(facts, factsOfFile);
  return config?.deepspeed ? mergeFacts(config, facts) : undefined;
}

/** completedByConfigFile on facts that already hold their arguments file's. */
async function configFileCompletes(facts: LaunchFacts, factsOfFile: FactsOfFile): Promise<LaunchFacts> {
  const config = await configFileFacts(facts, factsOfFile).catch(() => undefined);
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
  // accelerate takes the config's distributed_type only when the command names none; NO then runs one process whatever
  // --num_processes says (accelerate 16cb6eb8 src/accelerate/commands/launch.py:1214-1237, :1397-1407).
  if (base.oneProcess && over.chain.includes('accelerate') && !over.namesDistributedType) merged.gpusPerNode = base.gpusPerNode;
  return merged;
}
