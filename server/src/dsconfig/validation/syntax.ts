import type { Diagnostic } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import { ConfigView, fix, showPath } from './configView';
import type { Translate } from '../../l10n';

/**
 * What the built-in JSON language server already reports for a language id, so ZeRO Lens does not say it twice.
 * VS Code validates `json` with comments and trailing commas as errors and `jsonc` with trailing commas as
 * warnings; both get "Duplicate object key" warnings from its parser. Only where the editor has that server
 * (`editorChecksJson`): in other editors a `json` document may have no other checker.
 */
function builtInReports(languageId: string, editorChecksJson: boolean): { syntax: boolean; comments: boolean; trailingCommas: boolean; duplicates: boolean } {
  if (editorChecksJson && languageId === 'json') return { syntax: true, comments: true, trailingCommas: true, duplicates: true };
  if (editorChecksJson && languageId === 'jsonc') return { syntax: true, comments: false, trailingCommas: true, duplicates: true };
  return { syntax: false, comments: false, trailingCommas: false, duplicates: false };
}

/**
 * Each kind below is listed at most this often: a file that is not JSON at all (a script saved as .json) has
 * a syntax error per token, and hundreds of thousands of diagnostics would stall the editor and overflow
 * `push(...spread)`.
 */
export const maxTextDiagnosticsPerKind = 100;

/** The first `maxTextDiagnosticsPerKind` items; when there are more, one note says how many were left out. */
function firstOf<T>(config: ConfigView, items: T[], what: (t: Translate) => string, out: Diagnostic[]): T[] {
  if (items.length <= maxTextDiagnosticsPerKind) return items;
  out.push(
    config.diagnostic('too-many-problems', 'information', config.rootRange(), config.t('ZeRO Lens lists the first {0} of {1} {2}; fix these first.', maxTextDiagnosticsPerKind, items.length, what(config.t)), { path: [] }),
  );
  return items.slice(0, maxTextDiagnosticsPerKind);
}


/** What each kind is called in the note that lists the first of too many (translated only then). */
const syntaxErrorsWord = (t: Translate) => t('syntax errors');
const duplicateKeysWord = (t: Translate) => t('duplicate keys');
const commentsWord = (t: Translate) => t('comments');
const trailingCommasWord = (t: Translate) => t('trailing commas');

/** Syntax errors, duplicate keys, JSONC extensions, BOM and the parser's size/depth limits. */
export function textDiagnostics(config: ConfigView, settings: ZeroLensSettings): Diagnostic[] {
  const { parsed } = config;
  const builtIn = builtInReports(config.document.languageId, settings.editorChecksJson);
  const out: Diagnostic[] = [];
  const { t } = config;
  // Said only where there is a comment or a trailing comma: a keystroke's validation translates nothing it does not show.
  const jsonLoadNote = () => t('DeepSpeed reads the file with hjson and accepts this, but the Hugging Face Trainer and accelerate read it with json.load and fail.');

  for (const limit of parsed.limits) {
    const tooLarge = limit.kind === 'too-large';
    out.push(
      config.diagnostic(tooLarge ? 'file-too-large' : 'nesting-too-deep', tooLarge ? 'information' : 'warning', config.rangeOfOffsets(limit.offset, limit.length), limit.say(t), { path: [] }),
    );
  }

  if (!builtIn.syntax) {
    for (const error of firstOf(config, parsed.syntaxErrors, syntaxErrorsWord, out)) {
      out.push(config.diagnostic('json-syntax', 'error', config.rangeOfOffsets(error.offset, error.length), error.say(t), { path: [] }));
    }
  }

  for (const duplicate of builtIn.duplicates ? [] : firstOf(config, parsed.duplicateKeys, duplicateKeysWord, out)) {
    const first = config.document.positionAt(duplicate.firstKeyNode.offset);
    const key = String(duplicate.path[duplicate.path.length - 1]);
    out.push(
      config.diagnostic(
        'duplicate-key',
        'error',
        config.rangeOfNode(duplicate.keyNode),
        t('Duplicate key "{0}" (first set on line {1}). DeepSpeed refuses a config file with repeated keys (ValueError); a plain dict would silently keep only the last one.', showPath(duplicate.path), first.line + 1),
        {
          path: duplicate.path,
          firstOffset: duplicate.firstKeyNode.offset,
          // In an ignored earlier copy of its object the path reaches the kept copy: removing the outer duplicate fixes both.
          fixes: duplicate.shadowed ? [] : [fix(t('Remove the first "{0}" (keep the last, as Python would)', key), [{ op: 'remove', path: duplicate.path }])],
        },
      ),
    );
  }

  if (parsed.hasBom) {
    out.push(
      config.diagnostic(
        'utf8-bom',
        'warning',
        config.rangeOfOffsets(0, 1),
        t('The file starts with a UTF-8 byte order mark (BOM). Python\'s json.load (Hugging Face Trainer, accelerate) rejects it with "Unexpected UTF-8 BOM".'),
        { path: [], fixes: [fix(t('Remove the byte order mark'), [{ op: 'deleteText', offset: 0, length: 1, expect: '\ufeff' }], true)] },
      ),
    );
  }

  if (settings.warnOnJsonc) {
    if (!builtIn.comments) {
      for (const comment of firstOf(config, parsed.comments, commentsWord, out)) {
        out.push(config.diagnostic('jsonc-comment', 'warning', config.rangeOfOffsets(comment.offset, comment.length), t('Comment in a JSON config. {0}', jsonLoadNote()), { path: [] }));
      }
    }
    if (!builtIn.trailingCommas) {
      for (const comma of firstOf(config, parsed.trailingCommas, trailingCommasWord, out)) {
        out.push(
          config.diagnostic('jsonc-trailing-comma', 'warning', config.rangeOfOffsets(comma.offset, 1), t('Trailing comma. {0}', jsonLoadNote()), {
            path: [],
            fixes: [fix(t('Remove the trailing comma'), [{ op: 'deleteText', offset: comma.offset, length: 1, expect: ',' }], true)],
          }),
        );
      }
    }
  }

  const root = parsed.root;
  if (root && root.type !== 'object') {
    out.push(
      config.diagnostic('config-not-object', 'error', config.rangeOfNode(root), root.type === 'array' ? t('A DeepSpeed config must be a JSON object { ... }, not a list.') : t('A DeepSpeed config must be a JSON object { ... }, not a {0}.', root.type), { path: [] }),
    );
  }
  return out;
}
