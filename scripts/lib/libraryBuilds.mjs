// The builds of libraries the bundles take in place of what the packages' entry points would bring in whole: the
// same release and sources, less of what nothing calls (test/unit/library-builds.test.ts).
import { fromRoot } from './paths.mjs';

const builds = {
  /**
   * yaml's ES module build (its package's `default` export condition; Node gets the CommonJS one), so esbuild
   * drops what the core never calls (`parseDocument` is all it uses). Same sources (node_modules/yaml/browser/dist/);
   * it warns through console.warn (stderr) instead of process.emitWarning and reads no LOG_TOKENS / LOG_STREAM
   * debug variables.
   */
  yaml: 'node_modules/yaml/browser/dist/index.js',
  /**
   * vscode-uri's URI module (what Node and the unit tests load through the package's `main`): the `module` build is
   * one file that also holds `Utils` and a copy of Node's path module, which the core never calls (1.8 KiB).
   */
  'vscode-uri': 'node_modules/vscode-uri/lib/umd/uri.js',
};

export const libraryBuilds = {
  name: 'library-builds',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${Object.keys(builds).join('|')})$`) }, (args) => ({ path: fromRoot(builds[args.path]) }));
  },
};
