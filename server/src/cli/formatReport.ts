import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { english, type Translate } from '../l10n';

export interface FileReport {
  /** The path as the user gave it (or found below a folder they gave). */
  file: string;
  document: TextDocument;
  diagnostics: Diagnostic[];
}

/** A file that was not checked, and why: skipped (not one ZeRO Lens checks) or not read. */
export interface UncheckedFile {
  file: string;
  reason: string;
}

export type SeverityName = 'error' | 'warning' | 'information' | 'hint';

export function severityName(severity: DiagnosticSeverity | undefined): SeverityName {
  switch (severity) {
    case DiagnosticSeverity.Warning:
      return 'warning';
    case DiagnosticSeverity.Information:
      return 'information';
    case DiagnosticSeverity.Hint:
      return 'hint';
    default:
      return 'error';
  }
}

function messageOf(d: Diagnostic): string {
  const message: unknown = d.message;
  return typeof message === 'string' ? message : String((message as { value?: unknown })?.value ?? '');
}

function sorted(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/**
 * `--format json`: the shape editors' problem matchers and scripts read; a skipped file has `skipped`, a file that
 * could not be read `unreadable` (why, as stderr said it), and no diagnostics.
 */
export function formatJson(reports: FileReport[], skipped: UncheckedFile[] = [], unread: UncheckedFile[] = []): string {
  const out: object[] = reports.map((r) => ({
    file: r.file,
    diagnostics: sorted(r.diagnostics).map((d) => ({
      range: { start: { ...d.range.start }, end: { ...d.range.end } },
      severity: severityName(d.severity),
      code: d.code === undefined ? null : String(d.code),
      message: messageOf(d),
    })),
  }));
  for (const s of skipped) out.push({ file: s.file, skipped: s.reason, diagnostics: [] });
  for (const u of unread) out.push({ file: u.file, unreadable: u.reason, diagnostics: [] });
  return JSON.stringify(out, null, 2) + '\n';
}

/**
 * Compiler-style lines, `file:line:col: severity [code] message` (1-based), then a summary line in the reader's
 * language, which counts the files skipped and those that could not be read (`unread`). Hints (notes such as the
 * world size a batch triple implies) are only counted here; `--format json` lists them. The severity stays an
 * English word in every language: problem matchers and scripts read it.
 */
export function formatText(reports: FileReport[], t: Translate = english, skipped: UncheckedFile[] = [], unread = 0): string {
  const lines: string[] = skipped.map((s) => t('{0}: skipped: {1}.', s.file, s.reason));
  const counts: Record<SeverityName, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  for (const report of reports) {
    for (const d of sorted(report.diagnostics)) {
      const severity = severityName(d.severity);
      counts[severity]++;
      if (severity === 'hint') continue;
      const code = d.code === undefined ? '' : ` [${String(d.code)}]`;
      lines.push(`${report.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${severity}${code} ${messageOf(d).replace(/\s*\n\s*/g, ' ')}`);
    }
  }
  // Files that could not be read were named on stderr; the summary does not let "no problems" stand alone.
  const files = (reports.length === 1 ? t('1 file') : t('{0} files', reports.length)) + (skipped.length ? t(' ({0} skipped)', skipped.length) : '') + (unread ? t(' ({0} not read)', unread) : '');
  const shown = counts.error + counts.warning + counts.information;
  const hints = counts.hint === 0 ? '' : counts.hint === 1 ? t(' (1 hint not shown; --format json lists them)') : t(' ({0} hints not shown; --format json lists them)', counts.hint);
  const errors = counts.error === 1 ? t('1 error') : t('{0} errors', counts.error);
  const warnings = counts.warning === 1 ? t('1 warning') : t('{0} warnings', counts.warning);
  lines.push(shown === 0 ? t('No problems found in {0}{1}.', files, hints) : t('{0}, {1}, {2} information in {3}{4}.', errors, warnings, counts.information, files, hints));
  return lines.join('\n') + '\n';
}

/**
 * `--format sarif`: SARIF 2.1.0, which code-scanning services read to annotate pull requests. One rule per code
 * (its docs link as helpUri), one result per diagnostic with a 1-based region; hints are notes.
 */
export function formatSarif(reports: FileReport[], unread: UncheckedFile[] = []): string {
  const rules = new Map<string, { id: string; helpUri?: string }>();
  const results: object[] = [];
  for (const report of reports) {
    for (const d of sorted(report.diagnostics)) {
      const id = d.code === undefined ? 'zero-lens' : String(d.code);
      if (!rules.has(id)) rules.set(id, { id, ...(d.codeDescription?.href ? { helpUri: d.codeDescription.href } : {}) });
      const severity = severityName(d.severity);
      results.push({
        ruleId: id,
        level: severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note',
        message: { text: messageOf(d) },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: artifactUri(report.file) },
              region: { startLine: d.range.start.line + 1, startColumn: d.range.start.character + 1, endLine: d.range.end.line + 1, endColumn: d.range.end.character + 1 },
            },
          },
        ],
      });
    }
  }
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'zero-lens', informationUri: 'https://www.deepspeed.ai/docs/config-json/', rules: [...rules.values()] } },
        // The regions' columns are the editor's (LSP) positions: UTF-16 code units, which SARIF must be told.
        columnKind: 'utf16CodeUnits',
        ...invocationOf(unread),
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}

/**
 * A file as SARIF names it: a URI reference (RFC 3986, as SARIF requires), with forward slashes on every
 * platform and each segment percent-encoded, so a space, "#" or "%" in a name is not read as a fragment or an
 * escape; a relative path stays relative, an absolute one (POSIX, a Windows drive or a UNC share) is a file: URI.
 */
function artifactUri(file: string): string {
  const slashed = file.split('\\').join('/');
  const drive = /^[A-Za-z]:\//.test(slashed);
  const encoded = slashed
    .split('/')
    .map((segment, i) => (drive && i === 0 ? segment : encodeURIComponent(segment)))
    .join('/');
  if (drive) return `file:///${encoded}`;
  if (slashed.startsWith('//')) return `file:${encoded}`;
  return slashed.startsWith('/') ? `file://${encoded}` : encoded;
}

/** Files that could not be read, as SARIF says a tool could not do all it was asked: an unsuccessful invocation. */
function invocationOf(unread: UncheckedFile[]): { invocations?: object[] } {
  if (!unread.length) return {};
  const notifications = unread.map((u) => ({
    level: 'error',
    message: { text: u.reason },
    locations: [{ physicalLocation: { artifactLocation: { uri: artifactUri(u.file) } } }],
  }));
  return { invocations: [{ executionSuccessful: false, toolExecutionNotifications: notifications }] };
}
