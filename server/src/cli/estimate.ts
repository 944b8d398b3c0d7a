/**
 * `zero-lens estimate`: per-GPU, per-node CPU and NVMe memory for every ZeRO stage, from the same training
 * layer the editor uses. With a file (a ds_config, a launch script or launcher YAML) it estimates from that
 * file's own context, exactly as the editor does, and the flags override; without one, from the flags.
 * Thin: reads the file and the workspace settings, asks the language service, prints.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { FileSystemHost, WorkspaceHost } from '../host';
import { getLanguageService, type ZeroLensLanguageService } from '../languageService';
import { describeSource, english, formatCount, type MissingInput, type Source, type Translate } from '../protocol';
import { parseConfigText } from '../dsconfig/parse';
import { resolveModel } from '../memory/resolveModel';
import { largestLayerGuess } from '../memory/genericShape';
import { autotpWorldMessage, megatronWorldMessage } from '../launch/diagnostics/parallelSizes';
import { shellWord } from '../launch/shell/quote';
import { extractLaunchFacts } from '../launch/references';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { ConfigAnalysis } from '../training/analysis';
import type { ModelInfo } from '../memory/types';
import { nodeFileSystem, NodeWorkspace } from '../nodeHost';
import { defaultSettings, describeIgnoredSetting, type ZeroLensSettings } from '../settings';
import { translator } from '../l10n';
import type { ContextDefaults } from '../training/context';
import type { DocumentAnalysis } from '../training/service';
import { resolvePath } from '../util/paths';
import { decodeFile } from './decodeFile';
import { estimateHelp } from './estimateHelp';
import { jsonReport, textReport } from './estimateReport';
import { parseEstimateArgs, UsageError, type EstimateArgs } from './estimateArgs';
import { ExitCode, type CliIO } from './io';
import { readWorkspaceSettings } from './workspaceSettings';

/** Without a file nothing says how many GPUs or whether checkpointing is on: the documented defaults stand. */
const flagsOnlyDefaults: ContextDefaults = { sequenceLength: 2048, microBatchSize: 1, gradientCheckpointing: false, dtype: 'bf16', nodes: 1, gpusPerNode: 1 };

export async function runEstimate(args: string[], io: CliIO, fs: FileSystemHost = nodeFileSystem): Promise<number> {
  const t = translator(io.locale);
  try {
    const parsed = parseEstimateArgs(args, t);
    if (parsed.help) {
      io.stdout(estimateHelp(t));
      return ExitCode.ok;
    }
    const result = await estimateFor(parsed, io, fs, t);
    io.stdout(parsed.format === 'json' ? jsonReport(parsed, result, t) : textReport(parsed, result, t));
    return ExitCode.ok;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`zero-lens estimate: ${error.message}\n${t("Run 'zero-lens estimate --help' for the options.")}\n`);
    return ExitCode.usage;
  }
}

export interface EstimateRun {
  file?: string;
  analysis: DocumentAnalysis['analysis'];
  /** Where the model's counts came from when the flags gave them (`--params`, `--largest-layer-params`). */
  countSources?: ModelCounts['sources'];
  notes: string[];
}

/** A model given by its counts, with where each count came from. */
interface ModelCounts {
  info: ModelInfo;
  sources: { totalParams: Source; largestLayerParams: Source };
}

/**
 * The estimate `zero-lens estimate ARGS` prints, as data: the parsed arguments and the training layer's analysis.
 * `given` sizes the model directly (the accuracy bench passes architectures the catalog lacks); the flags still decide
 * everything else. Throws UsageError for bad input.
 */
export async function estimateFromArgs(argv: string[], cwd: string, fs: FileSystemHost = nodeFileSystem, given?: ModelInfo): Promise<{ args: EstimateArgs; run: EstimateRun }> {
  const args = parseEstimateArgs(argv);
  return { args, run: await estimateFor(args, { cwd }, fs, english, given) };
}

