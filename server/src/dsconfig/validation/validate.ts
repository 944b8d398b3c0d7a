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
import type { SectionErrorsMemo } from './sectionErrors';
import type { RuleMemo } from './ruleMemo';
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
export function validateConfig(parses: ConfigParses, document: TextDocument, settings: ZeroLensSettings, release?: DeepSpeedRelease, memo?: ValidationMemo, world = worldOfSettings(settings)): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const phase of validationPhases(new ConfigView(document, parses.parse(document), world, release, settings.locale), settings, out, memo)) phase();
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
  memo?: ValidationMemo,
  world = worldOfSettings(settings),
): Promise<Diagnostic[]> {
  const version = document.version;
  const pacer = new Pacer();
  const parsed = await parses.parseForValidation(document, budget);
  await budget.checkpoint();
  if (!parsed) return [];
  const out: Diagnostic[] = [];
  for (const phase of validationPhases(new ConfigView(document, parsed, world, release, settings.locale), settings, out, memo)) {
    // Checked without an await first: each await on a keystroke's path is garbage the young generation collects.
    if (pacer.due()) {
      await pacer.yield();
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

/** What an open document's validation keeps for its next version, where a keystroke left parts as they were. */
export interface ValidationMemo {
  /** The schema walk's findings per object (walkMemo.ts). */
  walks?: WalkMemo;
  /** ajv's errors per top-level section (sectionErrors.ts). */
  sections?: SectionErrorsMemo;
  /** The cross-key rules' findings and what each read (ruleMemo.ts). */
  rules?: RuleMemo;
}

/**
 * The checks in order, each appending to `out`; text-level diagnostics are added right away. `memo`: what the
 * checks found in the previous versions of an open document.
 */
function validationPhases(config: ConfigView, settings: ZeroLensSettings, out: Diagnostic[], memo?: ValidationMemo): (() => void)[] {
  out.push(...textDiagnostics(config, settings));
  if (config.parsed.root?.type !== 'object') return [];
  // A bug in one check must not hide the others' results; say so instead of failing silently.
  const failed = (name: string, error: unknown): void => {
    const message = config.t('ZeRO Lens could not finish its "{0}" check: {1}. Please report this.', name, error instanceof Error ? error.message : String(error));
    out.push(config.diagnostic('internal-error', 'information', config.rootRange(), message, { path: [] }));
  };
  // try/catch in each phase rather than a helper with a fallback value: that value was made on every keystroke.
  let handledPointers: Set<string> | undefined;
  return [
    () => {
      let walk: ReturnType<typeof walkWithSchema>;
      try {
        walk = walkWithSchema(config, ownedPointers, memo?.walks);
      } catch (error) {
        // l10n-ignore: a check's name, quoted in a bug report
        failed('schema keys', error);
        return;
      }
      handledPointers = walk.handledPointers;
      out.push(...walk.diagnostics);
      if (walk.diagnostics.length >= maxWalkDiagnostics) {
        out.push(config.diagnostic('too-many-problems', 'information', config.rootRange(), config.t('ZeRO Lens stopped checking keys after {0} problems; fix these first.', maxWalkDiagnostics), { path: [] }));
      }
    },
    () => {
      try {
        out.push(...schemaDiagnostics(config, handledPointers ?? new Set(), ownedPointers, memo?.sections));
      } catch (error) {
        // l10n-ignore: a check's name, quoted in a bug report
        failed('schema', error);
      }
    },
    // Each rule called as it is, not through a closure of its own: a keystroke runs about 80 of them, and what they
    // allocate sets how often the young generation is collected while the editor waits.
    () => {
      const rules = memo?.rules?.session(config);
      for (const rule of allRules) {
        try {
          for (const diagnostic of rules?.takeOver(rule) ?? rules?.run(rule) ?? rule(config)) out.push(diagnostic);
        } catch (error) {
          failed(rule.name || 'rule', error);
        }
      }
    },
  ];
}
