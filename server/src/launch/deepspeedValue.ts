import type { DeepSpeedReference } from './facts';
import { isSwiftPreset } from './facts';
import type { SourceContext } from './command/context';
import { swiftRepairedJson } from './swiftJsonRepair';
import { jsonNestsDeeperThan } from '../util/nesting';

export interface ClassifyOptions {
  /** The reader runs json_repair on JSON it cannot parse (ms-swift, not the HF Trainer or accelerate). */
  repairsJson?: boolean;
}

/** A value that is clearly a file path rather than a preset name. */
export function looksLikePath(value: string): boolean {
  return /[\\/]/.test(value) || /\.(json|jsonc)$/i.test(value) || value.startsWith('.') || value.startsWith('~');
}

/**
 * Classifies a `--deepspeed` / `deepspeed:` value the way ms-swift does (preset name first, then a file,
 * then inline JSON). `resolved` is the value with script variables substituted, undefined when unknown.
 */
export function classifyDeepSpeedValue(
  ctx: SourceContext,
  written: string,
  resolved: string | undefined,
  start: number,
  end: number,
  via: string,
  options: ClassifyOptions = {},
): DeepSpeedReference {
  const span = ctx.span(start, end);
  if (resolved === undefined) return { kind: 'unresolved', text: written, span, via };
  const text = resolved.trim();
  if (isSwiftPreset(text)) return { kind: 'preset', name: text, text, span, via };
  if (text.startsWith('{')) {
    // Read no further than a config nests: every walk of the value after this would recurse once per level.
    if (jsonNestsDeeperThan(text)) return { kind: 'inline', json: undefined, tooDeep: true, text, span, via };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      const repaired = options.repairsJson ? swiftRepairedJson(text) : undefined;
      if (repaired) return { kind: 'inline', json: repaired.value, repairedJson: repaired.json, text, span, via };
      json = undefined;
    }
    return { kind: 'inline', json, text, span, via };
  }
  if (looksLikePath(text)) return { kind: 'file', path: text, candidates: ctx.candidates(text), text, span, via };
  return { kind: 'unknown', text, span, via };
}
