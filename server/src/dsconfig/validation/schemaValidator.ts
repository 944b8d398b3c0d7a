import Ajv, { type ValidateFunction } from 'ajv';
import { schemaIndex } from '../schemaIndex';
import ajvOptions from './ajvOptions.json';

/**
 * The ajv validator of the bundled schema, compiled here at run time. `npm run build` swaps this module for
 * the same validator compiled at build time (scripts/precompileValidator.mjs), so the shipped server never
 * compiles the schema, and unit tests load that compilation too while it is current
 * (test/setup/usePrecompiledValidator.ts); this path serves watch builds and a schema changed since. Throws
 * if the schema cannot be compiled.
 */
export function loadSchemaValidator(): ValidateFunction {
  return new Ajv(ajvOptions).compile(schemaIndex().root as object);
}
