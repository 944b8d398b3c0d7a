import type { JSONPath, Node } from 'jsonc-parser';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver-types';
import type { CodeOf } from '../../diagnostics/registry';
import { makeDiagnostic } from '../../diagnostics/makeDiagnostic';
import { diagnosticData } from '../../diagnostics/fixData';
import type { FixKind } from '../../diagnostics/fixKinds';
import { findProperty, findValue, type ParsedConfig } from '../parse';
import type { DsConfigDetails, FixOp, FixSpec } from './fixTypes';
import { valueAt } from '../../util/valueAt';
import type { DeepSpeedRelease } from '../deepspeedRelease';
import { holdsUnder, type ReleaseCheck } from '../releaseChecks';
import { translator, type Locale, type Translate } from '../../l10n';
import { rangeOfSpan } from '../../util/textRange';
import type { WorldSize } from './worldSize';

export type Severity = 'error' | 'warning' | 'information' | 'hint';

const severities: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** ZeRO stage as DeepSpeed resolves it: a number, "auto" (filled by accelerate or dropped), or unknown (invalid value). */
export type StageValue = 0 | 1 | 2 | 3 | 'auto' | undefined;

/**
 * Read-only view of one parsed config for rules: values by path (last duplicate wins, as in DeepSpeed),
 * ranges by path, the DeepSpeed release it runs under when known, the reader's language (`locale`, from
 * settings.locale, and its translator `t`) for every text a rule writes, and a diagnostic builder that fills source, code, docs link and data.
 */
export class ConfigView {
  readonly root: Record<string, unknown>;
  /** The reader's translator: every text a rule writes goes through it. */
  readonly t: Translate;
  /** Told of every value read by path, while the schema walk records what each object's checks depend on (walkMemo.ts). */
  readLog: ((path: JSONPath, value: unknown) => void) | undefined;

  constructor(
    readonly document: TextDocument,
    readonly parsed: ParsedConfig,
    /** The run's data-parallel world size with where it came from (the training context's, else the settings'), when known. */
    readonly world?: WorldSize,
    readonly release?: DeepSpeedRelease,
    readonly locale: Locale = 'en',
  ) {
    this.t = translator(locale);
    const value = parsed.value;
    this.root = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  }

  /** Whether a check whose truth changed between releases holds under this config's release (releaseChecks.ts). */
  holds(check: ReleaseCheck): boolean {
    return holdsUnder(check, this.release);
  }

  get(path: JSONPath): unknown {
    const value = valueAt(this.root, path);
    this.readLog?.(path, value);
    return value;
  }

  has(path: JSONPath): boolean {
    if (path.length === 0) return true;
    const parent = valueAt(this.root, path.slice(0, -1));
    // Read as the key's own value, not its parent's: a parsed value holds no undefined, so the same value there
    // means the same answer (a keystroke elsewhere in a top-level object leaves `has(['bf16'])` as it was).
    if (this.readLog) this.get(path);
    return !!parent && typeof parent === 'object' && Object.prototype.hasOwnProperty.call(parent, path[path.length - 1]);
  }

  /** An object section, or undefined when absent or not an object. */
  section(path: JSONPath): Record<string, unknown> | undefined {
    const value = this.get(path);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  }

  /** True for JSON true and the spellings pydantic's bool accepts (1, "true", "yes", "on", ...). */
  isTrue(path: JSONPath): boolean {
    const value = this.get(path);
    if (value === true || value === 1) return true;
    return typeof value === 'string' && ['true', '1', 'yes', 'on', 't', 'y'].includes(value.trim().toLowerCase());
  }

  /** A number value, or undefined (strings, "auto", missing). */
  number(path: JSONPath): number | undefined {
    const value = this.get(path);
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  }

  /** Lower-cased string value, or undefined. */
  lowerString(path: JSONPath): string | undefined {
    const value = this.get(path);
    return typeof value === 'string' ? value.toLowerCase() : undefined;
  }

  /** The ZeRO stage DeepSpeed will use, following the legacy boolean form and pydantic's int-enum coercion. */
  stage(): StageValue {
    const zero = this.get(['zero_optimization']);
    if (zero === undefined || zero === null || zero === false) return 0;
    if (zero === true) return 1;
    if (typeof zero !== 'object' || Array.isArray(zero)) return undefined;
    if (!this.has(['zero_optimization', 'stage'])) return 0;
    const stage = this.get(['zero_optimization', 'stage']);
    if (stage === 'auto') return 'auto';
    if (stage === true) return 1;
    if (stage === false) return 0;
    const n = typeof stage === 'number' ? stage : typeof stage === 'string' && /^\s*[0-3]\s*$/.test(stage) ? Number(stage) : NaN;
    return n === 0 || n === 1 || n === 2 || n === 3 ? n : undefined;
  }