async function estimateFor(args: EstimateArgs, io: Pick<CliIO, 'cwd' | 'locale'>, fs: FileSystemHost, t: Translate, given?: ModelInfo): Promise<EstimateRun> {
  if (args.file && args.config) throw new UsageError(t('give a file or --config, not both (a script names its own config).'));
  const notes: string[] = [];
  const counts = given ? { info: given, sources: { totalParams: given.source, largestLayerParams: given.source } } : await modelOverride(args, fs, io.cwd, notes, t);
  const model = counts?.info;
  const caller = { context: args.context, estimate: { ...args.estimate, model } };
  let document: TextDocument;
  let workspace: WorkspaceHost;
  let settings: ZeroLensSettings;
  if (args.file) {
    const file = path.resolve(io.cwd, args.file);
    document = TextDocument.create(pathToFileURL(file).toString(), languageOf(file), 1, await readText(`'${args.file}'`, file, fs, t));
    // The file's own context as the editor sees it: the workspace is the current folder, with its settings.
    workspace = new NodeWorkspace([io.cwd]);
    settings = { ...(await readWorkspaceSettings(fs, io.cwd, (ignored) => notes.push(describeIgnoredSetting(ignored, t)))), locale: io.locale ?? 'en' };
  } else {
    const file = args.config ? resolvePath(args.config, io.cwd, fs.homeDir) ?? args.config : undefined;
    const text = file ? await readText(t("config '{0}'", args.config!), file, fs, t) : '{}';
    document = TextDocument.create(file ? pathToFileURL(file).toString() : 'untitled:command-line', 'ds-config', 1, text);
    // No workspace search: a config given with --config is estimated from the flags alone.
    workspace = { folders: () => [io.cwd], launchFiles: async () => [], jsonFiles: async () => [] };
    settings = { ...defaultSettings, locale: io.locale ?? 'en' };
    if (!args.context.model && !model) throw new UsageError(t('say which model: --model <id|folder> or --params <N>.'));
    Object.assign(caller, { defaults: flagsOnlyDefaults });
  }
  const service = getLanguageService({ fs, workspace });
  const kind = service.classify(document, settings);
  const notOurs = () => new UsageError(t("'{0}' is not a DeepSpeed config, launch script or launcher YAML ZeRO Lens can read.", args.file ?? ''));
  if (!kind) throw notOurs();
  if (kind === 'fsdp-config') {
    throw new UsageError(t("'{0}' is an FSDP config file: it names no model or GPUs. Estimate the script or accelerate config that uses it, or give --model and --fsdp.", args.file ?? ''));
  }
  if (kind === 'ds-config') rejectBrokenConfig(args.file ?? args.config, document.getText(), t);
  const found = await service.getDocumentAnalysis(document, settings, caller);
  if (!found) throw notOurs();
  const { analysis } = found;
  if (!analysis.input) throw new UsageError(await whatIsMissing(args, found, fs, io.cwd, t, found.hasConfig ? undefined : await configProblem(service, document, settings, fs, workspace, io.cwd, t)));
  const layout = parallelLayoutProblem(analysis, t);
  if (layout) throw new UsageError(layout);
  if (args.mode === 'deepspeed' && analysis.current.stage === 0) {
    throw new UsageError(t('--mode deepspeed: DeepSpeed has estimators for ZeRO-2 and ZeRO-3 only (stage 1 uses the ZeRO-2 one); choose --stage 1, 2 or 3.'));
  }
  return { file: args.file, analysis, countSources: counts?.sources, notes: [...notes, ...analysis.notes] };
}

/** The language a file is read as; the language service then classifies it by its content. */
function languageOf(file: string): string {
  if (/\.(sh|bash|zsh|slurm)$/i.test(file)) return 'shellscript';
  if (/\.ya?ml$/i.test(file)) return 'yaml';
  return 'json';
}

async function readText(shown: string, file: string, fs: FileSystemHost, t: Translate): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await fsp.readFile(file);
  } catch {
    throw new UsageError(t('cannot read {0}: {1}.', shown, await unreadableReason(fs, file, t)));
  }
  const decoded = decodeFile(bytes);
  if (decoded.kind !== 'text') throw new UsageError(t('cannot read {0}: {1}.', shown, decoded.kind === 'binary' ? t('it is a binary file, not text') : t('it is UTF-16 text; save it as UTF-8')));
  return decoded.text;
}

/** Why a path cannot be read as a file, in words: missing, a folder, or unreadable. */
async function unreadableReason(fs: FileSystemHost, file: string, t: Translate): Promise<string> {
  if (!(await fs.exists(file))) return t('no such file');
  if ((await fs.listDir(file)) !== undefined) return t('it is a folder; give the ds_config.json inside it');
  return t('it cannot be read');
}

/** Where `offset` is in `text`, as the editor and `zero-lens check` show it: "line 3, column 7". */
function lineColumn(text: string, offset: number, t: Translate): string {
  const before = text.slice(0, offset);
  return t('line {0}, column {1}', before.split('\n').length, offset - before.lastIndexOf('\n'));
}

/** What a parsed value is, for "not a list": the JSON type's name as written. */
function jsonKind(value: unknown, t: Translate): string {
  if (Array.isArray(value)) return t('a list');
  if (value === null) return 'null';
  return t('a {0}', typeof value);
}

