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

interface CachedAnalysis {
  version: number;
  text: string;
  key: string;
  value: Promise<ConfigAnalysis>;
}

const maxCachedDocuments = 32;

/**
 * Computes and caches analyses. Per document version and settings, nothing is recomputed; launch scripts
 * in the workspace and model folders are read once and kept until `invalidate()` (file watcher events,
 * settings changes), so hints and hovers never read the disk on a keystroke.
 */
export class ContextEngine {
  private generation = 0;
  private readonly references = new Map<string, Promise<LaunchFacts[]>>();
  private readonly analyses = new Map<string, CachedAnalysis>();
  private readonly scriptFacts = new Map<string, { version: number; text: string; facts: LaunchFacts[] }>();
  private readonly launchConfigs = new Map<string, { version: number; text: string; generation: number; value: Promise<LaunchConfig | undefined> }>();

  private readonly analyzer: Analyzer;

  constructor(private readonly hosts: Hosts) {
    this.analyzer = new Analyzer(hosts);
  }

  /** Forget everything read from disk: a script, config or model file may have changed. */
  invalidate(): void {
    this.generation++;
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

  private remember(uri: string, document: TextDocument, key: string, compute: () => Promise<ConfigAnalysis>): Promise<ConfigAnalysis> {
    const hit = this.analyses.get(uri);
    const text = document.getText();
    if (hit && hit.version === document.version && hit.key === key && hit.text === text) {
      this.analyses.delete(uri);
      this.analyses.set(uri, hit);
      return hit.value;
    }
    const value = compute();
    this.analyses.delete(uri);
    this.analyses.set(uri, { version: document.version, text, key, value });
    if (this.analyses.size > maxCachedDocuments) this.analyses.delete(this.analyses.keys().next().value as string);
    return value;
  }

  private cacheKey(settings: ZeroLensSettings): string {
    return `${this.generation}\u0000${JSON.stringify(settings)}`;
  }

  /** The analysis of a ds_config document in its workspace context. */
  analyzeConfig(document: TextDocument, settings: ZeroLensSettings): Promise<ConfigAnalysis> {
    return this.remember(document.uri, document, this.cacheKey(settings), async () => {
      const configPath = pathOf(document.uri);
      return this.analyzer.analyze({ configPath, value: parseConfig(document).value }, await this.launchReferences(configPath), settings);
    });
  }

  /** Launch facts of an open script or YAML, once per version. */
  launchFactsOf(document: TextDocument): LaunchFacts[] {
    const text = document.getText();
    const hit = this.scriptFacts.get(document.uri);
    if (hit && hit.version === document.version && hit.text === text) return hit.facts;
    const facts = extractLaunchFacts(document, this.hosts.workspace.folders());
    this.scriptFacts.delete(document.uri);
    this.scriptFacts.set(document.uri, { version: document.version, text, facts });
    if (this.scriptFacts.size > maxCachedDocuments) this.scriptFacts.delete(this.scriptFacts.keys().next().value as string);
    return facts;
  }

  /** The config the first DeepSpeed launch in a script uses; undefined when no command names one. Cached per version. */
  launchConfig(document: TextDocument): Promise<LaunchConfig | undefined> {
    const text = document.getText();
    const hit = this.launchConfigs.get(document.uri);
    if (hit && hit.version === document.version && hit.text === text && hit.generation === this.generation) return hit.value;
    const value = this.readLaunchConfig(document);
    this.launchConfigs.delete(document.uri);
    this.launchConfigs.set(document.uri, { version: document.version, text, generation: this.generation, value });
    if (this.launchConfigs.size > maxCachedDocuments) this.launchConfigs.delete(this.launchConfigs.keys().next().value as string);
    return value;
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
    const analysis = await this.remember(document.uri, document, this.cacheKey(settings), () => this.analyzer.analyze(config, [config.launch], settings));
    return { analysis, config };
  }
}

/** A config file read from disk, as a document and a parse, for edits made from a script. */
export function configFileDocument(file: { path: string; text: string }): { document: TextDocument; parsed: ParsedConfig } {
  const document = TextDocument.create(URI.file(file.path).toString(), 'ds-config', 0, file.text);
  return { document, parsed: parseConfigText(file.text) };
}
