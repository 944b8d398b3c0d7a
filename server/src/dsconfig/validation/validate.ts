import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import type { ConfigParses } from '../parse';
import { Pacer, yieldToEventLoop } from '../../util/pacer';
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
export function validateConfig(parses: ConfigParses, document: TextDocument, settings: ZeroLensSettings): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const phase of validationPhases(new ConfigView(document, parses.parse(document), worldSizeOf(settings)), settings, out)) phase();
  return out;
}

/**
 * validateConfig for the server: the same checks, but a huge document yields to the event loop between
 * phases (parse, key walk, schema, rules) so other requests are answered meanwhile, and the work stops as
 * soon as a newer version arrives (its own run will report; this one resolves with nothing).
 */
export async function validateConfigAsync(parses: ConfigParses, document: TextDocument, settings: ZeroLensSettings): Promise<Diagnostic[]> {
  const version = document.version;
  const pacer = new Pacer();
  const parsed = await parses.parseAsync(document, yieldToEventLoop);
  if (!parsed) return [];
  const out: Diagnostic[] = [];
  for (const phase of validationPhases(new ConfigView(document, parsed, worldSizeOf(settings)), settings, out)) {
    if ((await pacer.pause()) && document.version !== version) return [];
    phase();
  }
  return out;
}

/** GPUs of the whole run when the settings say how many per node. */
function worldSizeOf(settings: ZeroLensSettings): number | undefined {
  return settings.gpusPerNode ? settings.gpusPerNode * (settings.nodes ?? 1) : undefined;
}

/** The checks in order, each appending to `out`; text-level diagnostics are added right away. */
function validationPhases(config: ConfigView, settings: ZeroLensSettings, out: Diagnostic[]): (() => void)[] {
  out.push(...textDiagnostics(config, settings));
  if (config.parsed.root?.type !== 'object') return [];
  const guarded = <T>(name: string, run: () => T, fallback: T): T => {
    try {
      return run();
    } catch (error) {
      // A bug in one check must not hide the others' results; say so instead of failing silently.
      const message = `ZeRO Lens could not finish its "${name}" check: ${error instanceof Error ? error.message : String(error)}. Please report this.`;
      out.push(config.diagnostic('internal-error', 'information', config.rootRange(), message, { path: [] }));
      return fallback;
    }
  };
  let handledPointers = new Set<string>();
  return [
    () => {
      const walk = guarded('schema keys', () => walkWithSchema(config, ownedPointers), { diagnostics: [], handledPointers: new Set<string>() });
      handledPointers = walk.handledPointers;
      out.push(...walk.diagnostics);
      if (walk.diagnostics.length >= maxWalkDiagnostics) {
        out.push(config.diagnostic('too-many-problems', 'information', config.rootRange(), `ZeRO Lens stopped checking keys after ${maxWalkDiagnostics} problems; fix these first.`, { path: [] }));
      }
    },
    () => out.push(...guarded('schema', () => schemaDiagnostics(config, handledPointers, ownedPointers), [])),
    () => {
      for (const rule of allRules) out.push(...guarded(rule.name || 'rule', () => rule(config), []));
    },
  ];
}
