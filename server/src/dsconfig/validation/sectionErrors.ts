import type { ErrorObject, ValidateFunction } from 'ajv';
import { pointerOf } from './schemaWalk';

/** The schema's validator for one top-level key of a config, in the schema's order of its properties. */
export interface SectionValidator {
  key: string;
  validate: ValidateFunction;
}

/**
 * ajv's errors for a config, section by section: the schema's root is an object whose only checks are its
 * properties' (no additionalProperties, no conditions across keys), so validating each top-level value against its
 * own property's schema finds exactly what validating the whole root finds, in the same order, once each error's
 * schemaPath is read from the root (test/unit/schema-section-errors.test.ts compares the two on the corpus).
 * A keystroke inside one value (literalEdit.ts) shares every untouched section's parsed value with the previous
 * version: those sections' errors are taken over (on a typical config ajv was a third of a keystroke's checks).
 * Kept per parsed value (a WeakMap) and key: an entry goes when the version that owns it is gone; a number or
 * string section, per key for its last value.
 */
export class SectionErrorsMemo {
  private readonly bySection = new WeakMap<object, { key: string; errors: ErrorObject[] }>();
  /** A number, string, boolean or null section's last value and its errors, by key. */
  private readonly byValue = new Map<string, { value: unknown; errors: ErrorObject[] }>();
  /** How many sections had their errors taken over and how many were validated (tests, profiling). */
  readonly counts = { takenOver: 0, validated: 0 };

  errorsOf(root: Record<string, unknown>, sections: SectionValidator[]): ErrorObject[] {
    const out: ErrorObject[] = [];
    for (const section of sections) {
      const value = root[section.key];
      if (value === undefined) continue;
      // A number or a string: its errors depend on nothing else (the schema has no $data), kept for its last value.
      if (typeof value !== 'object' || value === null) {
        const last = this.byValue.get(section.key);
        if (last && last.value === value) {
          this.counts.takenOver++;
          for (const error of last.errors) out.push(error);
          continue;
        }
        this.counts.validated++;
        const errors = sectionErrors(root, section);
        this.byValue.set(section.key, { value, errors });
        for (const error of errors) out.push(error);
        continue;
      }
      const held = this.bySection.get(value);
      if (held && held.key === section.key) {
        this.counts.takenOver++;
        out.push(...held.errors);
        continue;
      }
      this.counts.validated++;
      const errors = sectionErrors(root, section);
      this.bySection.set(value, { key: section.key, errors });
      out.push(...errors);
    }
    return out;
  }
}

/** ajv's errors for one top-level value, with paths as validating the whole root gives them. */
export function sectionErrors(root: Record<string, unknown>, { key, validate }: SectionValidator): ErrorObject[] {
  const pointer = pointerOf([key]);
  if (validate(root[key], { instancePath: pointer, parentData: root, parentDataProperty: key, rootData: root, dynamicAnchors: {} })) return [];
  // A section's own keywords are at "#/…" of its schema, "#/properties/<key>/…" of the root's; a definition it
  // refers to is where it is in both.
  return (validate.errors ?? []).map((e) => (e.schemaPath.startsWith('#/definitions/') ? e : { ...e, schemaPath: `#/properties/${pointer.slice(1)}${e.schemaPath.slice(1)}` }));
}

/** Every section's errors, validated now (no memo: one-off validations, the CLI). */
export function allSectionErrors(root: Record<string, unknown>, sections: SectionValidator[]): ErrorObject[] {
  return sections.flatMap((section) => (root[section.key] === undefined ? [] : sectionErrors(root, section)));
}
