// Preloaded into every unit test process (`--require`, see package.json): TypeScript first, since the
// second one is TypeScript too.
require('./compileTypeScript.cjs');
require('./usePrecompiledValidator.ts');
