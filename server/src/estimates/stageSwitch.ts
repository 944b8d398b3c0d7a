import type { JSONPath } from 'jsonc-parser';
import type { OffloadDevice, ZeroOption } from '../protocol';
import { metaOf, propertiesOf, schemaForPath } from '../dsconfig/schemaIndex';
import { currentOption } from '../training/analyze';
import { extractConfigFacts } from '../memory/configFacts';
import type { JsonOp } from '../diagnostics/fixData';
import { applyJsonOps } from '../diagnostics/applyFix';

/**
 * Moving a config to another ZeRO stage / offload choice. Two scopes:
 * - `stage` (the "Switch to ZeRO-N" fixes): `stage` changes and nothing else the user chose: offload blocks,
 *   the legacy `cpu_offload` keys, ratios and paths stay as written (the checks then say what a stage ignores).
 *   Leaving stage 3, the settings only ZeRO-3 reads go, and the fix's title names each of them.
 * - `option` (an offload fix, "Switch to <option>", the sidebar's Apply): the offload blocks become what the
 *   option names too. Nothing is invented: no placeholder path, no pin_memory nobody asked for.
 * Nothing else in the file is touched.
 */

/** Set `path` to `value`, or remove the property at `path` when value is undefined; `rename` renames the key at `path` first. */
export interface JsonChange {
  path: JSONPath;
  value: unknown;
  /** Renames the key at `path` to this one (kept in place with its comments), then sets `value` there. */
  renameTo?: string;
}

export interface StageSwitch {
  changes: JsonChange[];
  /** Dotted paths of the keys removed because the target stage does not read them (a replaced legacy key is not "dropped"). */
  dropped: string[];
}

export type SwitchScope = 'stage' | 'option';

const zero = 'zero_optimization';

/** The user's offload choices: kept by a stage switch whatever the stage reads. */
const offloadKeys = new Set(['offload_optimizer', 'offload_param', 'cpu_offload', 'cpu_offload_param']);

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const inner = (value as Record<string, unknown>)[key];
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : undefined;
}

function deviceOf(block: unknown): OffloadDevice {
  const device = objectAt({ block }, 'block')?.device;
  return device === 'cpu' || device === 'nvme' ? device : 'none';
}

let stage3OnlyCache: Map<string, Set<string>> | undefined;

/** Keys (per object path) that the schema says only ZeRO-3 consumes, short aliases included. */
function stage3OnlyKeys(objectPath: JSONPath): Set<string> {
  stage3OnlyCache ??= new Map();
  const id = objectPath.join('.');
  let keys = stage3OnlyCache.get(id);
  if (!keys) {
    keys = new Set();
    const node = schemaForPath(objectPath);
    if (node) {
      for (const [key, schema] of Object.entries(propertiesOf(node))) {
        const stages = metaOf(schema).stages;
        if (stages && stages.length > 0 && stages.every((s) => s === 3)) keys.add(key);
      }
    }
    stage3OnlyCache.set(id, keys);
  }
  return keys;
}

