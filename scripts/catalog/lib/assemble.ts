import { architectureFromConfig } from '../../../server/src/memory/configJson';
import { encodeShape, type EncodedShape } from '../../../server/src/memory/catalogCodec';
import { familyRules } from '../../../server/src/memory/familyRules';
import { countParams } from '../../../server/src/memory/paramCount';
import type { ModelArchitecture } from '../../../server/src/memory/types';
import type { ConfigRecord, Inputs, PublishedCount, SourceInfo, StatedField, StatedInput } from './inputs';
import { isPlainName, lower, nameKey, variantKey } from './variants';

/** A published total with the file it came from. */
export interface Published extends PublishedCount {
  source: SourceInfo;
}

/** One catalog entry as the build sees it, before it is written compactly. */
export interface Entry {
  id: string;
  aliases: string[];
  architecture: ModelArchitecture;
  shape: EncodedShape;
  family: string;
  source: SourceInfo;
  where: string;
  extraSources: Array<SourceInfo & { for: string }>;
  /** How a field the source leaves unsaid was settled. */
  settled?: string;
}

export interface LeftOut {
  id: string;
  reason: string;
}

/** Largest relative difference a published total may have from the computed one (the bound). */
export const TOLERANCE = 0.005;

export const relativeError = (computed: number, published: number) => Math.abs(computed - published) / published;

/**
 * A total a lister may have estimated itself counts only this close to a computed count: a real tensor total
 * is that close (old checkpoints add a few thousand buffer elements), an estimate is off by percents.
 */
export const DISCOVERED_SCREEN = 0.0001;

/** Whether a published total says anything about `a` (see DISCOVERED_SCREEN); undiscovered totals always do. */
export function applies(p: PublishedCount, a: ModelArchitecture): boolean {
  return !p.discovered || publishedError(a, p) <= DISCOVERED_SCREEN;
}

/**
 * How far a published total is from the model's count. Hub totals add up the checkpoint's tensors (layers
 * transformers does not load, like multi-token prediction, included); a total of the loaded model (`loaded`,
 * KerasHub's conversions) is compared with the loaded count. Some checkpoints of tied models (Qwen3-1.7B)
 * store lm_head.weight as a tensor of its own, so for a tied model the count with the head counted twice is
 * compared as well, and the closer one is taken.
 */
export function publishedError(a: ModelArchitecture, published: Pick<PublishedCount, 'total' | 'loaded'>): number {
  const counts = countParams(a);
  const stored = published.loaded ? counts.total : counts.checkpointTotal;
  const error = relativeError(stored, published.total);
  return a.tiedEmbeddings ? Math.min(error, relativeError(stored + a.vocabSize * a.hiddenSize, published.total)) : error;
}

/** Every published total, by lower-case id. */
export function publishedTotals(inputs: Inputs): Map<string, Published[]> {
  const totals = new Map<string, Published[]>();
  for (const file of inputs.counts) {
    for (const c of file.counts) {
      const key = lower(c.id);
      totals.set(key, [...(totals.get(key) ?? []), { ...c, source: file.source }]);
    }
  }
  return totals;
}

interface Candidate {
  record: ConfigRecord;
  source: SourceInfo;
  architecture: ModelArchitecture;
  settled?: string;
}

/**
 * Why config.json reading cannot be trusted with a config: its fields are not understood, or its family has
 * no rule in familyRules.ts (what the family builds beyond the common fields would go uncounted, and no
 * published total has checked it). Such a model is left to the name-size fallback.
 */
function unreadFamily(config: Record<string, unknown>): string | undefined {
  const parsed = architectureFromConfig({ tie_word_embeddings: false, ...config });
  if (!parsed) return 'config.json reading does not understand its fields';
  if (!(parsed.modelType in familyRules)) return `model_type ${parsed.modelType} has no rule in familyRules.ts, so its count would be unchecked`;
  const vision = config.vision_config ?? (config.thinker_config as Record<string, unknown> | undefined)?.vision_config;
  if (vision && !parsed.architecture.parts?.some((p) => p.kind === 'vision')) {
    return `its vision tower (${parsed.outerModelType}) is not one config.json reading counts, so its count would be short`;
  }
  return undefined;
}

/** The tying a model's own training config states for a record's id or one of its aliases. */
function statedTying(record: ConfigRecord, stated: StatedInput[]): { field: StatedField; source: SourceInfo } | undefined {
  const ids = new Set([record.id, ...(record.aliases ?? [])].map(lower));
  for (const file of stated) {
    const field = file.fields.find((f) => ids.has(lower(f.id)));
    if (field) return { field, source: file.source };
  }
  return undefined;
}

/**
 * A record's architecture. Fields the source does not state (litgpt, llmfit: tying) are settled by the
 * model's own training config where one states it (inputs/stated), else by the published total of the id:
 * the one value within the tolerance while the other is not. Without either the record is left out rather
 * than guessed.
 */
