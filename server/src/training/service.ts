import type { TextDocument } from 'vscode-languageserver-textdocument';
import { delegating, describeUnread, type FileKind, type FileSystemHost, type Hosts, type ReadResult, type Unread } from '../host';
import type { ZeroLensSettings } from '../settings';
import type { EstimatedKind } from '../feature';
import type { ParsedConfig } from '../dsconfig/parse';
import { factsOf, type LaunchAnalysis } from '../launch/analysis';
import type { LaunchFacts } from '../launch/facts';
import { launchFactsOfText, refersTo, effectiveFacts, completedByConfigFile } from '../launch/references';
import { readReferencedConfig, type ReferencedConfig } from '../launch/referencedConfig';
import { parsedPreset } from '../launch/swiftPresets';
import type { SwiftPresetName } from '../launch/facts';
import { resolveModel } from '../memory/resolveModel';
import { huggingFaceRepoOf } from '../memory/modelCache';
import type { ModelInfo } from '../memory/types';
import { english, presetConfigPath, type Translate } from '../protocol';
import { baseName, dirName, folderHolding, pathOf, samePath } from '../util/paths';
import type { ConfigAnalysis } from './analysis';
import { RootReads } from './rootReads';
import { withTrlRelease } from './trlRelease';
import { analyze, type EstimateOverrides } from './analyze';
import type { ContextDefaults, ContextOverrides } from './context';
import { effectiveLaunch, type EffectiveLaunch, type ParallelLaunch } from './launches';

/** How the service gets the parse of an open document: the language service owns those caches. */
export interface DocumentParses {
  config(document: TextDocument): ParsedConfig;
  launch(document: TextDocument): LaunchAnalysis;
  /** The open document at a path, if the editor has it open (its launch parse is then shared, not redone). */
  open?(path: string): TextDocument | undefined;
}

/** A launch script's run as the sidebar, the language status and "Switch stage" show it. */
export interface LaunchRun {
  launch: EffectiveLaunch;
  config: ReferencedConfig;
  analysis: ConfigAnalysis;
}

/** The analysis a document stands for, as every estimate feature and the CLI see it. */
export interface DocumentAnalysis {
  analysis: ConfigAnalysis;
  /** False for a launch that names no readable DeepSpeed config: its context only. */
  hasConfig: boolean;
  /** For a launch: the run the analysis is of. */
  run?: LaunchRun;
}

/** What a caller outside the editor (the CLI) decides beyond the files: flags and their defaults. */
export interface CallerInputs {
  context?: ContextOverrides;
  estimate?: EstimateOverrides;
  defaults?: ContextDefaults;
}

