// The bench's reference floor: a language server on vscode-languageserver, as both measured servers are,
// that does no work. It keeps documents in sync, answers a diagnostics pull with no diagnostics at once (or,
// for a client that does not pull, publishes them after every change) and answers hover and completion with
// fixed content the size of a typical answer. Whatever it takes is the cost
// of the library, the pipes and this machine, which no server built on that library can go below.
import { createConnection, ProposedFeatures, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);

const hover = {
  contents: { kind: 'markdown', value: `**floor**\n\n${'A fixed explanation of a key, as long as a typical hover. '.repeat(7)}` },
};
const completion = {
  isIncomplete: false,
  items: Array.from({ length: 20 }, (_, i) => ({ label: `fixed_key_${i}`, kind: 10, insertText: `"fixed_key_${i}": ` })),
};

let pulls = false;
connection.onInitialize(({ capabilities }) => {
  pulls = !!capabilities.textDocument?.diagnostic;
  const diagnosticProvider = pulls ? { diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } : {};
  return { capabilities: { textDocumentSync: 2, hoverProvider: true, completionProvider: { resolveProvider: false }, ...diagnosticProvider } };
});
// The document's first character is the bench's empty round trip: nothing to explain there.
connection.onHover(({ position }) => (position.line === 0 && position.character === 0 ? null : hover));
connection.onCompletion(() => completion);
connection.languages.diagnostics.on(() => ({ kind: 'full', items: [] }));
documents.onDidChangeContent(({ document }) => {
  if (!pulls) void connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics: [] });
});

documents.listen(connection);
connection.listen();
