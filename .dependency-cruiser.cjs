/**
 * The layer rules of docs/ARCHITECTURE.md, checked by `npm run check:layers` (part of `npm test`).
 *
 * server/src, bottom to top:
 *   protocol/, util/                 shared with the client; import nothing of ours above them
 *   l10n/                            the message catalog (bundles, locales); above protocol, so the client never bundles it
 *   host, settings, feature, classify, completionList, settingsEdit, diagnostics/
 *   memory/, dsconfig/, launch/      the domains (launch may read ds_config parses and estimator types)
 *   training/                        the one pipeline from documents to estimates
 *   estimates/                       the features that show estimates
 *   languageService, analyses        the facade
 *   server, stdio*, dependentsRefresh, modelFolderWatch, pullDiagnostics, nodeHost, safeFile, clientWatch, v8Flags, requestBudget, jsonBasics, listingRecheck, cli/   the edges (LSP, Node, terminal)
 *   bundle, boot/                    the shared bundle's entry and the two small entry points that load it
 */
const edgeFiles = '(server\\.ts$|stdioMessage|dependentsRefresh\\.ts$|modelFolderWatch\\.ts$|pullDiagnostics\\.ts$|nodeHost\\.ts$|safeFile\\.ts$|clientWatch\\.ts$|v8Flags\\.ts$|requestBudget\\.ts$|jsonBasics\\.ts$|listingRecheck\\.ts$|cli/|bundle\\.ts$|boot/)';
const core = `^server/src/(?!${edgeFiles})`;
const edges = `^server/src/${edgeFiles}`;

/** A layer may not import the layers listed after it. */
const above = {
  'server/src/(protocol|util)/': 'server/src/(l10n|host|settings|feature|classify|completionList|diagnostics|memory|dsconfig|launch|training|estimates|languageService|analyses)',
  'server/src/l10n/': 'server/src/(host|settings|feature|classify|completionList|diagnostics|memory|dsconfig|launch|training|estimates|languageService|analyses)',
  'server/src/(host|settings|feature|classify|completionList|settingsEdit)\\.ts$': 'server/src/(memory|dsconfig|launch|training|estimates|languageService|analyses)',
  'server/src/diagnostics/': 'server/src/(memory|dsconfig|launch|training|estimates|languageService|analyses)',
  'server/src/memory/': 'server/src/(dsconfig|launch|training|estimates|languageService|analyses)',
  'server/src/dsconfig/': 'server/src/(memory|launch|training|estimates|languageService|analyses)',
  'server/src/launch/': 'server/src/(training|estimates|languageService|analyses)',
  'server/src/training/': 'server/src/(estimates|languageService|analyses)',
  'server/src/estimates/': 'server/src/(languageService|analyses)',
};

module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Folders form layers: a folder that imports another may not be imported back, directly or through others.',
      scope: 'folder',
      from: { path: '^(server|client)/src' },
      to: { circular: true },
    },
    {
      name: 'core-no-node',
      severity: 'error',
      comment: 'The pure core has no I/O of its own: the hosts (host.ts) are its only door to the file system.',
      from: { path: core },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-no-connection',
      severity: 'error',
      comment: 'Only server.ts speaks LSP; the core returns LSP types and never touches the connection or VS Code.',
      from: { path: core },
      // Matched with or without node_modules/: depcruise leaves a package subpath it cannot resolve (`vscode-languageserver/node`) as written.
      to: { path: '(^|/)(node_modules/)?(vscode-languageserver(/|$)|vscode-languageclient|vscode-jsonrpc|vscode$)' },
    },
    {
      name: 'core-not-to-edges',
      severity: 'error',
      comment: 'The core is used by the edges (the LSP server, the CLI), never the other way round.',
      from: { path: core },
      to: { path: edges },
    },
    ...Object.entries(above).map(([from, to]) => ({
      name: 'layer-order',
      severity: 'error',
      comment: 'A lower layer imports nothing from the layers above it (see the list at the top).',
      from: { path: `^${from}` },
      to: { path: `^${to}` },
    })),
    {
      name: 'client-only-protocol',
      severity: 'error',
      comment: 'The client computes nothing: from the server it imports the shared protocol only.',
      from: { path: '^client/src' },
      to: { path: '^server/src/(?!protocol/)' },
    },
    {
      name: 'webview-only-messages',
      severity: 'error',
      comment: 'The webview talks to the extension through typed messages only: it imports the shared messages, its own files and its UI kit.',
      from: { path: '^client/src/sidebar/webview/' },
      to: { path: '^(?!client/src/sidebar/webview/|client/src/sidebar/messages\\.ts$|node_modules/@vscode-elements/|node_modules/@vscode/codicons/|[.][.]/[a-z-]+/node_modules/@vscode-elements/|[.][.]/[a-z-]+/node_modules/@vscode/codicons/)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Worktrees may link node_modules from another checkout; keep its paths under node_modules/.
    preserveSymlinks: true,
    tsPreCompilationDeps: true,
    // node_modules may be a link (a worktree sharing another checkout's): name packages by where they are imported from.
    preserveSymlinks: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.css$' },
  },
};
