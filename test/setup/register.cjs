// Preloaded into every unit and property test process (`--require`, see package.json): TypeScript first,
// since the second one is TypeScript too.
require('./compileTypeScript.cjs');
require('./usePrecompiledValidator.ts');
