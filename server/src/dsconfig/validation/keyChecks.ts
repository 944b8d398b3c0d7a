import type { JSONPath, Node } from 'jsonc-parser';
import type { Diagnostic } from 'vscode-languageserver-types';
import { metaOf, schemaIndex, typesOf, type SchemaNode } from '../schemaIndex';
import { fix, showPath, type ConfigView } from './configView';
import { didYouMean } from './didYouMean';
import type { FixSpec } from './fixTypes';
import { pipelineLoadingFails, stage0OffloadFails } from './rules/zero';
import type { PropertySite } from './schemaWalk';

function sectionName(path: JSONPath): string {
  return path.length <= 1 ? 'the top level' : `"${showPath(path.slice(0, -1))}"`;
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
function unknownKeyMessage(key: string, where: string, strict: boolean, keywordsOf: string | undefined): string {
  if (keywordsOf) return `Unknown key "${key}" in ${where}: DeepSpeed passes these keys to ${keywordsOf} as keyword arguments, and one it does not take stops the run with a TypeError.`;
  return strict
    ? `Unknown key "${key}": DeepSpeed rejects unknown keys in ${where} (pydantic: "Extra inputs are not permitted") and will not start.`
    : `Unknown key "${key}" in ${where}: it is ignored by DeepSpeed.`;
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
  keywordsOf?: string,
): Diagnostic {
  const key = String(path[path.length - 1]);
  const candidates = didYouMean(key, known);
  const where = sectionName(path);
  const elsewhere = homesOf(key).filter((home) => home !== showPath(path));
  let message = unknownKeyMessage(key, where, strict, keywordsOf);
  if (candidates.length > 0) message += ` Did you mean ${candidates.map((c) => `"${c}"`).join(' or ')}?`;
  else if (elsewhere.length > 0) {
    const parents = elsewhere.slice(0, 2).map((home) => home.split('.').slice(0, -1).join('.'));
    message += ` "${key}" belongs ${parents.map((p) => (p ? `in "${p}"` : 'at the top level')).join(' or ')}.`;
  }
  const fixes: FixSpec[] = candidates
    .filter((c) => !(c in present))
    .map((c, i) => fix(`Rename to "${c}"`, [{ op: 'rename', path, newKey: c }], i === 0 && candidates.length === 1));
  fixes.push(fix(`Remove "${key}"`, [{ op: 'remove', path }]));
  // Only a key DeepSpeed never reads is "ignored"; a constructor's other forms may take it, hence a warning.
  const code = strict || keywordsOf ? 'unknown-key' : 'ignored-key';
  return config.diagnostic(code, strict ? 'error' : 'warning', config.rangeOfNode(keyNode), message, {
    path,
    candidates,
    elsewhere,
    fixes,
  });
}

export interface KeyCheck {
  diagnostics: Diagnostic[];
  /** The key is ignored at the config's stage: don't repeat that for its children. */
  ignored: boolean;
}

/** Deprecated keys, long/short aliases set together, and keys the configured ZeRO stage does not read. */
export function checkKey(config: ConfigView, site: PropertySite, underIgnored: boolean): KeyCheck {
  const out: Diagnostic[] = [];
  const meta = metaOf(site.schema);
  // Only a key with a problem needs its range and parent path; most keys have none.
  const keyRange = () => config.rangeOfNode(site.keyNode);
  const parentPath = () => site.path.slice(0, -1);

  if (meta.deprecated) {
    const replacement = meta.deprecated.replacement;
    const replacementPath = replacement ? (replacement.includes('.') ? replacement.split('.') : [...parentPath(), replacement]) : undefined;
    // Schema messages often start with "Deprecated:"; the diagnostic already says so.
    const reason = (meta.deprecated.message || site.schema.deprecationMessage || '').replace(/^\s*deprecated[:.]?\s*/i, '');
    // The replacement may be written under its other name (gather_16bit_… for stage3_gather_16bit_…).
    const setReplacement = replacementPath && (config.has(replacementPath) ? replacementPath : aliasInUse(site, replacementPath));
    if (setReplacement && !site.parentStrict) {
      // Only pydantic's deprecated-field machinery asserts on the pair; a plain-dict reader takes the new key.
      out.push(
        config.diagnostic(
          'deprecated-key',
          'warning',
          keyRange(),
          `"${site.key}" is deprecated and "${showPath(setReplacement)}" is also set: DeepSpeed reads "${showPath(setReplacement)}" and ignores this key.`,
          { path: site.path, replacement: showPath(setReplacement), fixes: [fix(`Remove the deprecated "${site.key}"`, [{ op: 'remove', path: site.path }], true)] },
          meta.docs,
        ),
      );
    } else if (setReplacement) {
      out.push(
        config.diagnostic(
          'deprecated-with-replacement',
          'error',
          keyRange(),
          `"${site.key}" is deprecated and "${showPath(setReplacement)}" is also set: DeepSpeed refuses a deprecated key together with its replacement (AssertionError). ${reason.charAt(0).toUpperCase()}${reason.slice(1)}`,
          { path: site.path, replacement: showPath(setReplacement), fixes: [fix(`Remove the deprecated "${site.key}"`, [{ op: 'remove', path: site.path }], true)] },
          meta.docs,
        ),
      );
    } else {
      out.push(
        // "Deprecated and ignored: …" continues the sentence rather than explaining it.
        config.diagnostic('deprecated-key', 'warning', keyRange(), `"${site.key}" is deprecated${reason ? `${/^and\b/i.test(reason) ? ' ' : ': '}${reason}` : '.'}`, {
          path: site.path,
          replacement: replacementPath ? showPath(replacementPath) : null,
          fixes: deprecatedFixes(site, replacementPath),
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
        `"${site.key}" and "${meta.aliasOf}" are two names of the same setting and both are set: pydantic refuses the pair as an extra input, and DeepSpeed will not start.`,
        {
          path: site.path,
          longKey: meta.aliasOf,
          shortKey: site.key,
          fixes: [
            fix(`Keep "${meta.aliasOf}" (remove "${site.key}")`, [{ op: 'remove', path: site.path }], true),
            fix(`Keep "${site.key}" (remove "${meta.aliasOf}")`, [{ op: 'remove', path: longPath }]),
          ],
        },
        meta.docs,
      ),
    );
  }

  const stages = meta.stages ?? (site.key.startsWith('stage3_') ? [3] : undefined);
  const stage = site.path[0] === 'zero_optimization' && stages ? config.knownStage() : undefined;
  const ignored = stage !== undefined && !!stages && !stages.includes(stage);
  if (ignored && stages && !underIgnored && !ruleExplains(config, site)) {
    // At stage 0 ZeRO is simply off and presets keep their ZeRO block around: say it quietly.
    const severity = stage === 0 ? 'hint' : 'warning';
    const used = stages.length === 1 ? `stage ${stages[0]}` : `stages ${stages.join(', ')}`;
    out.push(
      config.diagnostic(
        'ignored-at-stage',
        severity,
        keyRange(),
        `"${site.key}" is only read by ZeRO ${used}; with "stage": ${stage} DeepSpeed ignores it.`,
        { path: site.path, stage, stages, fixes: [fix(`Remove "${site.key}"`, [{ op: 'remove', path: site.path }])] },
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
function deprecatedFixes(site: PropertySite, replacementPath: JSONPath | undefined): FixSpec[] {
  const remove = fix(`Remove "${site.key}"`, [{ op: 'remove', path: site.path }]);
  if (!replacementPath) return [remove];
  const replacement = String(replacementPath[replacementPath.length - 1]);
  const target = schemaIndex().schemaForPath(replacementPath);
  const types = target ? typesOf(target) : [];
  const valueType = site.value === null ? 'null' : Array.isArray(site.value) ? 'array' : typeof site.value;
  const sameParent = replacementPath.length === site.path.length && replacementPath.slice(0, -1).every((s, i) => s === site.path[i]);
  if (sameParent && (types.length === 0 || types.includes(valueType) || (valueType === 'number' && types.includes('integer')))) {
    return [fix(`Rename to "${replacement}"`, [{ op: 'rename', path: site.path, newKey: replacement }], true), remove];
  }
  if (typeof site.value === 'boolean' && types.includes('object')) {
    if (!site.value) return [fix(`Remove "${site.key}" (false is the default)`, [{ op: 'remove', path: site.path }], true)];
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
    return [fix(`Replace with "${replacement}": {"device": "cpu"}`, ops, true)];
  }
  return [remove];
}
