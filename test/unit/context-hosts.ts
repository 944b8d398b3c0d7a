/** In-memory hosts and fixture loading shared by the context tests (not a test file itself). */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { FileSystemHost, Hosts, WorkspaceHost } from '../../server/src/host';

export const fixtureDir = path.resolve(__dirname, '../fixtures/context');
/** Where the in-memory workspace lives; paths are POSIX-like on every platform through path.resolve. */
export const workspaceRoot = path.resolve('/ws');

export function fixture(name: string): string {
  return readFileSync(path.join(fixtureDir, name), 'utf8');
}

/** A workspace of in-memory files. `reads` counts file reads, to check that caches hold. */
export function memoryHosts(files: Record<string, string>): Hosts & { reads: () => number; write: (name: string, text: string) => void } {
  const byPath = new Map(Object.entries(files).map(([name, text]) => [path.join(workspaceRoot, name), text]));
  let reads = 0;
  const fs: FileSystemHost = {
    async readFile(file) {
      reads++;
      return byPath.get(path.normalize(file));
    },
    async readBytes() {
      return undefined;
    },
    async exists(file) {
      return byPath.has(path.normalize(file));
    },
    async listDir() {
      return undefined;
    },
  };
  const workspace: WorkspaceHost = {
    folders: () => [workspaceRoot],
    launchFiles: async () => [...byPath.keys()].filter((f) => /\.(sh|ya?ml)$/.test(f)).sort(),
    jsonFiles: async () => [...byPath.keys()].filter((f) => f.endsWith('.json')),
  };
  return { fs, workspace, reads: () => reads, write: (name, text) => byPath.set(path.join(workspaceRoot, name), text) };
}

export function configDocument(name: string, text = fixture(name), version = 1): TextDocument {
  return TextDocument.create(URI.file(path.join(workspaceRoot, name)).toString(), 'json', version, text);
}

export function scriptDocument(name: string, text = fixture(name), version = 1): TextDocument {
  return TextDocument.create(URI.file(path.join(workspaceRoot, name)).toString(), 'shellscript', version, text);
}

/** The text after applying a WorkspaceEdit's edits for one document. */
export function applyWorkspaceEdit(document: TextDocument, edit: { changes?: Record<string, { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]> } | undefined): string {
  const edits = edit?.changes?.[document.uri] ?? [];
  return TextDocument.applyEdits(document, edits);
}
