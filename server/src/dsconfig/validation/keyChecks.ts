import { withoutDeprecatedPrefix } from '../deprecatedPrefix';
import type { JSONPath, Node } from 'jsonc-parser';
import type { Diagnostic } from 'vscode-languageserver-types';
import { DS } from '../../diagnostics/upstream';
import { metaOf, schemaIndex, typesOf, type SchemaNode } from '../schemaIndex';
import { fix, showPath, type ConfigView } from './configView';
import { joinList, localizedField, type Translate } from '../../l10n';
import { didYouMean } from './didYouMean';
import type { FixSpec } from './fixTypes';
import { pipelineLoadingFails, stage0OffloadFails } from './rules/zero';
import type { PropertySite } from './schemaWalk';

function sectionName(path: JSONPath, t: Translate): string {
  return path.length <= 1 ? t('the top level') : `"${showPath(path.slice(0, -1))}"`;
}

let keyHomes: Map<string, string[]> | undefined;

/** Where each key name is defined in the schema (a few levels deep), to say "this belongs in zero_optimization". */
function homesOf(key: string): string[] {
  if (!keyHomes) {
    keyHomes = new Map();
    const index = schemaIndex();
    const visit = (schema: SchemaNode, path: string[], depth: number): void => {
      for (const [name, child] of Object.entries(index.propertiesOf(schema))) {
        const homes = keyHomes!.get(name) ?? [];
        homes.push(showPath([...path, name]));
        keyHomes!.set(name, homes);
        if (depth < 3) visit(child, [...path, name], depth + 1);
      }
    };
    visit(index.view(index.root), [], 0);
  }
  return keyHomes.get(key) ?? [];
}

/** Why DeepSpeed minds an unknown key in `where`. */
function unknownKeyMessage(t: Translate, key: string, where: string, strict: boolean, keywordsOf: string | undefined): string {
  if (keywordsOf) return t('Unknown key "{0}" in {1}: DeepSpeed passes these keys to {2} as keyword arguments, and one it does not take stops the run with a TypeError.', key, where, keywordsOf);
  return strict
    ? t('Unknown key "{0}": DeepSpeed rejects unknown keys in {1} (pydantic: "Extra inputs are not permitted") and will not start.', key, where)
    : t('Unknown key "{0}" in {1}: it is ignored by DeepSpeed.', key, where);
}

/**
 * Where a keyword argument the class does not take raises TypeError: DeepSpeed builds the scheduler, or the
 * optimizer, with `**params` (the registry's citation is pydantic's refusal of an extra key).
 */
function constructorRaises(keywordsOf: string): string {
  return /\(optimizer, \*\*params\)/.test(keywordsOf) ? `${DS}:deepspeed/runtime/engine.py#L1610` : `${DS}:deepspeed/runtime/engine.py#L2104-2178`;
}

/**
 * A key the schema does not know: error in pydantic sections (DeepSpeed refuses), warning elsewhere (silently
 * ignored, or passed to a constructor whose other forms may take it).
 */
export function unknownKey(
  config: ConfigView,
  path: JSONPath,
  keyNode: Node,
  known: string[],
  present: Record<string, unknown>,
  strict: boolean,
  /** The schema's x-deepspeed of the section when DeepSpeed passes its keys to a constructor (`keywordsOf`). */
  constructorMeta?: { keywordsOf?: string },
): Diagnostic {
  const keywordsOf = constructorMeta?.keywordsOf;
  const { t } = config;
  const key = String(path[path.length - 1]);
  const candidates = didYouMean(key, known);
  const where = sectionName(path, t);
  const elsewhere = homesOf(key).filter((home) => home !== showPath(path));
  const constructor = constructorMeta && localizedField(constructorMeta, 'keywordsOf', config.locale);
  let message = unknownKeyMessage(t, key, where, strict, constructor);
  const or = t(' or ');
  if (candidates.length > 0) message += t(' Did you mean {0}?', candidates.map((c) => `"${c}"`).join(or));
  else if (elsewhere.length > 0) {
    const parents = elsewhere.slice(0, 2).map((home) => home.split('.').slice(0, -1).join('.'));
    message += t(' "{0}" belongs {1}.', key, parents.map((p) => (p ? t('in "{0}"', p) : t('at the top level'))).join(or));
  }
  const fixes: FixSpec[] = candidates
    .filter((c) => !(c in present))
    .map((c, i) => fix(t('Rename to "{0}"', c), [{ op: 'rename', path, newKey: c }], i === 0 && candidates.length === 1));
  fixes.push(fix(t('Remove "{0}"', key), [{ op: 'remove', path }]));
  // Only a key DeepSpeed never reads is "ignored"; a constructor's other forms may take it, hence a warning.
  const code = strict || keywordsOf ? 'unknown-key' : 'ignored-key';
  return config.diagnostic(code, strict ? 'error' : 'warning', config.rangeOfNode(keyNode), message, {
    path,
    candidates,
    elsewhere,
    fixes,
  }, undefined, keywordsOf ? constructorRaises(keywordsOf) : undefined);
}

