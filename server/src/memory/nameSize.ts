import { catalogEntries, type CatalogEntry } from './catalog';
import { genericArchitecture } from './genericShape';
import { countParams } from './paramCount';
import type { ModelInfo, NameSizeCaveat } from './types';
import { english, type Translate } from '../protocol/l10n';

/**
 * The size a model's name states, for ids the catalog does not know: `Qwen3.5-35B-A3B`, `gemma-4-E2B-it`,
 * `Mixtral-8x22B`, `SmolLM2-135M`, `Llama-4-Scout-17B-16E`. The estimate then takes that count and the layer
 * shape of the nearest catalog model of the same family (for activations and LoRA), or a generic Llama-like shape
 * when the family is unknown (genericShape.ts), and says everywhere that it is approximate and how to get an exact one.
 */
export interface StatedSize {
  /** Total parameters as the name states them (experts × size for `8x7B`, the effective count for `E2B`). */
  total: number;
  /** MoE: active parameters (`A3B`, or the `17B` of `17B-16E`). */
  active?: number;
  /** The name part before the size: what the family is matched by (`qwen3.5-`). */
  stem: string;
  /** The size as written (`35B-A3B`). */
  text: string;
  /** What the name's number means when it is not the total (worded by `caveatText`). */
  caveat?: NameSizeCaveat;
}

const units: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9, t: 1e12 };
const amount = (n: string, unit: string) => Number(n) * units[unit.toLowerCase()];

/** Patterns, most specific first; each returns the size and where it starts in the name. */
const patterns: Array<{ re: RegExp; read: (m: RegExpExecArray) => Omit<StatedSize, 'stem' | 'text'> }> = [
  // 30B-A3B, 235B-A22B: total and active.
  { re: /(\d+(?:\.\d+)?)([bmt])-?a(\d+(?:\.\d+)?)([bm])(?![a-z0-9])/i, read: (m) => ({ total: amount(m[1], m[2]), active: amount(m[3], m[4]) }) },
  // 17B-16E (Llama 4): active size and the number of experts; the total is not stated.
  {
    re: /(\d+(?:\.\d+)?)([bm])-(\d+)e(?![a-z0-9])/i,
    read: (m) => ({ total: amount(m[1], m[2]), active: amount(m[1], m[2]), caveat: { kind: 'active-of-experts', size: `${m[1]}${m[2].toUpperCase()}`, experts: Number(m[3]) } }),
  },
  // 8x7B, 8x22B: experts × size (the shared layers are counted once per expert, so this is an upper bound).
  { re: /(\d+)x(\d+(?:\.\d+)?)([bm])(?![a-z0-9])/i, read: (m) => ({ total: Number(m[1]) * amount(m[2], m[3]), caveat: { kind: 'experts-times-size', size: `${m[2]}${m[3].toUpperCase()}`, experts: Number(m[1]) } }) },
  // E2B, E4B (Gemma 3n/4): effective parameters; embeddings per layer and towers come on top.
  { re: /(?:^|[-_])e(\d+(?:\.\d+)?)([bm])(?![a-z0-9])/i, read: (m) => ({ total: amount(m[1], m[2]), caveat: { kind: 'effective', size: `E${m[1]}${m[2].toUpperCase()}` } }) },
  // 1_8B, 1_6b: Qwen-1 (Qwen/Qwen-1_8B), InternLM (internlm2_5-1_8b-chat) and StableLM (stablelm-2-1_6b) write the
  // decimal point as "_". Only after "-" or at the start: in llama_2_7b the underscores separate words.
  { re: /(?:^|-)(\d+)_(\d+)([bmt])(?![a-z0-9])/i, read: (m) => ({ total: amount(`${m[1]}.${m[2]}`, m[3]) }) },
  // 7b1, 1b7: BLOOM's 7.1B and 1.7B (bigscience/bloom-7b1, bloomz-7b1-mt).
  { re: /(?:^|[-_]|(?<!\d)\.)(\d+)([bm])(\d+)(?![a-z0-9])/i, read: (m) => ({ total: amount(`${m[1]}.${m[3]}`, m[2]) }) },
  // 13B, 0.5B, 1.5b, 135M, 1T. A dot after a digit is a decimal point, not a separator: the ".7B" of MoE-A2.7B
  // is no size (an active size alone states no total).
  { re: /(?:^|[-_]|(?<!\d)\.)(\d+(?:\.\d+)?)([bmt])(?![a-z0-9])/i, read: (m) => ({ total: amount(m[1], m[2]) }) },
];

/** The size stated in a model id's last segment, if any. */
export function statedSize(id: string): StatedSize | undefined {
  const name = id.replace(/\\/g, '/').replace(/\/+$/, '').split('/').pop() ?? '';
  for (const { re, read } of patterns) {
    const m = re.exec(name);
    if (!m) continue;
    const size = read(m);
    if (!(size.total > 0)) continue;
    const start = m.index + (/^[-_.]/.test(m[0]) ? 1 : 0);
    const text = name.slice(start, m.index + m[0].length);
    return { ...size, stem: name.slice(0, start).toLowerCase(), text };
  }
  return undefined;
}

const lastSegment = (id: string) => id.slice(id.lastIndexOf('/') + 1).toLowerCase();

