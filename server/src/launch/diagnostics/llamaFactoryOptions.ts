import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { textOf, type Hosts } from '../../host';
import { analyzeDocument } from '../analysis';
import { parseBool, type SourceContext } from '../command/context';
import type { TrainerPart } from '../command/launchCommand';
import { lastOption, optionExtent } from '../command/options';
import type { CommandEnvironment } from '../shell/variables';
import { ScriptEditor } from '../edits/textEdits';
import type { YamlLaunch } from '../yaml/analyzeYaml';
import { removeEntry } from './yamlEntryOps';
import { OptionReader } from '../launchers/trainerArgs';
import type { FixKind } from '../../diagnostics/fixKinds';
import type { TextOp } from '../../diagnostics/fixData';

/** A LLaMA-Factory option as written (a YAML entry, a `key=value` override, a `--key` flag) and the edit that removes it. */
export interface WrittenOption {
  /** true / false where it reads as a boolean, else the text. */
  value: unknown;
  start: number;
  end: number;
  fix: FixKind;
  /** Undefined where removing it does not turn it off (the config file under the command line writes it too). */
  remove?: TextOp;
  /** From the config file under the command line, not written in the document checked. */
  inherited?: boolean;
  /** How the fix's title names it: the key, or the flag as written. */
  name: string;
}

/** The option a config or command line writes last, undefined where it leaves it out. */
export type OptionLookup = (key: string) => WrittenOption | undefined;

/** A LLaMA-Factory YAML config's top-level entries. */
export function yamlOptions(ctx: SourceContext, yaml: YamlLaunch): OptionLookup {
  return (key) => {
    const e = yaml.top.get(key);
    return e && { value: e.value, start: e.keyStart, end: e.valueEnd, fix: 'remove-entry', remove: removeEntry(ctx, e), name: key };
  };
}

/**
 * `llamafactory-cli train`'s options: after a config file, `key=value` overrides (OmegaConf's dotlist); without one,
 * `--key [value]` flags (HfArgumentParser) (hiyouga/LLaMA-Factory@ff6d4d12 src/llamafactory/hparams/parser.py:117-126).
 */
export function commandLineOptions(ctx: SourceContext, env: CommandEnvironment, trainer: TrainerPart): OptionLookup {
  const editor = new ScriptEditor(ctx);
  const reader = new OptionReader(ctx, env, trainer.parsed);
  const read = (text: string) => parseBool(text) ?? text;
  // sys.argv[1], the word after `train`.
  const first = trainer.args[0];
  const configFile = !!first && /\.(ya?ml|json)$/i.test(env.resolve(first) ?? first.value);
  return (key) => {
    let found: WrittenOption | undefined;
    for (const word of configFile ? trainer.args : []) {
      const text = env.resolve(word) ?? word.value;
      if (text.startsWith(`${key}=`)) found = { value: read(text.slice(key.length + 1)), start: word.start, end: word.end, fix: 'remove-flag', remove: editor.removeWords(word.start, word.end), name: key };
    }
    const option = configFile ? undefined : lastOption(trainer.parsed, key);
    if (!option) return found;
    // `--use_galore` alone is true (HfArgumentParser's bool fields take an optional value).
    const text = reader.text(option) ?? '';
    const extent = optionExtent(option, 1);
    return { value: text === '' ? true : read(text), start: extent.start, end: extent.end, fix: 'remove-flag', remove: editor.removeWords(extent.start, extent.end), name: option.written };
  };
}

/**
 * The command line's overrides over the config file it runs (OmegaConf.merge, hiyouga/LLaMA-Factory@ff6d4d12
 * src/llamafactory/hparams/parser.py:117-120). The file's options are `inherited`: this document does not write them.
 */
export function overFile(line: OptionLookup, file: OptionLookup): OptionLookup {
  return (key) => {
    const over = line(key);
    const under = file(key);
    // Removing the override would bring the file's value back: no removal fix then.
    if (over) return under ? { ...over, remove: undefined } : over;
    return under && { ...under, inherited: true };
  };
}

/** The first of `keys` this document writes, where a diagnostic about them stands; undefined where it writes none. */
export function writtenHere(get: OptionLookup, keys: string[]): WrittenOption | undefined {
  return keys.map(get).find((o) => o && !o.inherited);
}

/** The top-level options of the YAML or JSON config a command runs; nothing where none of its paths reads. */
export async function configFileOptions(hosts: Hosts, candidates: string[]): Promise<OptionLookup> {
  for (const path of candidates) {
    const text = await hosts.fs.readFile(path, 'yaml').then(textOf, () => undefined);
    if (text === undefined) continue;
    const analysis = analyzeDocument(TextDocument.create(URI.file(path).toString(), 'yaml', 0, text));
    return analysis.kind === 'yaml' && analysis.yaml ? yamlOptions(analysis.ctx, analysis.yaml) : () => undefined;
  }
  return () => undefined;
}

/** is_env_enabled (LLaMA-Factory extras/misc.py:258-260) of a variable the command sees; unset reads as off. */
export function envEnabled(env: CommandEnvironment, name: string): boolean {
  return ['true', 'y', '1'].includes(env.envBinding(name)?.value?.toLowerCase() ?? '');
}