  /** The stage when it is a known number (not "auto", not invalid). */
  knownStage(): 0 | 1 | 2 | 3 | undefined {
    const stage = this.stage();
    return typeof stage === 'number' ? stage : undefined;
  }

  /** Whether optimizer states are offloaded: an offload_optimizer device, or the deprecated `cpu_offload: true` DeepSpeed turns into one. */
  optimizerOffloaded(): boolean {
    const device = this.lowerString(['zero_optimization', 'offload_optimizer', 'device']);
    if (device !== undefined) return device === 'cpu' || device === 'nvme';
    return !this.has(['zero_optimization', 'offload_optimizer']) && this.isTrue(['zero_optimization', 'cpu_offload']);
  }

  /** Whether the bf16 section is spelled `bf16` or the legacy `bfloat16` (read only when `bf16` is absent). */
  bf16Key(): 'bf16' | 'bfloat16' {
    return !this.has(['bf16']) && this.has(['bfloat16']) ? 'bfloat16' : 'bf16';
  }

  /** A node read for its text (`2.0` or `2`), which its value does not tell: the object holding it counts as read. */
  propertyNode(path: JSONPath): Node | undefined {
    if (this.readLog) this.get(path.slice(0, -1));
    return findProperty(this.parsed.root, path);
  }

  valueNode(path: JSONPath): Node | undefined {
    if (this.readLog) this.get(path.slice(0, -1));
    return findValue(this.parsed.root, path);
  }

  rangeOfOffsets(offset: number, length: number): Range {
    return rangeOfSpan(this.document, { offset, length });
  }

  rangeOfNode(node: Node): Range {
    return this.rangeOfOffsets(node.offset, node.length);
  }

  /** The key of the property at `path`; falls back to the nearest existing ancestor, then the file start. */
  keyRange(path: JSONPath): Range {
    for (let i = path.length; i > 0; i--) {
      const sub = path.slice(0, i);
      const property = typeof sub[sub.length - 1] === 'string' ? findProperty(this.parsed.root, sub) : undefined;
      const key = property?.children?.[0];
      if (key) return this.rangeOfNode(key);
      const item = findValue(this.parsed.root, sub);
      if (item) return this.rangeOfNode(item);
    }
    return this.rootRange();
  }

  /** The value at `path` (falls back like keyRange). */
  valueRange(path: JSONPath): Range {
    const node = findValue(this.parsed.root, path);
    return node ? this.rangeOfNode(node) : this.keyRange(path);
  }

  /** The opening brace of the top-level object (or the file start). */
  rootRange(): Range {
    const root = this.parsed.root;
    return root ? this.rangeOfOffsets(root.offset, Math.min(1, root.length)) : this.rangeOfOffsets(0, 0);
  }

  /**
   * A ds_config diagnostic: the rule chooses its severity per case, and may link a more precise page or, for an
   * error, the upstream line this case fails at where it is not the code's registered one (`raises`).
   */
  diagnostic(code: CodeOf<'ds-config'>, severity: Severity, range: Range, message: string, details: DsConfigDetails, href?: string, raises?: string): Diagnostic {
    return makeDiagnostic(code, range, message, diagnosticData(this.document, details), { severity: severities[severity], href, raises });
  }
}

/** What a ds_config fix does, named by its ops: every op of one kind, or a mixed edit of the config. */
function kindOfOps(ops: FixOp[]): FixKind {
  const kinds = new Set(ops.map((o) => o.op));
  if (kinds.size !== 1) return 'edit-config';
  const names: Record<FixOp['op'], FixKind> = { set: 'set-value', remove: 'remove-key', rename: 'rename-key', deleteText: 'delete-text', replaceText: 'edit-config' };
  return names[ops[0].op];
}

/** Shorthand for the fixes list of a ds_config diagnostic. */
export function fix(title: string, ops: FixOp[], preferred = false): FixSpec {
  const id = kindOfOps(ops);
  return preferred ? { id, title, ops, preferred } : { id, title, ops };
}

/** `zero_optimization.offload_param` style display of a path. */
export function showPath(path: JSONPath): string {
  return path.map((s) => (typeof s === 'number' ? `[${s}]` : s)).join('.').replace(/\.\[/g, '[');
}

/** A JSON value as the user would write it in the config. */
export function showValue(value: unknown): string {
  // NaN and ±Infinity (Python's json reads the tokens) would print as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return JSON.stringify(value) ?? String(value);
}
