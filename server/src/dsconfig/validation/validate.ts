import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { ZeroLensSettings } from '../../settings';
import type { ConfigParses } from '../parse';
import type { DeepSpeedRelease } from '../deepspeedRelease';
import { Pacer } from '../../util/pacer';
import { unlimited, type Budget } from '../../util/budget';
import { ConfigView } from './configView';
import { allRules, ruleOwnedPaths } from './rules';
import { maxWalkDiagnostics, pointerOf, walkWithSchema } from './schemaWalk';
import { schemaDiagnostics } from './schemaValidation';
import { textDiagnostics } from './syntax';
import type { WalkMemo } from './walkMemo';
import { settingsWorldSize, type WorldSize } from './worldSize';
import { translator } from '../../l10n';

const ownedPointers = new Set(ruleOwnedPaths.map(pointerOf));

/**
 * All ds_config diagnostics for one document: text level (syntax, duplicates, JSONC), schema (types, enums,
 * unknown keys, "auto", integers, deprecations, aliases, stage-only keys) and the cross-key rules; checks whose
 * truth changed between DeepSpeed releases follow `release` (the workspace's, when known); the world-size rules
 * take `world` (the training context's, which the facade injects), else the settings'.
 * Each check is isolated so one failing check cannot hide the others' results.
 */
export function validateConfig(parses: ConfigParses, document: TextDocument, settings: ZeroLensSettings, release?: DeepSpeedRelease, walks?: WalkMemo, world = worldOfSettings(settings)): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const phase of validationPhases(new ConfigView(document, parses.parse(document), world, release, settings.locale), settings, out, walks)) phase();
  return out;
}

/**
 * validateConfig for the server: the same checks, but a huge document yields to the event loop between
 * phases (parse, key walk, schema, rules) so other requests are answered meanwhile, and the work stops at the
 * budget's next checkpoint once it is stale (a newer version, a cancelled pull): `Cancelled` is thrown, so no
 * caller mistakes a stopped run for "no problems". Without a budget, a stale run resolves with nothing.
 */
export async function validateConfigAsync(
  parses: ConfigParses,
  document: TextDocument,
  settings: ZeroLensSettings,
  release?: DeepSpeedRelease,
  budget: Budget = unlimited,
  walks?: WalkMemo,
  world = worldOfSettings(settings),
): Promise<Diagnostic[]> {
  const version = document.version;
  const pacer = new Pacer();
  const parsed = await parses.parseForValidation(document, budget);
  await budget.checkpoint();
  if (!parsed) return [];
  const out: Diagnostic[] = [];
  for (const phase of validationPhases(new ConfigView(document, parsed, world, release, settings.locale), settings, out, walks)) {
    if (await pacer.pause()) {
      await budget.checkpoint();
      if (document.version !== version) return [];
    }
    phase();
  }
  return out;
}

/** Without the training context's world size (`world`), the settings' (zeroLens.gpusPerNode × nodes), when they give one. */
function worldOfSettings(settings: ZeroLensSettings): WorldSize | undefined {
  return settingsWorldSize(settings, translator(settings.locale));
}

/**
 * The checks in order, each appending to `out`; text-level diagnostics are added right away. `walks`: what the
 * schema walk found in the previous versions' objects (an open document's; walkMemo.ts).
 */
function validationPhases(config: ConfigView, settings: ZeroLensSettings, out: Diagnostic[], walks?: WalkMemo): (() => void)[] {
  out.push(...textDiagnostics(config, settings));
  if (config.parsed.root?.type !== 'object') return [];
  const guarded = <T>(name: string, run: () => T, fallback: T): T => {
    try {
      return run();
    } catch (error) {
      // A bug in one check must not hide the others' results; say so instead of failing silently.
      const message = config.t('ZeRO Lens could not finish its "{0}" check: {1}. Please report this.', name, error instanceof Error ? error.message : String(error));
      out.push(config.diagnostic('internal-error', 'information', config.rootRange(), message, { path: [] }));
      return fallback;
    }
  };
  let handledPointers = new Set<string>();
  return [
    () => {
      // l10n-ignore: a check's name, quoted in a bug report
      const walk = guarded('schema keys', () => walkWithSchema(config, ownedPointers, walks), { diagnostics: [], handledPointers: new Set<string>() });
      handledPointers = walk.handledPointers;
      out.push(...walk.diagnostics);
      if (walk.diagnostics.length >= maxWalkDiagnostics) {
        out.push(config.diagnostic('too-many-problems', 'information', config.rootRange(), config.t('ZeRO Lens stopped checking keys after {0} problems; fix these first.', maxWalkDiagnostics), { path: [] }));
      }
    },
    () => out.push(...guarded('schema', () => schemaDiagnostics(config, handledPointers, ownedPointers), [])),
    () => {
      for (const rule of allRules) out.push(...guarded(rule.name || 'rule', () => rule(config), []));
    },
  ];
}