function parseRecord(record: ConfigRecord, source: SourceInfo, inputs: Inputs, totals: Map<string, Published[]>, leftOut: LeftOut[]): Candidate | undefined {
  const unsettled = (record.settle ?? []).filter((f) => !(f in record.config));
  if (unsettled.some((f) => f !== 'tie_word_embeddings')) throw new Error(`${record.id}: cannot settle ${unsettled.join(', ')}`);
  const unread = unreadFamily(record.config);
  if (unread) {
    leftOut.push({ id: record.id, reason: `${source.title}: ${unread}` });
    return undefined;
  }
  if (unsettled.length === 0) {
    const parsed = architectureFromConfig(record.config)!;
    return { record, source, architecture: parsed.architecture };
  }
  const stated = statedTying(record, inputs.stated);
  if (stated) {
    const parsed = architectureFromConfig({ ...record.config, tie_word_embeddings: stated.field.tie_word_embeddings })!;
    return { record, source, architecture: parsed.architecture, settled: `tie_word_embeddings=${stated.field.tie_word_embeddings}: stated by ${stated.source.title} (${stated.field.where})` };
  }
  const published = [record.id, ...(record.aliases ?? [])].flatMap((id) => totals.get(lower(id)) ?? []);
  // To within 0.01%, strictly as stored (a tied model whose checkpoint repeats the head reads as untied, the
  // larger count): in a large model the head is a smaller share than the 0.5% tolerance.
  const fitsStored = (tied: boolean, p: Published) => {
    const counts = countParams(architectureFromConfig({ ...record.config, tie_word_embeddings: tied })!.architecture);
    const total = p.loaded ? counts.total : counts.checkpointTotal;
    return relativeError(total, p.total) <= DISCOVERED_SCREEN;
  };
  const usable = published.filter((p) => !p.discovered || fitsStored(true, p) || fitsStored(false, p));
  if (usable.length === 0) {
    const why = published.length
      ? `its published total${published.length > 1 ? 's' : ''} (${published.map((p) => p.total).join(', ')}) fit neither tied nor untied embeddings to within 0.01%`
      : 'no published total settles it';
    leftOut.push({ id: record.id, reason: `${source.title} does not say whether the embeddings are tied, and ${why}` });
    return undefined;
  }
  const fits = [true, false].filter((tied) => usable.every((p) => fitsStored(tied, p)));
  if (fits.length !== 1) {
    leftOut.push({ id: record.id, reason: `the published total (${usable[0].total}) fits ${fits.length ? 'both' : 'neither'} tied and untied embeddings` });
    return undefined;
  }
  const published0 = usable[0];
  const parsed = architectureFromConfig({ ...record.config, tie_word_embeddings: fits[0] })!;
  const p = published0;
  return { record, source, architecture: parsed.architecture, settled: `tie_word_embeddings=${fits[0]}: the only value that fits the published total ${p.total} (${p.source.title})` };
}

/**
 * A release whose source leaves tying unsaid (litgpt) joins another release of the same model as an alias when,
 * with that release's tying, it has the same shape.
 */
function attachReleases(unsettled: ConfigRecord[], byId: Map<string, Candidate>, leftOut: LeftOut[]): void {
  for (const record of unsettled) {
    const sibling = [...byId.values()].find((c) => {
      if (variantKey(c.record.id) !== variantKey(record.id)) return false;
      const parsed = architectureFromConfig({ ...record.config, tie_word_embeddings: c.architecture.tiedEmbeddings });
      return parsed !== undefined && JSON.stringify(encodeShape(parsed.architecture)) === JSON.stringify(encodeShape(c.architecture));
    });
    if (!sibling) continue;
    sibling.record = { ...sibling.record, aliases: [...(sibling.record.aliases ?? []), record.id] };
    const i = leftOut.findIndex((l) => l.id === record.id);
    if (i >= 0) leftOut.splice(i, 1);
  }
}

/** Family of a model: its registry family (ms-swift model type, LLaMA-Factory template), else its config's model_type. */
function registryFamilies(inputs: Inputs): Map<string, string> {
  const family = new Map<string, string>();
  for (const registry of inputs.registries) {
    for (const f of registry.families) {
      for (const m of f.models) {
        for (const id of [m.hf, m.ms]) if (id && !family.has(lower(id))) family.set(lower(id), f.family);
      }
    }
  }
  return family;
}

export interface Assembled {
  entries: Entry[];
  leftOut: LeftOut[];
  /** Registry ids no entry or alias covers. */
  uncovered: string[];
}