/**
 * Catalog models of the same family: names that start with the same stem (`qwen3.5-`), the stem cut back at
 * separators until something matches, but never below one word of letters.
 */
function familyOf(stem: string): CatalogEntry[] {
  let s = stem.replace(/[-_.]+$/, '');
  while (s.length >= 3 && /[a-z]{2,}/.test(s)) {
    const found = catalogEntries().filter((e) => [e.id, ...e.aliases].some((id) => lastSegment(id).startsWith(s)));
    if (found.length) return found;
    const cut = s.search(/[-_.][^-_.]*$/);
    if (cut <= 0) break;
    s = s.slice(0, cut);
  }
  return [];
}

/**
 * The family member closest in size (log scale), MoE preferred for a MoE name. Among members of one size, the
 * one the name was made from (`Qwen2.5-72B` for `Qwen2.5-72B-Instruct-AWQ`) before fine-tunes that share its
 * shape, then the one most ids point at.
 */
function nearest(family: CatalogEntry[], size: StatedSize, name: string): CatalogEntry | undefined {
  const distance = (e: CatalogEntry) => Math.abs(Math.log(e.counts.total / size.total)) + (Boolean(e.info.architecture?.moe) !== Boolean(size.active) ? 10 : 0);
  const madeFrom = (e: CatalogEntry) => ([e.id, ...e.aliases].some((id) => name.startsWith(lastSegment(id))) ? 0 : 1);
  return [...family].sort((a, b) => distance(a) - distance(b) || madeFrom(a) - madeFrom(b) || b.aliases.length - a.aliases.length || a.id.localeCompare(b.id))[0];
}

/** The label beside the name of a model sized from its name, in the reader's language. */
export function nameSizeLabel(t: Translate = english): string {
  return t('size from the name');
}

export const NAME_SIZE_LABEL = nameSizeLabel();

/** What a name's number means when it is not the total, in words. */
export function caveatText(caveat: NameSizeCaveat, t: Translate = english): string {
  switch (caveat.kind) {
    case 'active-of-experts':
      return t('{0} is the active size of {1} experts; the total is larger', caveat.size, caveat.experts ?? 0);
    case 'experts-times-size':
      return t('{0} experts × {1}, an upper bound', caveat.experts ?? 0, caveat.size);
    case 'effective':
      return t('{0} counts effective parameters; the checkpoint holds more', caveat.size);
  }
}

/** How a model sized from its name was sized, and how to get an exact count: the note every surface lists. */
export function approximateNote(approximate: NonNullable<ModelInfo['approximate']>, t: Translate = english): string {
  const generic = approximate.genericShape;
  const shape = approximate.shapeFrom
    ? t('layer shape of {0}', approximate.shapeFrom)
    : generic
      ? t('no catalog model of its family, so activations come from a generic Llama-like shape: width {0}, {1} layers, a {2} vocabulary', generic.hiddenSize, generic.numLayers, generic.vocabSize)
      : t('no catalog model of its family, so activations are not counted');
  const caveat = approximate.caveat ? t({ message: '; ', comment: 'between the clauses of a list' }) + caveatText(approximate.caveat, t) : '';
  return t(
    'Approximate: {0} from the name ({1}{2}). For an exact count, point `--model` (or the `zeroLens.model` setting) at a local model folder with its config.json, or download the model into the Hugging Face or ModelScope cache.',
    approximate.stated,
    shape,
    caveat,
  );
}

/** The name a model is shown by: an approximate size says so beside it. */
export function modelDisplayName(model: ModelInfo, t: Translate = english): string {
  return model.approximate ? t('{0} ({1})', model.id.slice(model.id.lastIndexOf('/') + 1), nameSizeLabel(t)) : model.displayName;
}

/**
 * ModelInfo for an id the catalog does not know, from the size its name states; undefined when the name
 * states none. Never silent: `approximate` carries the label, what the name says and how to get an exact count
 * (in English; `approximateNote` and `modelDisplayName` word them in the reader's language).
 */
export function modelFromNameSize(id: string): ModelInfo | undefined {
  const size = statedSize(id);
  if (!size) return undefined;
  const sibling = nearest(familyOf(size.stem), size, lastSegment(id.replace(/\\/g, '/').replace(/\/+$/, '')));
  // Without a family the shape is generic (genericShape.ts): activations and adapters are still counted.
  const architecture = sibling?.info.architecture ?? genericArchitecture(size.total);
  const genericShape = sibling ? undefined : { hiddenSize: architecture.hiddenSize, numLayers: architecture.numLayers, vocabSize: architecture.vocabSize };
  const approximate: NonNullable<ModelInfo['approximate']> = { label: NAME_SIZE_LABEL, howToExact: '', stated: size.text, shapeFrom: sibling?.id, genericShape, caveat: size.caveat };
  approximate.howToExact = approximateNote(approximate);
  const info: ModelInfo = {
    id,
    displayName: '',
    totalParams: size.total,
    activeParams: size.active,
    largestLayerParams: Math.min(sibling ? sibling.counts.largestLayer : countParams(architecture).largestLayer, size.total),
    architecture,
    source: { kind: 'name-size', family: sibling?.family, statedParams: size.total, statedActiveParams: size.active, shapeFrom: sibling?.id },
    approximate,
  };
  // Every place that shows the name shows the label with it.
  info.displayName = modelDisplayName(info);
  return info;
}
