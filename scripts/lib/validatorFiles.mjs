// Where the schema validator comes from and where its build-time compilation goes, and whether that compilation
// is current. No ajv here: unit-test processes read this before every run, and loading ajv costs each one time.
import { statSync } from 'node:fs';
import { fromRoot } from './paths.mjs';

export const schemaFile = fromRoot('schemas/ds_config.schema.json');
export const ajvOptionsFile = fromRoot('server/src/dsconfig/validation/ajvOptions.json');
/** The run-time path: compiles the schema with ajv on first use. */
export const sourceValidatorFile = fromRoot('server/src/dsconfig/validation/schemaValidator.ts');
/** The same validator compiled at build time (CommonJS, so esbuild bundles it and tests under tsx require it). */
export const generatedValidatorFile = fromRoot('.cache/generated/dsConfigValidator.cjs');

/** Everything the generated module is made from: when any is newer, the module is stale. */
const inputs = [
  schemaFile,
  ajvOptionsFile,
  fromRoot('scripts/precompileValidator.mjs'),
  fromRoot('scripts/lib/validatorFiles.mjs'),
  fromRoot('node_modules/ajv/package.json'),
];

function modifiedAt(file) {
  return statSync(file, { throwIfNoEntry: false })?.mtimeMs;
}

/** Whether the generated validator exists and was written after every input last changed. */
export function generatedValidatorIsCurrent() {
  const generated = modifiedAt(generatedValidatorFile);
  return generated !== undefined && inputs.every((file) => (modifiedAt(file) ?? Infinity) <= generated);
}
