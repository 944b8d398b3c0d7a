import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import { parseConfig } from '../parse';
import { ConfigView } from './configView';
import { allRules, ruleOwnedPaths } from './rules';
import { maxWalkDiagnostics, pointerOf, walkWithSchema } from './schemaWalk';
import { schemaDiagnostics } from './schemaValidation';
import { textDiagnostics } from './syntax';

const ownedPointers = new Set(ruleOwnedPaths.map(pointerOf));

/**
 * All ds_config diagnostics for one document: text level (syntax, duplicates, JSONC), schema (types, enums,
 * unknown keys, "auto", integers, deprecations, aliases, stage-only keys) and the cross-key rules.
 * Each check is isolated so one failing check cannot hide the others' results.
 */
export function validateConfig(document: TextDocument, settings: ZeroLensSettings): Diagnostic[] {
  const config = new ConfigView(document, parseConfig(document));
  const out: Diagnostic[] = [...textDiagnostics(config, settings)];
  if (config.parsed.root?.type !== 'object') return out;
  const guarded = <T>(name: string, run: () => T, fallback: T): T => {
    try {
      return run();
    } catch (error) {
      // A bug in one check must not hide the others' results; say so instead of failing silently.
      const message = `ZeRO Lens could not finish its "${name}" check: ${error instanceof Error ? error.message : String(error)}. Please report this.`;
      out.push(config.diagnostic('internalError', 'information', config.rootRange(), message, { path: [] }));
      return fallback;
    }
  };
  const walk = guarded('schema keys', () => walkWithSchema(config, ownedPointers), { diagnostics: [], handledPointers: new Set<string>() });
  out.push(...walk.diagnostics);
  if (walk.diagnostics.length >= maxWalkDiagnostics) {
    out.push(config.diagnostic('tooManyProblems', 'information', config.rootRange(), `ZeRO Lens stopped checking keys after ${maxWalkDiagnostics} problems; fix these first.`, { path: [] }));
  }
  out.push(...guarded('schema', () => schemaDiagnostics(config, walk.handledPointers, ownedPointers), []));
  for (const rule of allRules) out.push(...guarded(rule.name || 'rule', () => rule(config), []));
  return out;
}
