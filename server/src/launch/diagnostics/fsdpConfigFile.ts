/**
 * An FSDP config file checked in itself (launch/fsdp/configFile.ts): the checks a script's `--fsdp_config` or
 * ms-swift `--fsdp` runs on the file it names (fsdpTrainer.ts), each shown on the key it is about, with the fix
 * that renames a misspelt key; and where `json.load` fails on the file.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { Translate } from '../../l10n';
import type { SourceContext } from '../command/context';
import { ScriptEditor } from '../edits/textEdits';
import type { FsdpConfigFile } from '../fsdp/configFile';
import { swiftFsdpParts } from '../fsdp/trainerFsdp';
import { swiftOwnFsdpConfigKeys } from '../fsdp/options';
import { raises } from '../upstream';
import { checkConfig, checkVersion, checkWords, type Check, type ConfigPlaces } from './fsdpTrainer';
import { launchDiagnostic } from './launchDiagnostic';

/** The words of ms-swift's `"fsdp"` string, each with its offsets in the file (inside the quotes). */
function wordsOf(file: FsdpConfigFile): { word: string; start: number; end: number }[] {
  const node = file.wordsNode;
  if (!node || typeof node.value !== 'string') return [];
  const out: { word: string; start: number; end: number }[] = [];
  // The string's characters start after its quote; a word with an escape in it is not an option name anyway.
  for (const m of node.value.matchAll(/\S+/g)) out.push({ word: m[0], start: node.offset + 1 + m.index!, end: node.offset + 1 + m.index! + m[0].length });
  return out;
}

export function fsdpConfigFileDiagnostics(ctx: SourceContext, file: FsdpConfigFile, t: Translate): Diagnostic[] {
  const c: Check = { ctx, editor: new ScriptEditor(ctx), t, out: [] };
  if (file.syntaxError) {
    const { offset, length } = file.syntaxError;
    const message = file.shape === 'swift'
      ? t('This FSDP file is not valid JSON: ms-swift reads it with `json.load`, which raises.')
      : t('This FSDP config is not valid JSON: the Trainer reads it with `json.load`, which raises.');
    c.out.push(launchDiagnostic(ctx, 'fsdp-invalid-value', offset, offset + Math.max(1, length), message, {}, { raises: file.shape === 'swift' ? raises.swiftFsdpFile : raises.trainerConfigFile }));
    // A trailing comma or a comment while typing: the keys are still read as the editor shows them.
    if (!file.root) return c.out;
  }
  if (!file.config) {
    if (file.shape === 'swift') checkWords(c, wordsOf(file), true);
    return c.out;
  }
  const keyNamed = (written: string) => file.keys.find((k) => k.written === written);
  const places: ConfigPlaces = {
    key: (written) => {
      const key = keyNamed(written);
      return key ? { start: key.keyStart, end: key.keyEnd } : { start: file.configNode!.offset, end: file.configNode!.offset + 1 };
    },
    rename: (written, to) => {
      const key = keyNamed(written);
      return key ? [{ id: 'rename-key', title: t('Rename to "{0}"', to), ops: [c.editor.replace(key.keyStart, key.keyEnd, JSON.stringify(to))], preferred: true }] : [];
    },
  };
  // A config file is written for `--fsdp`: the checks that apply only with FSDP on apply.
  checkConfig(c, file.config, places, true, file.shape === 'swift' ? swiftOwnFsdpConfigKeys : undefined);
  if (file.shape === 'swift') {
    checkWords(c, wordsOf(file), true);
    checkVersion(c, file.config, swiftFsdpParts(file.value).version, places);
  }
  return c.out;
}
