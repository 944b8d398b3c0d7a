/**
 * A JSON file of FSDP settings, in the two shapes the trainers read: the Hugging Face Trainer's `--fsdp_config`
 * file, whose object is the config (transformers v4.57.6, training_args.py:1942-1952), and ms-swift's `--fsdp`
 * file, `{"fsdp": "<words>", "fsdp_config": {…}}` (swift/arguments/sft_args.py:284-329).
 */
import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { VersionedCache } from '../../util/documentCache';
import { findValue, nodeValue } from '../../util/jsonTree';
import { jsonNestsDeeperThan, maxNestingDepth } from '../../util/nesting';

/** One key of the config object as written, with its offsets. */
export interface ConfigKey {
  written: string;
  keyStart: number;
  keyEnd: number;
}

export interface FsdpConfigFile {
  /** The tree (comments and trailing commas allowed, as the editor shows them), undefined for an empty file. */
  root: Node | undefined;
  /** 'swift': ms-swift's file (words and config); 'trainer': the object is the Trainer's config. */
  shape: 'swift' | 'trainer';
  /** The object that holds the config's keys (undefined when the file has none yet). */
  configNode: Node | undefined;
  /** Its keys in the order written (a later duplicate after the earlier one). */
  keys: ConfigKey[];
  /** Its value, as the trainers' `json.load` reads it (a later duplicate wins). */
  config: Record<string, unknown> | undefined;
  /** ms-swift's `"fsdp"` value node, a string of words. */
  wordsNode: Node | undefined;
  /** The whole file as `json.load` reads it, for ms-swift's reading of words and version. */
  value: Record<string, unknown> | undefined;
  /** Where `json.load` would fail, undefined when the file is valid JSON. */
  syntaxError: { offset: number; length: number } | undefined;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The first place strict JSON fails: jsonc-parser's errors, and the comments and trailing commas it accepts but
 * Python's `json.load` does not.
 */
function strictJsonError(text: string, errors: ParseError[]): { offset: number; length: number } | undefined {
  if (errors.length) return { offset: errors[0].offset, length: errors[0].length };
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    const strict: ParseError[] = [];
    parseTree(text, strict, { disallowComments: true, allowTrailingComma: false });
    return strict.length ? { offset: strict[0].offset, length: Math.max(1, strict[0].length) } : { offset: 0, length: 1 };
  }
}

export function parseFsdpConfigFile(text: string): FsdpConfigFile {
  const empty: FsdpConfigFile = { root: undefined, shape: 'trainer', configNode: undefined, keys: [], config: undefined, wordsNode: undefined, value: undefined, syntaxError: undefined };
  if (!text.trim()) return empty;
  // jsonc-parser recurses per level; user-written depth is refused before it (util/nesting.ts).
  if (jsonNestsDeeperThan(text, maxNestingDepth)) return { ...empty, syntaxError: { offset: 0, length: 1 } };
  // From here `root` is the tolerant tree: comments and trailing commas are reported, and the keys still read.
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const syntaxError = strictJsonError(text, errors);
  if (root?.type !== 'object') return { ...empty, root, syntaxError: syntaxError ?? { offset: 0, length: 1 } };
  // A repeated key is read as json.load reads it: the last one (findValue, as for DeepSpeed configs).
  const nested = findValue(root, ['fsdp_config']);
  const words = findValue(root, ['fsdp']);
  const swift = nested?.type === 'object' || (words?.type === 'string' && !findValue(root, ['transformer_layer_cls_to_wrap']));
  const configNode = swift ? (nested?.type === 'object' ? nested : undefined) : root;
  const keys: ConfigKey[] = [];
  for (const pair of configNode?.children ?? []) {
    const key = pair.children?.[0];
    if (!key || typeof key.value !== 'string') continue;
    keys.push({ written: key.value, keyStart: key.offset, keyEnd: key.offset + key.length });
  }
  const value = asObject(nodeValue(root));
  return {
    root,
    shape: swift ? 'swift' : 'trainer',
    configNode,
    keys,
    // The config is the file's value, or its `fsdp_config` part: one walk of the tree builds both.
    config: swift ? asObject(value?.fsdp_config) : value,
    wordsNode: swift && words?.type === 'string' ? words : undefined,
    value,
    syntaxError,
  };
}

/** One parse per document version, shared by the file's validation, completion and hover. */
export class FsdpConfigFiles {
  private readonly cache = new VersionedCache<FsdpConfigFile>((document) => parseFsdpConfigFile(document.getText()));

  parse(document: TextDocument): FsdpConfigFile {
    return this.cache.get(document);
  }

  forget(uri: string): void {
    this.cache.forget(uri);
  }
}
