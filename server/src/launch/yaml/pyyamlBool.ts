import type { ScalarTag, Tags } from 'yaml';

/**
 * Booleans as PyYAML resolves them (accelerate and ms-swift read their YAML with yaml.safe_load, LLaMA-Factory with
 * OmegaConf.load over the same resolver): YAML 1.1's yes/no/on/off besides true/false, but not its y/n. The YAML 1.2
 * core schema reads `mixed_precision: no` as the string "no"; the launcher gets False.
 */
const pyyamlBool: ScalarTag = {
  identify: (value) => typeof value === 'boolean',
  default: true,
  tag: 'tag:yaml.org,2002:bool',
  test: /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  resolve: (source) => /^(?:yes|true|on)$/i.test(source),
};

/**
 * A word to write in quotes where it means a string: yes/no/on/off unquoted are booleans to PyYAML (true and false
 * are meant as booleans where the launchers' tables offer them).
 */
export function quotedWhereBoolean(word: string): string {
  return pyyamlBool.test!.test(word) && !/^(?:true|false)$/i.test(word) ? `'${word}'` : word;
}

/** The core schema's tags with its boolean replaced by PyYAML's (for `parseDocument`'s `customTags`). */
export function withPyyamlBooleans(tags: Tags): Tags {
  return tags.map((tag) => (typeof tag === 'object' && 'tag' in tag && tag.tag === pyyamlBool.tag && !('collection' in tag && tag.collection) ? pyyamlBool : tag));
}
