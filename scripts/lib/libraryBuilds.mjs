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

/**
 * vscode-languageserver's modules (lib/common/, and node/files.js) that only add what the server never calls: each
 * feature a getter or method on a part of the connection (`connection.languages.semanticTokens`,
 * `connection.window.showDocument`, …) that registers a handler when called, besides exports for servers that
 * sync notebooks, build semantic tokens or resolve modules (`NotebookDocuments`, `SemanticTokensBuilder`, `Files`).
 * The bundle takes each feature as adding nothing (4 KiB); test/unit/library-builds.test.ts fails when a source uses one.
 */
const unusedLspFeatures = {
  notebook: ['NotebookSyncFeature'],
  semanticTokens: ['SemanticTokensFeature'],
  callHierarchy: ['CallHierarchyFeature'],
  typeHierarchy: ['TypeHierarchyFeature'],
  moniker: ['MonikerFeature'],
  inlineValue: ['InlineValueFeature'],
  linkedEditingRange: ['LinkedEditingRangeFeature'],
  showDocument: ['ShowDocumentFeature'],
  fileOperations: ['FileOperationsFeature'],
  textDocumentContent: ['TextDocumentContentFeature'],
  inlineCompletion: ['InlineCompletionFeature'],
  files: [],
};
const lspLibrary = /[\\/]node_modules[\\/]vscode-languageserver[\\/]lib[\\/](common|node)$/;

export const libraryBuilds = {
  name: 'library-builds',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${Object.keys(builds).join('|')})$`) }, (args) => ({ path: fromRoot(builds[args.path]) }));
    build.onResolve({ filter: new RegExp(`^\\./(${Object.keys(unusedLspFeatures).join('|')})$`) }, (args) =>
      lspLibrary.test(args.resolveDir) ? { path: args.path.slice(2), namespace: 'unused-lsp-feature' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'unused-lsp-feature' }, (args) => ({
      contents: unusedLspFeatures[args.path].map((name) => `exports.${name} = (Base) => Base;`).join('\n'),
      loader: 'js',
    }));
  },
};
