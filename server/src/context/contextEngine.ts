import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { Hosts } from '../host';
import type { ZeroLensSettings } from '../settings';
import { pathOf } from '../classify';
import { parseConfig, parseConfigText, type ParsedConfig } from '../dsconfig/parse';
import { extractLaunchFacts, findLaunchReferences } from '../launch/references';
import type { LaunchFacts } from '../launch/facts';
import { readReferencedConfig } from '../launch/estimates';
import type { ConfigAnalysis } from './analysis';
import { VersionedCache } from '../util/documentCache';
import { Analyzer } from './analyzer';

/** The config a launch command uses, resolved to a value (preset JSON, file contents, inline JSON). */
export interface LaunchConfig {
  launch: LaunchFacts;
  /** Display path: the JSON file, or e.g. "zero3 (ms-swift preset)". */
  configPath: string;
  value: unknown;
  /** The config file when the command points at one that exists. */
  file?: { path: string; text: string };
}

/**
 * Computes and caches analyses. Per document version and settings, nothing is recomputed; launch scripts
 * in the workspace and model folders are read once and kept until `invalidate()` (file watcher events,
 * settings changes), so hints and hovers never read the disk on a keystroke.
 */
export class ContextEngine {
  private readonly references = new Map<string, Promise<LaunchFacts[]>>();
  private readonly analyzer: Analyzer;
  /** Per document version (configs and scripts alike): the analysis for each settings value asked for. */
  private readonly analyses = new VersionedCache<Map<string, Promise<ConfigAnalysis>>>(() => new Map());
  private readonly scriptFacts: VersionedCache<LaunchFacts[]>;
  private readonly launchConfigs: VersionedCache<Promise<LaunchConfig | undefined>>;

  constructor(private readonly hosts: Hosts) {
    this.analyzer = new Analyzer(hosts);
    this.scriptFacts = new VersionedCache((document) => extractLaunchFacts(document, hosts.workspace.folders()));
    this.launchConfigs = new VersionedCache((document) => this.readLaunchConfig(document));
  }

  /** Forget everything read from disk: a script, config or model file may have changed. */
  invalidate(): void {
    this.references.clear();
    this.analyzer.clear();
    this.analyses.clear();
    this.launchConfigs.clear();
  }

  /** Launch commands in the workspace that use the config at `configPath` (cached until invalidate). */
  launchReferences(configPath: string): Promise<LaunchFacts[]> {
    let found = this.references.get(configPath);
    if (!found) {
      found = findLaunchReferences(this.hosts.fs, this.hosts.workspace, configPath).catch(() => []);
      this.references.set(configPath, found);
    }
    return found;
  }

  private remember(document: TextDocument, settings: ZeroLensSettings, compute: () => Promise<ConfigAnalysis>): Promise<ConfigAnalysis> {
    const bySettings = this.analyses.get(document);
    const key = JSON.stringify(settings);
    let value = bySettings.get(key);
    if (!value) {
      value = compute();
      bySettings.set(key, value);
    }
    return value;
  }

  /** The analysis of a ds_config document in its workspace context. */
  analyzeConfig(document: TextDocument, settings: ZeroLensSettings): Promise<ConfigAnalysis> {
    return this.remember(document, settings, async () => {
      const configPath = pathOf(document.uri);
      return this.analyzer.analyze({ configPath, value: parseConfig(document).value }, await this.launchReferences(configPath), settings);
    });
  }

  /** Launch facts of an open script or YAML, once per version. */
  launchFactsOf(document: TextDocument): LaunchFacts[] {
    return this.scriptFacts.get(document);
  }

  /** The config the first DeepSpeed launch in a script uses; undefined when no command names one. Cached per version. */
  launchConfig(document: TextDocument): Promise<LaunchConfig | undefined> {
    return this.launchConfigs.get(document);
  }

  private async readLaunchConfig(document: TextDocument): Promise<LaunchConfig | undefined> {
    for (const launch of this.launchFactsOf(document)) {
      const config = launch.deepspeed ? await readReferencedConfig(this.hosts.fs, launch.deepspeed) : undefined;
      if (config) return { launch, ...config };
    }
    return undefined;
  }

  /** The analysis of a launch script: its own command is the context, the config it names the option. */
  async analyzeScript(document: TextDocument, settings: ZeroLensSettings): Promise<{ analysis: ConfigAnalysis; config: LaunchConfig } | undefined> {
    const config = await this.launchConfig(document);
    if (!config) return undefined;
    const analysis = await this.remember(document, settings, () => this.analyzer.analyze(config, [config.launch], settings));
    return { analysis, config };
  }
}

/** A config file read from disk, as a document and a parse, for edits made from a script. */
export function configFileDocument(file: { path: string; text: string }): { document: TextDocument; parsed: ParsedConfig } {
  const document = TextDocument.create(URI.file(file.path).toString(), 'ds-config', 0, file.text);
  return { document, parsed: parseConfigText(file.text) };
}