export function assemble(inputs: Inputs): Assembled {
  const totals = publishedTotals(inputs);
  const leftOut: LeftOut[] = [];
  // Highest-priority source first; an id stated twice keeps its first statement.
  const byId = new Map<string, Candidate>();
  const unsettled: ConfigRecord[] = [];
  for (const file of inputs.configs) {
    for (const record of file.models) {
      if (byId.has(lower(record.id))) continue;
      const misses: LeftOut[] = [];
      const candidate = parseRecord(record, file.source, inputs, totals, misses);
      if (candidate) byId.set(lower(record.id), candidate);
      else {
        unsettled.push(record);
        leftOut.push(...misses);
      }
    }
  }
  attachReleases(unsettled, byId, leftOut);

  // Releases and re-uploads of one model with one shape become one entry (the others its aliases): the
  // original publisher's id (the highest-priority source, a registry's Hugging Face id), plain name first.
  const groups = new Map<string, Candidate[]>();
  for (const c of byId.values()) {
    const key = `${nameKey(c.record.id)}#${JSON.stringify(encodeShape(c.architecture))}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const families = registryFamilies(inputs);
  const registryIds = new Set(inputs.registries.flatMap((r) => r.families.flatMap((f) => f.models.map((m) => lower(m.hf ?? '')))));
  const rank = new Map(inputs.configs.map((file, i) => [file.source.url, i]));
  const entries: Entry[] = [];
  for (const group of groups.values()) {
    group.sort(
      (a, b) =>
        (rank.get(a.source.url) ?? 0) - (rank.get(b.source.url) ?? 0) ||
        Number(registryIds.has(lower(b.record.id))) - Number(registryIds.has(lower(a.record.id))) ||
        Number(isPlainName(b.record.id)) - Number(isPlainName(a.record.id)) ||
        a.record.id.localeCompare(b.record.id),
    );
    const [main, ...rest] = group;
    const aliases = [...(main.record.aliases ?? []), ...rest.flatMap((c) => [c.record.id, ...(c.record.aliases ?? [])])];
    const ids = [main.record.id, ...aliases];
    const family = ids.map((id) => families.get(lower(id))).find(Boolean) ?? String(main.record.config.model_type ?? 'unknown');
    entries.push({
      id: main.record.id,
      aliases,
      architecture: main.architecture,
      shape: encodeShape(main.architecture),
      family,
      source: main.source,
      where: main.record.where,
      extraSources: main.record.extraSources ?? [],
      settled: main.settled,
    });
  }
  const uncovered = addRegistryAliases(inputs, entries, totals);
  // A release with an entry of its own (Qwen3-4B-Instruct-2507, a hand-written alias of Qwen3-4B) is that entry's
  // name only: a name in two entries finds whichever the server indexes last.
  const ownIds = new Set(entries.map((e) => lower(e.id)));
  for (const e of entries) e.aliases = [...new Set(e.aliases.filter((a) => !ownIds.has(lower(a))))].sort((a, b) => a.localeCompare(b));
  entries.sort((a, b) => lower(a.id).localeCompare(lower(b.id)) || a.id.localeCompare(b.id));
  return { entries, leftOut, uncovered };
}

/**
 * The registries' other ids of catalogued models: the ModelScope id next to a Hugging Face id, and releases
 * (Instruct, Chat, -it) of a catalogued model with the same name otherwise, unless a published total of
 * that release disagrees with the entry's count.
 */
function addRegistryAliases(inputs: Inputs, entries: Entry[], totals: Map<string, Published[]>): string[] {
  const byName = new Map<string, Entry>();
  const byVariant = new Map<string, Entry[]>();
  const index = (e: Entry, id: string) => {
    if (!byName.has(lower(id))) byName.set(lower(id), e);
  };
  // Every entry's own id first: a registry id that is one entry's id and another's alias joins the former.
  for (const e of entries) index(e, e.id);
  for (const e of entries) {
    for (const id of e.aliases) index(e, id);
    byVariant.set(variantKey(e.id), [...(byVariant.get(variantKey(e.id)) ?? []), e]);
  }
  const agrees = (e: Entry, id: string) =>
    (totals.get(lower(id)) ?? []).every((p) => !applies(p, e.architecture) || publishedError(e.architecture, p) <= TOLERANCE);
  const uncovered: string[] = [];
  // A Hugging Face and a ModelScope id of one registry row name one model, unless their names disagree: then
  // each stands alone. (LLaMA-Factory pairs google/gemma-7b with AI-ModelScope/gemma-2b-it, and the
  // Qwen2.5-Math instruct models with Qwen2.5-Coder ones: joined, gemma-7b would read as gemma-2b.)
  const rows = inputs.registries.flatMap((r) =>
    r.families.flatMap((f) =>
      f.models.flatMap((m) => {
        const ids = [m.hf, m.ms].filter((x): x is string => !!x);
        return new Set(ids.map(nameKey)).size > 1 ? ids.map((id) => [id]) : [ids];
      }),
    ),
  );
  for (const ids of rows) {
    let entry = ids.map((id) => byName.get(lower(id))).find(Boolean);
    if (!entry) {
      const sameName = ids.flatMap((id) => byVariant.get(variantKey(id)) ?? []);
      const unique = [...new Set(sameName)];
      if (unique.length === 1 && ids.every((id) => agrees(unique[0], id))) entry = unique[0];
    }
    if (!entry) {
      uncovered.push(ids[0]);
      continue;
    }
    for (const id of ids) {
      if (byName.has(lower(id))) continue;
      entry.aliases.push(id);
      index(entry, id);
    }
  }
  return [...new Set(uncovered)].sort((a, b) => a.localeCompare(b));
}
