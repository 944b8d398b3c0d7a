// Lets `require` load TypeScript (and the .mjs build scripts some tests import), compiled to CommonJS by esbuild
// and cached in .cache/unit-tests. Preloaded into every unit and property test process (register.cjs).
//
// Why not tsx, as the other suites use: each test file runs in a process of its own, and in every one tsx's ESM
// hooks start a loader thread and its require hook passes every .js file of node_modules through its own
// handling; the dependencies loaded at half speed. Here plain .js loads as Node loads it, and a source file is
// compiled again only when it changed. The price: tests are CommonJS, so they use static imports only (no
// top-level await, no `await import()` of a .ts file).
const Module = require('node:module');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const tsconfigFile = path.join(root, 'tsconfig.json');
const cacheDir = path.join(root, '.cache/unit-tests');

/** What else a compiled file depends on: a new esbuild, tsconfig or version of this file compiles everything again. */
const toolchain = [require('esbuild/package.json').version, fs.statSync(tsconfigFile).mtimeMs, fs.statSync(__filename).mtimeMs].join(' ');

let esbuild;

/** The first line of a cached file says what it was compiled from; anything else there means compile again. */
function stampOf(filename) {
  const { mtimeMs, size } = fs.statSync(filename);
  return `// ${toolchain} ${mtimeMs} ${size}\n`;
}

function compile(filename) {
  esbuild ??= require('esbuild');
  return esbuild.transformSync(fs.readFileSync(filename, 'utf8'), {
    loader: filename.endsWith('.ts') ? 'ts' : 'js',
    format: 'cjs',
    target: 'node20',
    platform: 'node',
    tsconfigRaw: fs.readFileSync(tsconfigFile, 'utf8'),
    sourcefile: filename,
    sourcemap: 'inline',
    // Stack traces need the mappings only; the source text would double what each test process parses per module
    // (with it, loading the language service cost about 0.09 s more CPU in each of the ~200 test processes).
    sourcesContent: false,
    // CommonJS has no import.meta; its url is the one thing tests and build scripts read from it.
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;",
  }).code;
}

function compiled(filename) {
  const stamp = stampOf(filename);
  const cached = path.join(cacheDir, `${crypto.createHash('sha1').update(filename).digest('hex')}.js`);
  try {
    const text = fs.readFileSync(cached, 'utf8');
    if (text.startsWith(stamp)) return text.slice(stamp.length);
  } catch {
    // not compiled yet
  }
  const code = compile(filename);
  fs.mkdirSync(cacheDir, { recursive: true });
  // Written aside and renamed: test processes run side by side and may compile the same file at once.
  const partial = `${cached}.${process.pid}.tmp`;
  fs.writeFileSync(partial, stamp + code);
  fs.renameSync(partial, cached);
  return code;
}

function load(module, filename) {
  module._compile(compiled(filename), filename);
}

Module._extensions['.ts'] = load;
Module._extensions['.mjs'] = load;
// Stack traces of failing tests point into the TypeScript source.
process.setSourceMapsEnabled(true);
