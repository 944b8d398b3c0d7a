import Ajv from 'ajv';
import { schemaIndex } from '../schemaIndex';
import ajvOptions from './ajvOptions.json';
import type { SectionValidator } from './sectionErrors';
import { pointerOf } from './schemaWalk';

/** The key the schema is registered under, so its properties can be compiled one by one. */
const schemaKey = 'ds_config';

/**
 * The ajv validators of the bundled schema's top-level properties (sectionErrors.ts), compiled here at run time.
 * `npm run build` swaps this module for the same validators compiled at build time
 * (scripts/precompileValidator.mjs), so the shipped server never compiles the schema, and unit tests load that
 * compilation too while it is current (test/setup/usePrecompiledValidator.ts); this path serves watch builds and a
 * schema changed since. Throws if the schema cannot be compiled.
 */
export function loadSchemaValidators(): SectionValidator[] {
  const root = schemaIndex().root as { properties: Record<string, unknown> };
  const ajv = new Ajv(ajvOptions);
  ajv.addSchema(root, schemaKey);
  return Object.keys(root.properties).map((key) => {
    const validate = ajv.getSchema(`${schemaKey}#/properties${pointerOf([key])}`);
    if (!validate) throw new Error(`the schema's property ${key} did not compile`);
    return { key, validate };
  });
}
