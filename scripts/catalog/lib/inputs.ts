import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The pinned inputs of the catalog build (scripts/catalog/inputs): config.json values of models, published
 * parameter totals, fields stated by the models' own training configs, and the ms-swift and LLaMA-Factory
 * registries (ids, ModelScope ids, families). Each
 * file names its source (repository, path, commit, URL, licence); the import scripts in ../import write them.
 */
export interface SourceInfo {
  title: string;
  repo?: string;
  path?: string;
  commit?: string;
  url: string;
  licence: string;
  note?: string;
}

export interface ConfigRecord {
  id: string;
  /** config.json fields, as the model's own config.json spells them. */
  config: Record<string, unknown>;
  /** Other ids of the same weights (Instruct/Chat variants with the same shape, renamed orgs, ModelScope ids). */
  aliases?: string[];
  /** Where in the source. */
  where: string;
  /** Further sources for parts of the config (a vision_config taken from elsewhere). */
  extraSources?: Array<SourceInfo & { for: string }>;
  /** Fields the source does not state, to be settled by a published total (`tie_word_embeddings`). */
  settle?: string[];
}

export interface ConfigInput {
  file: string;
  source: SourceInfo;
  models: ConfigRecord[];
}

export interface PublishedCount {
  id: string;
  total: number;
  where: string;
  /** The lister found the repo itself and may have put an estimate of its own there (llmfit `_discovered`). */
  discovered?: boolean;
  /** The total counts the model as loaded, without the checkpoint's unloaded layers (multi-token prediction). */
  loaded?: boolean;
}

export interface CountInput {
  file: string;
  source: SourceInfo;
  counts: PublishedCount[];
}

export interface RegistryModel {
  hf?: string | null;
  ms?: string | null;
  name?: string | null;
}

export interface RegistryInput {
  file: string;
  source: SourceInfo;
  families: Array<{ family: string; models: RegistryModel[]; where: string; multimodal?: boolean }>;
}

/** A field a config table leaves unsaid (litgpt, llmfit: tying), as the model's own training config states it. */
export interface StatedField {
  id: string;
  tie_word_embeddings: boolean;
  where: string;
}

export interface StatedInput {
  file: string;
  source: SourceInfo;
  fields: StatedField[];
}

export interface Inputs {
  configs: ConfigInput[];
  counts: CountInput[];
  registries: RegistryInput[];
  stated: StatedInput[];
}

/**
 * Which config source wins when two state the same model: hand-checked copies of the models' own
 * config.json files first, then whole-config tables, then the tables that leave tying unsaid (litgpt, llmfit).
 */
const configPriority = ['reference', 'hf-configs', 'aiconfigurator', 'mlc-llm', 'litgpt', 'llmfit'];
/** ms-swift names the families and the ModelScope ids first; LLaMA-Factory fills in what it lacks. */
const registryPriority = ['ms-swift', 'llama-factory'];

function ranked(files: string[], priority: string[]): string[] {
  const rank = (f: string) => {
    const i = priority.indexOf(path.basename(f, '.json'));
    return i < 0 ? priority.length : i;
  };
  return [...files].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function readAll<T>(dir: string, priority: string[]): Array<T & { file: string }> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  return ranked(files, priority).map((f) => ({ ...(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as T), file: path.join(path.basename(dir), f) }));
}

export function loadInputs(dir: string): Inputs {
  return {
    configs: readAll<Omit<ConfigInput, 'file'>>(path.join(dir, 'configs'), configPriority),
    counts: readAll<Omit<CountInput, 'file'>>(path.join(dir, 'counts'), []),
    registries: readAll<Omit<RegistryInput, 'file'>>(path.join(dir, 'registries'), registryPriority),
    stated: readAll<Omit<StatedInput, 'file'>>(path.join(dir, 'stated'), []),
  };
}