/** A config DeepSpeed would not read is not estimated: the estimate would be of something else. */
function rejectBrokenConfig(shown: string | undefined, text: string, t: Translate): void {
  if (shown === undefined) return;
  const parsed = parseConfigText(text);
  const limit = parsed.limits[0];
  const error = parsed.syntaxErrors[0];
  const why = limit
    ? limit.message
    : error
      ? t("{0}: {1} ('zero-lens check {2}' lists every problem.)", lineColumn(text, error.offset, t), error.message, shown)
      : typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)
        ? t('a DeepSpeed config is one JSON object { ... }, not {0}.', jsonKind(parsed.value, t))
        : stageProblem(parsed.value, t);
  if (why) throw new UsageError(t("config '{0}' is not a valid ds_config: {1}", shown, why));
}

/**
 * A `zero_optimization.stage` the estimate cannot take as written: anything but the number 0, 1, 2 or 3 would
 * otherwise be estimated as ZeRO-0 without a word.
 */
function stageProblem(config: unknown, t: Translate): string | undefined {
  const zero = (config as Record<string, unknown>).zero_optimization;
  if (!zero || typeof zero !== 'object' || Array.isArray(zero) || !('stage' in zero)) return undefined;
  const stage = (zero as Record<string, unknown>).stage;
  return stage === 0 || stage === 1 || stage === 2 || stage === 3
    ? undefined
    : t("zero_optimization.stage is {0}; ZeRO Lens estimates stage 0, 1, 2 or 3 written as a number ('zero-lens check' explains what DeepSpeed does with it).", JSON.stringify(stage));
}

/**
 * `--params` (and `--largest-layer-params`) give the model directly, over `--model`'s counts when both are
 * given; `--model` alone is resolved by the training layer like any model name.
 */
async function modelOverride(args: EstimateArgs, fs: FileSystemHost, cwd: string, notes: string[], t: Translate): Promise<ModelCounts | undefined> {
  const { spec, params, largestLayer } = args.model;
  if (!params && !largestLayer) return undefined;
  const named = spec ? await resolveModel(spec, fs, cwd) : undefined;
  if (spec && !named && !params) throw new UsageError(await unknownModelMessage(spec, fs, cwd, t));
  if (!named && !params) throw new UsageError(t('--largest-layer-params needs --model or --params.'));
  const total = params?.count ?? named!.totalParams;
  const base: ModelInfo = named ?? { id: 'custom', displayName: t('{0} params', formatCount(total)), totalParams: total, largestLayerParams: 0, source: { kind: 'cli', flag: '--params' } };
  const sources: ModelCounts['sources'] = { totalParams: params ? { kind: 'cli', flag: '--params' } : base.source, largestLayerParams: base.source };
  let largest = largestLayer?.count;
  if (largest !== undefined) sources.largestLayerParams = { kind: 'cli', flag: '--largest-layer-params' };
  else if (named?.largestLayerParams) largest = Math.min(named.largestLayerParams, total);
  else {
    largest = largestLayerGuess(total);
    sources.largestLayerParams = { kind: 'default' };
    notes.push(t('Largest layer guessed as {0} params; give --largest-layer-params for ZeRO-3 and ZeRO-1/2 offload precision.', formatCount(largest)));
  }
  return { info: { ...base, totalParams: total, largestLayerParams: largest }, sources };
}

/** Why `--model` named nothing ZeRO Lens can size: a folder or file it cannot read a model from, or an unknown id. */
async function unknownModelMessage(spec: string, fs: FileSystemHost, cwd: string, t: Translate): Promise<string> {
  const file = resolvePath(spec, cwd, fs.homeDir);
  if (file && (await fs.exists(file))) {
    if ((await fs.listDir(file)) !== undefined) {
      return t("model folder '{0}': ZeRO Lens found neither a config.json with the model's sizes (hidden_size, num_hidden_layers, …) nor *.safetensors weights in it. Give --params (e.g. --params 7B).", spec);
    }
    return t("model '{0}' is a file, and ZeRO Lens found neither a config.json with the model's sizes (hidden_size, num_hidden_layers, …) nor *.safetensors weights next to it. Give --params (e.g. --params 7B).", spec);
  }
  return t("unknown model '{0}': not a local folder, not in the built-in catalog, not in the Hugging Face or ModelScope cache. Give --params (e.g. --params 7B).", spec);
}

/**
 * Model-parallel sizes the GPUs cannot tile: Megatron or DeepSpeed refuses that job at start, so it gets no figure
 * (`--tp 8 --pp 7` on one GPU was estimated as if 56 existed). A script's launch check says the same.
 */
function parallelLayoutProblem(analysis: ConfigAnalysis, t: Translate): string | undefined {
  const i = analysis.input!;
  const p = i.modelParallel;
  if (!p) return undefined;
  const size = i.gpusPerNode * i.nodes;
  // How the count was given: the flag and its value as typed, or the file and line (or default) it came from.
  const source = (key: 'gpusPerNode' | 'nodes') => {
    const from = analysis.inputSources[key];
    return from?.kind === 'cli' ? `${from.flag} ${i[key]}` : from ? describeSource(from, t) : String(i[key]);
  };
  const world = { size, via: i.nodes > 1 ? `${source('gpusPerNode')} × ${source('nodes')}` : source('gpusPerNode') };
  if (p.kind === 'megatron' && size % (p.tp * p.pp * p.cp) !== 0) return megatronWorldMessage(world, p.tp, p.pp, p.cp, t);
  if (p.kind === 'autotp' && p.tp > 1 && size % p.tp !== 0) return autotpWorldMessage(world, p.tp, t);
  return undefined;
}