export interface KeyCheck {
  diagnostics: Diagnostic[];
  /** The key is ignored at the config's stage: don't repeat that for its children. */
  ignored: boolean;
}

/** Deprecated keys, long/short aliases set together, and keys the configured ZeRO stage does not read. */
const noKeyProblem: KeyCheck = Object.freeze({ diagnostics: Object.freeze([]) as unknown as Diagnostic[], ignored: false });

export function checkKey(config: ConfigView, site: PropertySite, underIgnored: boolean): KeyCheck {
  const { t } = config;
  const meta = metaOf(site.schema);
  const stages = meta.stages ?? (site.key.startsWith('stage3_') ? [3] : undefined);
  // Most keys have no problem: they are checked on every keystroke without allocating anything.
  if (!meta.deprecated && !meta.aliasOf && !(stages && site.path[0] === 'zero_optimization')) return noKeyProblem;
  const out: Diagnostic[] = [];
  // Only a key with a problem needs its range and parent path.
  const keyRange = () => config.rangeOfNode(site.keyNode);
  const parentPath = () => site.path.slice(0, -1);

  if (meta.deprecated) {
    const replacement = meta.deprecated.replacement;
    const replacementPath = replacement ? (replacement.includes('.') ? replacement.split('.') : [...parentPath(), replacement]) : undefined;
    // Schema messages often start with "Deprecated:"; the diagnostic already says so.
    const english = (meta.deprecated.message || site.schema.deprecationMessage || '').replace(/^\s*deprecated[:.]?\s*/i, '');
    const said = (meta.deprecated.message ? localizedField(meta.deprecated, 'message', config.locale) : localizedField(site.schema, 'deprecationMessage', config.locale)) ?? '';
    // The diagnostic already says the key is deprecated.
    const reason = config.locale === 'en' ? english : withoutDeprecatedPrefix(said);
    // The replacement may be written under its other name (gather_16bit_… for stage3_gather_16bit_…).
    const setReplacement = replacementPath && (config.has(replacementPath) ? replacementPath : aliasInUse(site, replacementPath));
    if (setReplacement && !site.parentStrict) {
      // Only pydantic's deprecated-field machinery asserts on the pair; a plain-dict reader takes the new key.
      out.push(
        config.diagnostic(
          'deprecated-key',
          'warning',
          keyRange(),
          t('"{0}" is deprecated and "{1}" is also set: DeepSpeed reads "{1}" and ignores this key.', site.key, showPath(setReplacement)),
          { path: site.path, replacement: showPath(setReplacement), fixes: [fix(t('Remove the deprecated "{0}"', site.key), [{ op: 'remove', path: site.path }], true)] },
          meta.docs,
        ),
      );
    } else if (setReplacement) {
      out.push(
        config.diagnostic(
          'deprecated-with-replacement',
          'error',
          keyRange(),
          t('"{0}" is deprecated and "{1}" is also set: DeepSpeed refuses a deprecated key together with its replacement (AssertionError). {2}', site.key, showPath(setReplacement), `${reason.charAt(0).toUpperCase()}${reason.slice(1)}`),
          { path: site.path, replacement: showPath(setReplacement), fixes: [fix(t('Remove the deprecated "{0}"', site.key), [{ op: 'remove', path: site.path }], true)] },
          meta.docs,
        ),
      );
    } else {
      out.push(
        // "Deprecated and ignored: …" continues the sentence rather than explaining it.
        config.diagnostic('deprecated-key', 'warning', keyRange(), !reason ? t('"{0}" is deprecated.', site.key) : /^and\b/i.test(reason) ? `${t('"{0}" is deprecated', site.key)} ${reason}` : t('"{0}" is deprecated: {1}', site.key, reason), {
          path: site.path,
          replacement: replacementPath ? showPath(replacementPath) : null,
          fixes: deprecatedFixes(t, site, replacementPath),
        }, meta.docs),
      );
    }
  }

  if (meta.aliasOf && meta.aliasOf in site.siblings) {
    const longPath = [...parentPath(), meta.aliasOf];
    out.push(
      config.diagnostic(
        'alias-both-set',
        'error',
        keyRange(),
        t('"{0}" and "{1}" are two names of the same setting and both are set: pydantic refuses the pair as an extra input, and DeepSpeed will not start.', site.key, meta.aliasOf),
        {
          path: site.path,
          longKey: meta.aliasOf,
          shortKey: site.key,
          fixes: [
            fix(t('Keep "{0}" (remove "{1}")', meta.aliasOf, site.key), [{ op: 'remove', path: site.path }], true),
            fix(t('Keep "{0}" (remove "{1}")', site.key, meta.aliasOf), [{ op: 'remove', path: longPath }]),
          ],
        },
        meta.docs,
      ),
    );
  }

  const stage = site.path[0] === 'zero_optimization' && stages ? config.knownStage() : undefined;
  const ignored = stage !== undefined && !!stages && !stages.includes(stage);
  if (ignored && stages && !underIgnored && !ruleExplains(config, site)) {
    // At stage 0 ZeRO is simply off and presets keep their ZeRO block around: say it quietly.
    const severity = stage === 0 ? 'hint' : 'warning';
    const used = stages.length === 1 ? t('stage {0}', stages[0]) : t('stages {0}', joinList(t, stages));
    out.push(
      config.diagnostic(
        'ignored-at-stage',
        severity,
        keyRange(),
        t('"{0}" is only read by ZeRO {1}; with "stage": {2} DeepSpeed ignores it.', site.key, used, stage),
        { path: site.path, stage, stages, fixes: [fix(t('Remove "{0}"', site.key), [{ op: 'remove', path: site.path }])] },
        meta.docs,
      ),
    );
  }
  return { diagnostics: out, ignored };
}