/** A parsed JSON object (not an array, a string or a Git LFS pointer's text). */
function isObjectValue(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The command a script without a readable DeepSpeed config trains with: the first that names a model or a batch, else
 * the first under a launcher, else the first. A data step before it (`python process_data.py --tokenizer_path …`,
 * Telechat's run_telechat_lora.sh) runs one process and trains nothing.
 */
function trainingCommand(all: LaunchFacts[]): LaunchFacts | undefined {
  // A written batch, not the trainer's default (TrainingArguments' 8, which any command with a Trainer flag gets).
  const written = (fact: { isDefault?: boolean } | undefined) => fact !== undefined && !fact.isDefault;
  return all.find((f) => f.model || written(f.microBatch) || written(f.gradientAccumulation)) ?? all.find((f) => f.launcher !== 'python') ?? all[0];
}

/** Launch files in the workspace are scripts and launcher YAML; a change to one may add or remove a reference. */
const launchFilePattern = /\.(sh|bash|zsh|slurm|sbatch|pbs|ya?ml)$/i;
/** Files a model's size is read from. */
const modelFilePattern = /(^|[\\/])(config\.json|[^\\/]*\.safetensors(\.index\.json)?)$/i;

/** The latest analysis made of an open config and what of the config it read. */
interface ConfigReads {
  analysis: Promise<ConfigAnalysis>;
  reads: RootReads;
  /** Reads are complete once the analysis has settled. */
  settled: boolean;
}

/**
 * The training layer's one entry: everything an estimate needs for a document, resolved once from the
 * document, the files it names, the workspace's launch scripts, the settings and the defaults. Owned by one
 * language service instance (no module state). Every file read is cached by path and dropped when that path
 * changes (`filesChanged`), so a keystroke never reads the disk and a file nobody uses (a trainer's JSON
 * log) changes nothing.
 */
export class TrainingService {
  /** File reads by path, then by kind (each kind has its own size cap). */
  private readonly texts = new Map<string, Map<FileKind, Promise<ReadResult>>>();
  private readonly fileFacts = new Map<string, Promise<LaunchFacts[] | undefined>>();
  private readonly references = new Map<string, Promise<LaunchFacts[]>>();
  /** By folder and spec; `folders`: where the resolver read a config.json, or a hub id's cache folder (the editor watches those outside the workspace). */
  private readonly models = new Map<string, { info: Promise<ModelInfo | undefined>; reads: Set<string>; notRead: NotRead[]; folders: Set<string> }>();
  /** Each analysis with what computing it read and listed: every document it is handed to depends on those. */
  private readonly analyses = new Map<string, { made: Promise<ConfigAnalysis | undefined>; reads: Set<string>; listed: Set<string> }>();
  /** The analysis keys of each open config's latest version: a keystroke's analyses replace the last ones'. */
  private readonly configVersions = new Map<string, { version: number; keys: Set<string> }>();
  /** Each settings object's JSON, for cache keys: the server hands the same object until the settings change. */
  private readonly settingsKeys = new WeakMap<ZeroLensSettings, string>();
  /** By open document: the hosts that record what its checks read (`hostsReadingFor`), and the sets they record into. */
  private readonly readingHosts = new Map<string, { reads: Set<string>; listed: Set<string>; hosts: Hosts }>();
  /** By open config and settings: the latest analysis made and which of the config's top-level keys it read. */
  private readonly configReads = new Map<string, ConfigReads>();
  /** Per open config, the last `configId` and what it was made from. */
  private readonly lastConfigIds = new Map<string, { settingsKey: string; callerKey: string; id: string }>();
  /** Paths each open document's answers were read from, for `filesChanged`. */
  private readonly dependencies = new Map<string, Set<string>>();
  /**
   * Folders each open document's checks listed (the environments a DeepSpeed release is looked for in): a file
   * created or deleted under one may change what the listing found (`pip install` into `.venv`).
   */
  private readonly listings = new Map<string, Set<string>>();
  /** Open documents whose answers depend on which launch files the workspace holds (configs). */
  private readonly usesWorkspaceLaunches = new Set<string>();

  constructor(
    private readonly hosts: Hosts,
    private readonly parses: DocumentParses,
    /** Told when a model was sized: the folders its config.json was read from may be new (`modelFolders`). */
    private readonly modelSized?: () => void,
  ) {}

  /** A file read as `kind`, once until it changes; `reads` records the path for the asking document. */
  read(path: string, kind: FileKind, reads?: Set<string>): Promise<ReadResult> {
    reads?.add(path);
    let byKind = this.texts.get(path);
    if (!byKind) this.texts.set(path, (byKind = new Map()));
    let result = byKind.get(kind);
    if (!result) {
      result = this.hosts.fs.readFile(path, kind).catch((): ReadResult => ({ unread: { reason: 'unreadable' } }));
      byKind.set(kind, result);
    }
    return result;
  }

  /** A file's text (undefined when it was not read), read once until it changes. */
  async readText(path: string, kind: FileKind, reads?: Set<string>): Promise<string | undefined> {
    const result = await this.read(path, kind, reads);
    return 'text' in result ? result.text : undefined;
  }

  /** Launch facts of a file that is not (necessarily) open: a workspace script, or a YAML a command names. */
  factsOfFile(path: string, reads?: Set<string>): Promise<LaunchFacts[] | undefined> {
    reads?.add(path);
    // An open script or YAML: the facts of the parse its own features use for this version (a 1 MB script
    // would otherwise be analysed twice per keystroke, and held twice).
    const open = /\.(sh|bash|zsh|ya?ml)$/i.test(path) ? this.parses.open?.(path) : undefined;
    if (open) return Promise.resolve(factsOf(this.parses.launch(open)));
    let facts = this.fileFacts.get(path);
    if (!facts) {
      facts = this.readText(path, launchFileKind(path)).then((text) => (text === undefined ? undefined : launchFactsOfText(path, text, this.hosts.workspace.folders())));
      this.fileFacts.set(path, facts);
    }
    return facts;
  }

  /**
   * Launches in the workspace that use the config at `configPath`: `--deepspeed path`, accelerate
   * `deepspeed_config_file`, LLaMA-Factory `deepspeed:`, also through an accelerate `--config_file` or a
   * `llamafactory-cli train x.yaml` (then the script's facts are merged over the YAML's).
   */
  referencesTo(configPath: string): Promise<LaunchFacts[]> {
    let found = this.references.get(configPath);
    if (!found) {
      found = this.findReferences(configPath).catch(() => []);
      this.references.set(configPath, found);
    }
    return found;
  }

  private async findReferences(configPath: string): Promise<LaunchFacts[]> {
    const files = await this.hosts.workspace.launchFiles();
    const byFile = await Promise.all(files.map((f) => this.factsOfFile(f)));
    const factsOfFile = (path: string) => this.factsOfFile(path);
    const found: LaunchFacts[] = [];
    for (const facts of byFile.flat()) {
      // Cheap refusals first: a command's own --deepspeed wins over what its files say (effectiveFacts).
      if (!facts || (facts.deepspeed?.kind === 'file' ? !refersTo(facts, configPath) : !facts.configFile && !facts.argsFile)) continue;
      // The launch as it runs (the one path the script's side takes too): its own config, or the one its
      // launcher YAML (accelerate, LLaMA-Factory) or its arguments file (a TRL recipe's `deepspeed:`) names.
      const effective = await effectiveFacts(facts, factsOfFile).catch(() => undefined);
      if (effective && refersTo(effective, configPath)) found.push(effective);
    }
    // A YAML a found launch runs (`llamafactory-cli train x.yaml`, a script's `--config recipe.yaml`) is part of
    // that launch, not a launch without its GPU count.
    const runBy = found.flatMap((f) => [...(f.configFile?.candidates ?? []), ...(f.argsFile?.candidates ?? [])]);
    return runBy.length ? found.filter((f) => !runBy.some((p) => samePath(p, pathOf(f.uri)))) : found;
  }

  /** The model a context names, sized once per spec and folder until one of the files it was read from changes. */
  model(spec: string, baseDir: string | undefined, reads?: Set<string>): Promise<ModelInfo | undefined> {
    const key = `${baseDir ?? ''}\u0000${spec}`;
    let entry = this.models.get(key);
    if (!entry) {
      const modelReads = new Set<string>();
      const notRead: NotRead[] = [];
      const folders = new Set<string>();
      const info = resolveModel(spec, recording(this.hosts.fs, modelReads, notRead, undefined, folders), baseDir ?? this.hosts.workspace.folders()[0]).catch(() => undefined);
      entry = { info, reads: modelReads, notRead, folders };
      this.models.set(key, entry);
      void info.then(() => this.modelSized?.());
    }
    const { info, reads: modelReads } = entry;
    // The resolver records its paths as it reads them: all of them are known once it has settled.
    return reads ? info.then((found) => (modelReads.forEach((p) => reads.add(p)), found)) : info;
  }

  /**
   * The folders the models sized so far read their config.json from, or the Hugging Face cache folder a hub id was
   * looked up in (`models--org--name`, refs and snapshots); the set changes as models are sized and dropped.
   */
  modelFolders(): string[] {
    return [...new Set([...this.models.values()].flatMap((entry) => [...entry.folders]))];
  }

  /** The workspace folder holding `path`, else the first (a file outside the workspace). */
  private folderOf(path: string): string | undefined {
    const folders = this.hosts.workspace.folders();
    return folderHolding(path, folders) ?? folders[0];
  }

  /**
   * Why a model the service tried to size has no size, when that is more than "unknown": restricted mode, or
   * a file of its folder that was not read (a named pipe, over the size cap). Undefined otherwise.
   */
  whyUnsized(spec: string, baseDir: string | undefined, t: Translate = english): string | undefined {
    if (this.hosts.fs.restricted?.()) {
      return t('this workspace is not trusted, and in restricted mode ZeRO Lens reads no model folder or cache (trust the workspace to size a local model)');
    }
    const skipped = this.models.get(`${baseDir ?? ''}\u0000${spec}`)?.notRead ?? [];
    const reasons = skipped.map((s) => t('ZeRO Lens did not read {0}: {1}', s.path, describeUnread(s.unread, t)));
    return reasons.length ? reasons.join(t({ message: '; ', comment: 'between the clauses of a list' })) : undefined;
  }

  /** The config a launch names, read through the cache. */
  configOf(deepspeed: LaunchFacts['deepspeed'], reads?: Set<string>): Promise<ReferencedConfig | undefined> {
    return deepspeed ? readReferencedConfig((path) => this.readText(path, 'config', reads), deepspeed).catch(() => undefined) : Promise.resolve(undefined);
  }

  /** One written command as it runs (its config file merged in); undefined when it launches no DeepSpeed config. */
  effectiveOf(written: LaunchFacts, reads?: Set<string>): Promise<EffectiveLaunch | undefined> {
    return effectiveLaunch(written, (path) => this.factsOfFile(path, reads));
  }

  /** The launches of an open script or YAML as they run, each with its DeepSpeed config. */
  async launchesOf(document: TextDocument, reads = new Set<string>()): Promise<EffectiveLaunch[]> {
    const out: EffectiveLaunch[] = [];
    for (const written of factsOf(this.parses.launch(document))) {
      // Every file a command names is a dependency, read or not: creating a missing config changes its checks.
      for (const ref of [written.deepspeed, written.teacherDeepspeed, written.configFile]) {
        if (ref && 'candidates' in ref) ref.candidates.forEach((c) => reads.add(c));
      }
      const launch = await this.effectiveOf(written, reads);
      if (launch) out.push(launch);
    }
    this.depend(document.uri, reads);
    return out;
  }

  /** The analysis of an open ds_config: its own text, in the context of the workspace's launches that use it. */
  analyzeConfig(document: TextDocument, settings: ZeroLensSettings, caller: CallerInputs = {}): Promise<ConfigAnalysis> {
    const id = this.configId(document.uri, settings, caller);
    // An earlier version's analysis in the same settings that read the same of the config: a keystroke in
    // `steps_per_print` changes no estimate. Held until a file it read changes (filesChanged) or the document
    // closes, which also drop what its version recorded as read, so taken here without an entry of its own.
    const earlier = this.configReads.get(id);
    if (earlier?.settled) {
      const value = this.parses.config(document).value;
      if (isObjectValue(value) && earlier.reads.sameOn(value)) return earlier.analysis;
    }
    return this.analyzeConfigVersion(document, settings, caller, `config\u0000${document.version}\u0000${id}`, id);
  }

  /** `analyzeConfig` for a version that may read the config differently: its own entry (`remember`). */
  private analyzeConfigVersion(document: TextDocument, settings: ZeroLensSettings, caller: CallerInputs, key: string, id: string): Promise<ConfigAnalysis> {
    this.keepLatestVersion(document.uri, document.version, key);
    const configPath = pathOf(document.uri);
    this.usesWorkspaceLaunches.add(document.uri);
    return this.remember(key, async (reads, listed) => {
      const scripts = await this.referencesTo(configPath);
      for (const script of scripts) {
        reads.add(pathOf(script.uri));
        if (script.configFile) script.configFile.candidates.forEach((c) => reads.add(c));
      }
      const value = this.parses.config(document).value;
      if (!isObjectValue(value)) return this.analysis({ configPath, value }, scripts, settings, caller, reads, listed);
      const tracked = RootReads.track(value);
      const analysis = this.analysis({ configPath, value: tracked.view }, scripts, settings, caller, reads, listed);
      const entry: ConfigReads = { analysis, reads: tracked.reads, settled: false };
      this.configReads.set(id, entry);
      return analysis.then((made) => ((entry.settled = true), made));
    }, document.uri);
  }

  /**
   * The analysis of one launch with its own config, or with `given` (a preset it could switch to). Keyed by
   * the launch's facts, the settings and the config's text, so an edit anywhere else changes nothing.
   */
  async analyzeLaunch(launch: LaunchFacts, settings: ZeroLensSettings, given?: ReferencedConfig, caller: CallerInputs = {}, owner?: string): Promise<ConfigAnalysis | undefined> {
    const reads = new Set<string>();
    const config = given ?? (await this.configOf(launch.deepspeed, reads));
    if (!config || !isObjectValue(config.value)) return undefined;
    const key = JSON.stringify(['launch', launch, settings, config.configPath, config.file?.text ?? '', caller]);
    const analysis = this.remember<ConfigAnalysis | undefined>(key, (more, listed) => {
      reads.forEach((p) => more.add(p));
      return this.analysis(config, [launch], settings, caller, more, listed);
    }, owner ?? launch.uri);
    return analysis.catch(() => undefined);
  }

  /**
   * The launches of an open script or YAML that train without DeepSpeed but with FSDP or Megatron, completed by the
   * config file they name (accelerate `--config_file` with `distributed_type: FSDP`), each with where its estimate
   * belongs: the value that turns FSDP on, or the first parallel size (the command's start for Megatron without one).
   */
  async parallelLaunchesOf(document: TextDocument, reads = new Set<string>()): Promise<ParallelLaunch[]> {
    const out: ParallelLaunch[] = [];
    const factsOfFile = (path: string) => this.factsOfFile(path, reads);
    for (const written of factsOf(this.parses.launch(document))) {
      if (written.deepspeed) continue;
      if (written.configFile) written.configFile.candidates.forEach((c) => reads.add(c));
      const facts = await completedByConfigFile(written, factsOfFile);
      if (facts.deepspeed) continue;
      const megatron = facts.launcher === 'megatron' || facts.chain.includes('megatron');
      if (!facts.fsdp && !megatron) continue;
      const own = written.fsdp?.span ?? written.parallel?.tp?.span ?? written.parallel?.pp?.span ?? written.parallel?.ep?.span;
      // The FSDP settings may live in the config file the command names: the estimate goes on that argument.
      const anchor = own && own.start < own.end ? own : written.configFile?.span ?? written.span;
      out.push({ written, facts, anchor });
    }
    this.depend(document.uri, reads);
    return out;
  }

  /** The analysis of an FSDP or Megatron launch, from its own facts (no DeepSpeed config). */
  analyzeParallelLaunch(launch: LaunchFacts, settings: ZeroLensSettings, caller: CallerInputs = {}, owner?: string): Promise<ConfigAnalysis> {
    const key = JSON.stringify(['parallel-launch', launch, settings, caller]);
    return this.remember(key, (reads, listed) => this.analysis({ configPath: pathOf(launch.uri), value: undefined }, [launch], settings, caller, reads, listed), owner ?? launch.uri);
  }

  /** The same launch with an ms-swift preset instead of its own value (completion details, "switch to" fixes). */
  analyzeWithPreset(launch: LaunchFacts, settings: ZeroLensSettings, name: SwiftPresetName): Promise<ConfigAnalysis | undefined> {
    return this.analyzeLaunch(launch, settings, { configPath: presetConfigPath(name), value: parsedPreset(name) });
  }

  /**
   * The run a script's document stands for, as the sidebar, the language status and "Switch stage" show it:
   * its first launch (as it runs, config file merged) whose DeepSpeed config can be read.
   */
  async primaryRun(document: TextDocument, settings: ZeroLensSettings, caller: CallerInputs = {}): Promise<LaunchRun | undefined> {
    const reads = new Set<string>();
    for (const launch of await this.launchesOf(document, reads)) {
      const config = await this.configOf(launch.deepspeed, reads);
      // A file that holds no JSON object (a Git LFS pointer, a half-written file) is no config DeepSpeed loads: the run
      // is not one without DeepSpeed (analyze's plain-PyTorch engine), and its document says the config is unreadable.
      if (!config || !isObjectValue(config.value)) continue;
      const analysis = await this.analyzeLaunch(launch.facts, settings, config, caller, document.uri);
      this.depend(document.uri, reads);
      return analysis ? { launch, config, analysis } : undefined;
    }
    this.depend(document.uri, reads);
    return undefined;
  }

  /**
   * The one analysis of a document: a ds_config in the context of the workspace's launches that use it, or
   * a script's (or launcher YAML's) first run with a readable DeepSpeed config; without one, the launch's
   * context alone (model, GPUs), which is still worth showing.
   */
  async analyzeDocument(document: TextDocument, kind: EstimatedKind, settings: ZeroLensSettings, caller: CallerInputs = {}): Promise<DocumentAnalysis> {
    if (kind === 'ds-config') return { analysis: await this.analyzeConfig(document, settings, caller), hasConfig: true };
    const run = await this.primaryRun(document, settings, caller);
    if (run) return { analysis: run.analysis, hasConfig: true, run };
    const [parallel] = await this.parallelLaunchesOf(document);
    if (parallel) return { analysis: await this.analyzeParallelLaunch(parallel.facts, settings, caller, document.uri), hasConfig: true };
    const [launch] = await this.launchesOf(document);
    const reads = new Set<string>();
    const first = trainingCommand(factsOf(this.parses.launch(document)));
    // A command without DeepSpeed is still completed by the config file it names (`llamafactory-cli train x.yaml`,
    // `swift sft x.yaml`): its model, batch and checkpointing are there.
    const written = launch?.facts ?? (first && (await completedByConfigFile(first, (path) => this.factsOfFile(path, reads)).catch(() => first)));
    if (first?.configFile) first.configFile.candidates.forEach((c) => reads.add(c));
    this.depend(document.uri, reads);
    // No resolveModel: without a config nothing is estimated, so the model is not looked up (nor said unsized).
    const analysis = await analyze({ configPath: pathOf(document.uri), config: undefined, scripts: written ? [written] : [], settings, ...caller });
    return { analysis: { ...analysis, missing: ['deepspeed', ...analysis.missing] }, hasConfig: false };
  }

  private async analysis(config: { configPath: string; value: unknown }, scripts: LaunchFacts[], settings: ZeroLensSettings, caller: CallerInputs, reads: Set<string>, listed: Set<string>): Promise<ConfigAnalysis> {
    // The pin files a TRL default is read from are the analysis's dependencies, as the config and scripts are, and
    // so is what appears in the environments it listed (`pip install trl` into `.venv`).
    const pins = delegating(this.hosts.fs, { readFile: (path, kind) => this.read(path, kind, reads), listDir: (path) => (reads.add(path), listed.add(path), this.hosts.fs.listDir(path)) });
    return analyze({
      configPath: config.configPath,
      config: config.value,
      scripts: await withTrlRelease(scripts, pins, this.hosts.workspace.folders()),
      settings,
      ...caller,
      // A model without a folder of its own (zeroLens.model, per resource) is relative to the workspace folder
      // whose settings named it: the one holding the config, not the first folder of a multi-root workspace.
      resolveModel: (spec, baseDir) => this.model(spec, baseDir ?? this.folderOf(config.configPath), reads),
      whyUnsized: (spec, baseDir, t) => this.whyUnsized(spec, baseDir ?? this.folderOf(config.configPath), t),
    });
  }

  /**
   * Drops the analyses of a config's earlier versions once a newer version is analysed: nothing asks for them
   * again, and kept until the 512-entry bound they held hundreds of analyses per typing burst alive (each
   * promoted to the old generation, where only a full collection frees it).
   */
  private keepLatestVersion(uri: string, version: number, key: string): void {
    const held = this.configVersions.get(uri);
    if (held && held.version === version) {
      held.keys.add(key);
      return;
    }
    // A late request for an older version is answered and left to the bound below.
    if (held && held.version > version) return;
    for (const old of held?.keys ?? []) this.analyses.delete(old);
    this.configVersions.set(uri, { version, keys: new Set([key]) });
  }

  /**
   * The key of an open config's latest analysis in these settings for this caller (`configReads`). The last one made
   * for the document is kept and given again while the settings and the caller stay: made anew, the string (the
   * settings' JSON in it) was copied whole at each lookup, twice per keystroke.
   */
  private configId(uri: string, settings: ZeroLensSettings, caller: CallerInputs): string {
    const settingsKey = this.settingsKey(settings);
    const callerKey = JSON.stringify(caller);
    const last = this.lastConfigIds.get(uri);
    if (last && last.settingsKey === settingsKey && last.callerKey === callerKey) return last.id;
    const id = `${uri}\u0000${settingsKey}\u0000${callerKey}`;
    this.lastConfigIds.set(uri, { settingsKey, callerKey, id });
    return id;
  }

  private settingsKey(settings: ZeroLensSettings): string {
    let key = this.settingsKeys.get(settings);
    if (key === undefined) this.settingsKeys.set(settings, (key = JSON.stringify(settings)));
    return key;
  }

  /**
   * A cached analysis; what it read and listed is recorded for each document that asks, the one that computed it
   * and any that finds it cached (a change there must reach them all). A failure is not cached.
   */
  private remember<T extends ConfigAnalysis | undefined>(key: string, compute: (reads: Set<string>, listed: Set<string>) => Promise<T>, owner: string): Promise<T> {
    const hit = this.analyses.get(key);
    if (hit) {
      // Before the caller's own continuation: the sets are complete once it settles.
      void hit.made.then(() => this.dependOn(owner, hit), () => undefined);
      return hit.made as Promise<T>;
    }
    const entry = { reads: new Set<string>(), listed: new Set<string>() };
    const made = compute(entry.reads, entry.listed).then(
      (analysis) => {
        this.dependOn(owner, entry);
        return analysis;
      },
      (error: unknown) => {
        this.analyses.delete(key);
        throw error;
      },
    );
    this.analyses.set(key, { ...entry, made });
    // Bounded: one entry per document version, settings and preset a user looked at.
    if (this.analyses.size > 512) this.analyses.delete(this.analyses.keys().next().value as string);
    return made;
  }

  /** `uri` depends on what an analysis read, and on what appears under a folder it listed. */
  private dependOn(uri: string, inputs: { reads: Set<string>; listed: Set<string> }): void {
    this.depend(uri, inputs.reads);
    const listed = this.listingsOf(uri);
    for (const folder of inputs.listed) listed.add(folder);
  }

  /**
   * The hosts, with a file system that records each path it is asked for as a dependency of `uri`: for checks
   * that read files themselves (a script's FSDP checks read the `--fsdp_config` file it names), so an edit
   * there checks the document again (`filesChanged`).
   */
  hostsReadingFor(uri: string): Hosts {
    const reads = this.dependenciesOf(uri);
    const listed = this.listingsOf(uri);
    // Kept while it records into the same sets and nothing it recorded changed (`filesChanged`, `invalidateAll`
    // replace it): every keystroke of a config asks for them, and what was found through them holds as long.
    const held = this.readingHosts.get(uri);
    if (held && held.reads === reads && held.listed === listed) return held.hosts;
    const hosts = { ...this.hosts, fs: recording(this.hosts.fs, reads, undefined, listed) };
    this.readingHosts.set(uri, { reads, listed, hosts });
    return hosts;
  }

  /** The folders `uri`'s answers listed, made on first use. */
  private listingsOf(uri: string): Set<string> {
    let listed = this.listings.get(uri);
    if (!listed) this.listings.set(uri, (listed = new Set()));
    return listed;
  }

  /** Whether `path` lies under a folder `uri`'s checks listed: walks up its parents, not through every listing. */
  private listedAbove(uri: string, path: string): boolean {
    const listed = this.listings.get(uri);
    if (!listed?.size) return false;
    for (let dir = dirName(path); dir !== path; path = dir, dir = dirName(dir)) if (listed.has(dir)) return true;
    return false;
  }

  private depend(uri: string, reads: Set<string>): void {
    const deps = this.dependenciesOf(uri);
    for (const path of reads) deps.add(path);
  }

  /** The paths `uri`'s answers were read from, made on first use. */
  private dependenciesOf(uri: string): Set<string> {
    let deps = this.dependencies.get(uri);
    if (!deps) this.dependencies.set(uri, (deps = new Set()));
    return deps;
  }

  /**
   * Files changed on disk or in the editor: forget what was read from them, and say which documents'
   * answers may now differ (those that read one of them; configs when a launch file changed, since a
   * script may now reference them). Nothing else is dropped.
   */
  filesChanged(paths: string[]): string[] {
    const launchFileChanged = paths.some((p) => launchFilePattern.test(p) || this.fileFacts.has(p));
    const affected = new Set<string>();
    let anyKnown = launchFileChanged;
    let modelDropped = false;
    for (const path of paths) {
      const hadText = this.texts.delete(path);
      const hadFacts = this.fileFacts.delete(path);
      if (hadText || hadFacts) anyKnown = true;
      for (const [key, entry] of this.models) {
        if (entry.reads.has(path) || (modelFilePattern.test(path) && [...entry.reads].some((r) => path.startsWith(r)))) {
          this.models.delete(key);
          anyKnown = modelDropped = true;
          // Its documents read every path it read: one is enough to find them (a snapshot that appears was not read).
          const first = entry.reads.values().next().value;
          for (const [uri, deps] of this.dependencies) if (first !== undefined && deps.has(first)) affected.add(uri);
        }
      }
      for (const [uri, deps] of this.dependencies) if (deps.has(path) || this.listedAbove(uri, path)) affected.add(uri);
    }
    if (launchFileChanged) {
      this.references.clear();
      for (const uri of this.usesWorkspaceLaunches) affected.add(uri);
    }
    // Analyses are cheap once the files are cached: drop them all when anything they may have used changed.
    if (anyKnown || affected.size) this.analyses.clear();
    // An open config's latest analysis goes only when it read what changed (its dependencies), or when a model may
    // have appeared where one was looked for, or the launches changed: a keystroke in the config, which a script
    // that launches it read from disk, leaves the config's own analysis as it was.
    for (const uri of affected) this.readingHosts.delete(uri);
    if (modelDropped || launchFileChanged) this.configReads.clear();
    else if (affected.size) for (const id of [...this.configReads.keys()]) if (affected.has(id.slice(0, id.indexOf('\u0000')))) this.configReads.delete(id);
    return [...affected];
  }

  /** An open document closed: its own dependencies no longer matter. */
  documentClosed(uri: string): void {
    for (const key of this.configVersions.get(uri)?.keys ?? []) this.analyses.delete(key);
    this.configVersions.delete(uri);
    for (const id of this.configReads.keys()) if (id.startsWith(`${uri}\u0000`)) this.configReads.delete(id);
    this.lastConfigIds.delete(uri);
    this.dependencies.delete(uri);
    this.listings.delete(uri);
    this.readingHosts.delete(uri);
    this.usesWorkspaceLaunches.delete(uri);
  }

  /** Settings or the workspace folders changed: forget everything. */
  invalidateAll(): void {
    this.texts.clear();
    this.fileFacts.clear();
    this.references.clear();
    this.models.clear();
    this.analyses.clear();
    this.configVersions.clear();
    this.configReads.clear();
    this.lastConfigIds.clear();
    this.readingHosts.clear();
  }
}

/** A file a model's size would have been read from, and why it was not. */
interface NotRead {
  path: string;
  unread: Unread;
}

/** What a launch file is read as: launcher YAML (and JSON read as YAML) or a shell script. */
function launchFileKind(path: string): FileKind {
  return /\.(ya?ml|json)$/i.test(path) ? 'yaml' : 'script';
}

/**
 * A file system that records every path asked for (the paths a model's size was read from), and every file
 * that exists but was not read (a named pipe, a file over its cap), for the hover to say why; and the folders to
 * watch (`configFolders`): each config.json's, or the Hugging Face cache folder of a hub id.
 */
function recording(fs: FileSystemHost, reads: Set<string>, notRead: NotRead[] | undefined, listed?: Set<string>, configFolders?: Set<string>): FileSystemHost {
  const note = <T extends object>(path: string, result: T): T => {
    if ('unread' in result && (result.unread as Unread).reason !== 'missing') notRead?.push({ path, unread: result.unread as Unread });
    else if (configFolders) {
      // A hub id's cache folder, whatever was read in it (its refs/main while the download runs); else a config.json's.
      const folder = huggingFaceRepoOf(path) ?? ('text' in result && baseName(path) === 'config.json' ? dirName(path) : undefined);
      if (folder) configFolders.add(folder);
    }
    return result;
  };
  return delegating(fs, {
    readFile: async (path, kind) => (reads.add(path), note(path, await fs.readFile(path, kind))),
    readBytes: async (path, offset, length, kind) => (reads.add(path), note(path, await fs.readBytes(path, offset, length, kind))),
    exists: (path) => (reads.add(path), fs.exists(path)),
    listDir: (path) => (reads.add(path), listed?.add(path), fs.listDir(path)),
  });
}