/** The changes that move `config` (a parsed value) to `target`. */
export function planStageSwitch(config: unknown, target: ZeroOption, scope: SwitchScope = 'option'): StageSwitch {
  const z = objectAt(config, zero) ?? {};
  const current = currentOption(config);
  const changes: JsonChange[] = [];
  const dropped: string[] = [];
  const remove = (path: JSONPath): void => {
    changes.push({ path, value: undefined });
    dropped.push(path.join('.'));
  };

  if (z.stage !== target.stage) changes.push({ path: [zero, 'stage'], value: target.stage });
  const stageChanges = current.stage !== target.stage;

  if (stageChanges && target.stage < 3) {
    for (const key of Object.keys(z)) {
      const offload = offloadKeys.has(key);
      if (scope === 'stage' && offload) continue;
      if (stage3OnlyKeys([zero]).has(key) || key === 'offload_param' || key === 'cpu_offload_param') remove([zero, key]);
    }
    // Partial optimizer offload is an error below stage 3 ("Partial offloading only supported for ZeRO Stage 3").
    // Other NVMe settings in the block stay: stages 1-2 ignore them, and they are needed again at stage 3.
    const ratio = objectAt(z, 'offload_optimizer')?.ratio;
    if (scope === 'option' && typeof ratio === 'number' && ratio < 1) remove([zero, 'offload_optimizer', 'ratio']);
  }
  if (scope === 'stage') return { changes, dropped };

  // Only the offload the option changes is touched: a block that already says the wanted device (in any
  // spelling DeepSpeed reads, or the legacy boolean) stays as written.
  const written = extractConfigFacts(config);
  const optimizer = target.stage === 0 ? 'none' : target.offloadOptimizer;
  if ((written.offloadOptimizer?.value ?? 'none') !== optimizer) setOffload(changes, z, 'offload_optimizer', 'cpu_offload', optimizer);
  if (target.stage === 3 && (written.offloadParam?.value ?? 'none') !== target.offloadParam) setOffload(changes, z, 'offload_param', 'cpu_offload_param', target.offloadParam);
  return { changes, dropped };
}

/**
 * Turns one offload block on or off. Turning off sets `device: "none"` rather than deleting the block, so
 * pin_memory and buffer settings the user chose are still there when they turn it back on. The legacy
 * boolean (DeepSpeed rejects it together with the block) becomes the block in its place, so a comment
 * above it stays with it; turned off, it is set to false.
 */
function setOffload(
  changes: JsonChange[],
  z: Record<string, unknown>,
  key: 'offload_optimizer' | 'offload_param',
  legacyKey: 'cpu_offload' | 'cpu_offload_param',
  device: OffloadDevice,
): void {
  const block = objectAt(z, key);
  const alreadyRemoved = changes.some((c) => c.value === undefined && c.path.length === 2 && c.path[1] === key);
  if (alreadyRemoved) return;
  if (device === 'none') {
    if (block && deviceOf(block) !== 'none') changes.push({ path: [zero, key, 'device'], value: 'none' });
    if (z[legacyKey] === true) changes.push({ path: [zero, legacyKey], value: false });
    return;
  }
  if (block) {
    if (block.device !== device) changes.push({ path: [zero, key, 'device'], value: device });
    if (legacyKey in z) changes.push({ path: [zero, legacyKey], value: undefined });
    return;
  }
  if (legacyKey in z) changes.push({ path: [zero, legacyKey], value: { device }, renameTo: key });
  else changes.push({ path: [zero, key], value: { device } });
}

/**
 * The moves as fix ops (the quick fixes carry these). A comment on a dropped key's own line describes that
 * key, so it goes with it.
 */
export function stageSwitchOps(config: unknown, target: ZeroOption, scope: SwitchScope = 'option'): { ops: JsonOp[]; dropped: string[] } {
  const plan = planStageSwitch(config, target, scope);
  const ops = plan.changes.flatMap((c): JsonOp[] => {
    if (c.value === undefined) return [{ op: 'remove', path: c.path, withLineComment: true, all: true }];
    if (!c.renameTo) return [{ op: 'set', path: c.path, value: c.value }];
    const renamed = [...c.path.slice(0, -1), c.renameTo];
    return [
      { op: 'rename', path: c.path, newKey: c.renameTo },
      { op: 'set', path: renamed, value: c.value },
    ];
  });
  return { ops, dropped: plan.dropped };
}

/**
 * New text for `text` moved to `target`; comments and formatting of everything else survive. Undefined when
 * a change does not apply to the text (a non-object where the plan expects an object).
 */
export function applyStageSwitch(text: string, config: unknown, target: ZeroOption, scope: SwitchScope = 'option'): { text: string; dropped: string[] } | undefined {
  const { ops, dropped } = stageSwitchOps(config, target, scope);
  const switched = applyJsonOps(text, ops);
  return switched === undefined ? undefined : { text: switched, dropped };
}