/** Keys "ignored at this stage" that a rule explains better, because DeepSpeed does more than ignore them. */
function ruleExplains(config: ConfigView, site: PropertySite): boolean {
  switch (site.path.join('.')) {
    // offload_param has its own rule with a more specific message.
    case 'zero_optimization.offload_param':
      return true;
    // DeepSpeed checks a partial offload ratio at every stage and refuses it below 3.
    case 'zero_optimization.offload_optimizer.ratio':
      return typeof site.value === 'number' && site.value < 1;
    // Optimizer offload at stage 0 still picks a CPU optimizer (optimizerOffloadAtStage0).
    case 'zero_optimization.offload_optimizer':
    case 'zero_optimization.cpu_offload':
      return stage0OffloadFails(config);
    // Checkpoint loading asserts on it at stages 1 and 2 (pipelineLoadingBelowStage3).
    case 'zero_optimization.pipeline_loading_checkpoint':
      return pipelineLoadingFails(config);
    // With AutoTP the weights are sharded at any stage: accelerate's get_state_dict reads the key whenever
    // autotp_size > 1 and raises on save when it is false (accelerator.py:4030-4049). Not ignored then.
    case 'zero_optimization.stage3_gather_16bit_weights_on_model_save':
    case 'zero_optimization.gather_16bit_weights_on_model_save':
      return (config.number(['tensor_parallel', 'autotp_size']) ?? 0) > 1;
    default:
      return false;
  }
}

/** The path of a sibling key that is another name of `replacementPath`'s key, when one is set. */
function aliasInUse(site: PropertySite, replacementPath: JSONPath): JSONPath | undefined {
  const replacement = replacementPath[replacementPath.length - 1];
  const parent = replacementPath.slice(0, -1);
  if (parent.length !== site.path.length - 1 || !parent.every((s, i) => s === site.path[i])) return undefined;
  for (const key of Object.keys(site.siblings)) {
    const schema = schemaIndex().schemaForPath([...parent, key]);
    if (schema && metaOf(schema).aliasOf === replacement) return [...parent, key];
  }
  return undefined;
}

/** Rename when the value fits the replacement; `cpu_offload: true` becomes `offload_*: {"device": "cpu"}`. */
function deprecatedFixes(t: Translate, site: PropertySite, replacementPath: JSONPath | undefined): FixSpec[] {
  const remove = fix(t('Remove "{0}"', site.key), [{ op: 'remove', path: site.path }]);
  if (!replacementPath) return [remove];
  const replacement = String(replacementPath[replacementPath.length - 1]);
  const target = schemaIndex().schemaForPath(replacementPath);
  const types = target ? typesOf(target) : [];
  const valueType = site.value === null ? 'null' : Array.isArray(site.value) ? 'array' : typeof site.value;
  const sameParent = replacementPath.length === site.path.length && replacementPath.slice(0, -1).every((s, i) => s === site.path[i]);
  if (sameParent && (types.length === 0 || types.includes(valueType) || (valueType === 'number' && types.includes('integer')))) {
    return [fix(t('Rename to "{0}"', replacement), [{ op: 'rename', path: site.path, newKey: replacement }], true), remove];
  }
  if (typeof site.value === 'boolean' && types.includes('object')) {
    if (!site.value) return [fix(t('Remove "{0}" (false is the default)', site.key), [{ op: 'remove', path: site.path }], true)];
    // The block takes the flag's place, so a comment above or beside it stays with it.
    const ops: FixSpec['ops'] = sameParent && !(replacement in site.siblings)
      ? [
          { op: 'rename', path: site.path, newKey: replacement },
          { op: 'set', path: replacementPath, value: { device: 'cpu' } },
        ]
      : [
          { op: 'remove', path: site.path },
          { op: 'set', path: replacementPath, value: { device: 'cpu' } },
        ];
    return [fix(t('Replace with "{0}": {"device": "cpu"}', replacement), ops, true)];
  }
  return [remove];
}
