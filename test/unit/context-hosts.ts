/** In-memory hosts and fixture loading shared by the context tests (not a test file itself). */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import { missing, type FileSystemHost, type Hosts, type WorkspaceHost } from '../../server/src/host';
import { createAnalyses } from '../../server/src/analyses';
import { classifyDocument } from '../../server/src/classify';
import type { EstimatedKind } from '../../server/src/feature';
import { createConfigEstimates } from '../../server/src/estimates/configEstimates';
import { estimateView } from '../../server/src/estimates/estimateView';
import { applyOptionEdit } from '../../server/src/estimates/applyOption';
import { describeSource, type ApplyOptionParams, type Sourced } from '../../server/src/protocol';
import { defaultSettings, type ZeroLensSettings } from '../../server/src/settings';

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
      const text = byPath.get(path.normalize(file));
      return text === undefined ? missing : { text };
    },
    async readBytes() {
      return missing;
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

/**
 * The estimate features of a ds_config and the sidebar's requests, built the way the language service builds
 * them (one analysis service per instance), for tests that drive them directly.
 */
export function estimateFeatures(hosts: Hosts) {
  const analyses = createAnalyses(hosts);
  const contributor = createConfigEstimates(analyses.training, analyses.configParses);
  const kindOf = (document: TextDocument) => classifyDocument(document, defaultSettings) as EstimatedKind;
  return {
    ...contributor,
    analyses,
    analyzeConfig: (document: TextDocument, settings: ZeroLensSettings) => analyses.training.analyzeConfig(document, settings),
    getEstimateView: (document: TextDocument, settings: ZeroLensSettings) => estimateView(analyses.training, document, kindOf(document), settings),
    getApplyOptionEdit: (document: TextDocument, params: ApplyOptionParams, _settings?: ZeroLensSettings) =>
      applyOptionEdit(analyses.training, analyses.configParses, document, kindOf(document), params),
    invalidate: () => analyses.training.invalidateAll(),
  };
}

/** A sourced value with its source in words, as hovers and the sidebar show it. */
export function shown<T>(sourced: Sourced<T> | undefined): { value: T; source: string } | undefined {
  return sourced && { value: sourced.value, source: describeSource(sourced.source) };
}