/** What is missing and the flag that gives it: "the GPU count (--gpus-per-node)". */
function missingWords(missing: MissingInput, t: Translate): string {
  switch (missing) {
    case 'gpusPerNode':
      return t('the GPU count ({0})', '--gpus-per-node');
    case 'deepspeed':
      return t('a DeepSpeed config ({0})', '--config');
    case 'gpuMemoryGiB':
      return t('the GPU memory ({0})', '--gpu-memory');
    case 'model':
      return t('the model ({0} or {1})', '--model', '--params');
  }
}

/**
 * Codes of a launch whose named DeepSpeed config cannot be used (not found; found but not read: a folder, too
 * large): `zero-lens check` says the same on that file.
 */
const configProblemCodes = new Set(['deepspeed-config-not-found', 'file-not-read']);

/** The first of those diagnostics' messages. */
function problemIn(diagnostics: Diagnostic[]): string | undefined {
  const found = diagnostics.find((d) => typeof d.code === 'string' && configProblemCodes.has(d.code));
  return typeof found?.message === 'string' ? found.message : undefined;
}

/**
 * Why the config a launch names cannot be read, in the words `zero-lens check` uses; undefined if it names none. A
 * command that hands its DeepSpeed settings to a config file (`llamafactory-cli train x.yaml`, `swift sft x.yaml`,
 * accelerate `--config_file`) has the problem in that file: it is checked as `zero-lens check` checks it, and named.
 */
async function configProblem(service: ZeroLensLanguageService, document: TextDocument, settings: ZeroLensSettings, fs: FileSystemHost, workspace: WorkspaceHost, cwd: string, t: Translate): Promise<string | undefined> {
  const own = problemIn(await service.doValidation(document, settings));
  if (own || service.classify(document, settings) !== 'launch-script') return own;
  for (const facts of extractLaunchFacts(document, workspace.folders())) {
    for (const candidate of facts.configFile?.candidates ?? []) {
      const read = await fs.readFile(candidate, 'yaml');
      if (!('text' in read)) continue;
      const named = TextDocument.create(pathToFileURL(candidate).toString(), languageOf(candidate), 1, read.text);
      const why = problemIn(await service.doValidation(named, settings));
      if (why) return t('{0}: {1}', path.relative(cwd, candidate), why);
      break;
    }
  }
  return undefined;
}

/** What the file's context lacks for numbers, and the flag that gives it. */
async function whatIsMissing(args: EstimateArgs, found: DocumentAnalysis, fs: FileSystemHost, cwd: string, t: Translate, whyNoConfig?: string): Promise<string> {
  const { analysis } = found;
  if (analysis.modelProblem) {
    const spec = analysis.context.model!.value;
    return args.context.model ? await unknownModelMessage(spec, fs, cwd, t) : t('{0}. Give --model or --params.', analysis.modelProblem);
  }
  // A script or launcher YAML without a readable DeepSpeed config: --config is refused beside a file, so the way on is
  // the job's own flags, filled with what the file says.
  if (args.file && !found.hasConfig && analysis.missing.includes('deepspeed')) {
    const model = analysis.context.model ? `--model ${shellWord(analysis.context.model.value)}` : '--model <id>';
    const gpus = `--gpus-per-node ${analysis.context.gpusPerNode?.value ?? '<N>'}`;
    const why = whyNoConfig ? ` ${whyNoConfig}` : '';
    return t("'{0}' names no DeepSpeed config ZeRO Lens can read. Estimate its job from flags instead: zero-lens estimate {1} {2} --stage 3 (DeepSpeed ZeRO; or --config FILE), or --ddp (plain PyTorch).", args.file, model, gpus) + why;
  }
  const blocking = analysis.missing.filter((m) => m !== 'gpuMemoryGiB');
  const source = args.file ? `'${args.file}'` : t('the command line');
  const words = blocking.map((m) => missingWords(m, t));
  const from = analysis.context.script ? t(' (context from {0})', path.basename(analysis.context.script)) : '';
  const model = analysis.context.model ? t(' Model: {0} ({1}).', analysis.context.model.value, describeSource(analysis.context.model.source, t)) : '';
  return t('{0}{1} does not say {2}; no launch script in {3} names it and no setting gives it.', source, from, words.join(t({ message: ' or ', comment: 'between two facts a file does not say' })), cwd) + model;
}
