// Unit tests run the server's source, where schemaValidator.ts compiles the ~400 KB schema's sections with ajv on first use:
// half a second in each of the dozens of test processes that validate a config. The build compiles that
// validator once (scripts/precompileValidator.mjs); this makes `require` of schemaValidator.ts return that one,
// as the bundle does. A missing or stale compilation (the schema changed since) is left alone: then the source
// compiles, as before.
import Module from 'node:module';
import { generatedValidatorFile, generatedValidatorIsCurrent, sourceValidatorFile } from '../../scripts/lib/validatorFiles.mjs';

if (generatedValidatorIsCurrent()) {
  const standIn = new Module(sourceValidatorFile);
  standIn.filename = sourceValidatorFile;
  standIn.loaded = true;
  // Loaded on first use, so test files that never validate do not pay for it.
  standIn.exports = { loadSchemaValidators: () => require(generatedValidatorFile).loadSchemaValidators() };
  require.cache[sourceValidatorFile] = standIn;
}
