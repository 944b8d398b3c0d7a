/** Shared by the launch tests (not a test file itself): fixtures, documents and applying quick fixes. */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';
import type { Diagnostic, TextEdit } from 'vscode-languageserver-types';
import { getLanguageService } from '../../server/src/languageService';
import { readDiagnosticData } from '../../server/src/diagnostics/readDiagnosticData';
import { applyFix } from '../../server/src/diagnostics/applyFix';
import { withDefaults, type ZeroLensSettings } from '../../server/src/settings';
import { memoryHosts, workspaceRoot } from './context-hosts';

export { workspaceRoot };
export const launchFixtures = path.resolve(__dirname, '../fixtures/launch');

export function launchFixture(name: string): string {
  return readFileSync(path.join(launchFixtures, name), 'utf8');
}

export function doc(name: string, text: string, languageId = name.endsWith('.sh') ? 'shellscript' : 'yaml', version = 1): TextDocument {
  return TextDocument.create(URI.file(path.join(workspaceRoot, name)).toString(), languageId, version, text);
}

/** A language service over an in-memory workspace holding `files` (names relative to the workspace root). */
export function service(files: Record<string, string> = {}) {
  const hosts = memoryHosts(files);
  return { hosts, ls: getLanguageService(hosts) };
}

export function settings(partial: Partial<ZeroLensSettings> = {}): ZeroLensSettings {
  return withDefaults(partial);
}

export function applyEdits(document: TextDocument, edits: TextEdit[]): string {
  return TextDocument.applyEdits(document, edits);
}

/** The document's text after the fix titled `title` of the first diagnostic with `code`. */
export function fixed(document: TextDocument, diagnostics: Diagnostic[], code: string, title?: string): string {
  const d = diagnostics.find((x) => x.code === code);
  if (!d) throw new Error(`no ${code} in ${diagnostics.map((x) => x.code).join(', ')}`);
  const fixes = readDiagnosticData(d.data)?.fixes ?? [];
  const fix = title ? fixes.find((f) => f.title === title) : fixes[0];
  if (!fix) throw new Error(`no fix ${title ?? ''} on ${code}: ${fixes.map((f) => f.title).join(', ')}`);
  const after = applyFix(document.getText(), fix, undefined);
  if (after === undefined) throw new Error(`fix ${fix.title} on ${code} does not apply`);
  return after;
}

export function codes(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => String(d.code)).sort();
}
