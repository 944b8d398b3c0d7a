import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService } from '../languageService';
import { diagnosticData } from '../diagnostics/fixData';
import { makeDiagnostic } from '../diagnostics/makeDiagnostic';
import { nodeFileSystem, NodeWorkspace } from '../nodeHost';
import { translator, type Translate } from '../l10n';
import { ExitCode, type CliIO } from './io';
import { formatJson, formatSarif, formatText, type FileReport, type UncheckedFile } from './formatReport';
import { decodeFile } from './decodeFile';
import { helpRows } from './help';
import { shellExtensions } from '../classify';
import { readWorkspaceSettings } from './workspaceSettings';
import { describeIgnoredSetting } from '../settings';

function help(t: Translate): string {
  return (
    `${t('Usage: {0}', 'zero-lens check <paths…> [--format text|json|sarif] [--gpu-memory GIB] [--cpu-memory GIB]')}\n\n` +
    `${t("Checks DeepSpeed configs (ds_config.json), launch scripts (.sh, .slurm) and launcher configs (YAML, or\nJSON argument files such as ms-swift's --config sft.json), each recognised by its name and content.\nA file that is none of these is reported as skipped. A folder argument checks the files found in it.")}\n` +
    `${t('zeroLens.* in .vscode/settings.json of the current folder apply, as in the editor.')}\n\n` +
    `${t('Options:')}\n` +
    helpRows(
      [
        ['--format text', t('one line per problem, file:line:col: severity [code] message (default)')],
        ['--format json', '[{file, diagnostics: [{range, severity, code, message}]}]'],
        ['--format sarif', t('SARIF 2.1.0, for code-scanning annotations on pull requests')],
        ['--gpu-memory G', t('memory of one GPU in GiB: a run whose estimate does not fit is an error (estimate-exceeds-gpu-memory, at the "stage" or --deepspeed it concerns)')],
        ['--cpu-memory G', t('host memory of one node in GiB: offloaded states that do not fit are an error')],
        ['--lang en|zh-cn', t('language of the output (default: from LC_ALL, LC_MESSAGES or LANG)')],
        ['-h, --help', t('this help')],
      ],
      20,
    ) +
    `\n${t('Exit status: 0 no errors, 1 errors found, 2 usage error or unreadable file.')}\n`
  );
}

interface CheckOptions {
  paths: string[];
  format: 'text' | 'json' | 'sarif';
  gpuMemoryGiB?: number;
  cpuMemoryGiB?: number;
}

function parseArgs(args: string[], t: Translate): CheckOptions | string {
  const options: CheckOptions = { paths: [], format: 'text' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--format' || arg.startsWith('--format=')) {
      const value = arg === '--format' ? args[++i] : arg.slice('--format='.length);
      if (value !== 'text' && value !== 'json' && value !== 'sarif') return value === undefined ? t('--format must be "text", "json" or "sarif".') : t('--format must be "text", "json" or "sarif", not "{0}".', value);
      options.format = value;
    } else if (arg === '--gpu-memory' || arg.startsWith('--gpu-memory=') || arg === '--cpu-memory' || arg.startsWith('--cpu-memory=')) {
      const flag = arg.startsWith('--gpu') ? '--gpu-memory' : '--cpu-memory';
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
      const n = Number(value);
      if (value === undefined || !Number.isFinite(n) || n <= 0) return value === undefined ? t('{0} takes a size in GiB (for example 80).', flag) : t('{0} takes a size in GiB (for example 80), not "{1}".', flag, value);
      if (flag === '--gpu-memory') options.gpuMemoryGiB = n;
      else options.cpuMemoryGiB = n;
    } else if (arg === '--') {
      options.paths.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith('-') && arg !== '-') {
      return t("unknown option '{0}'.", arg);
    } else {
      options.paths.push(arg);
    }
  }
  if (options.paths.length === 0) return t('no files given.');
  return options;
}

const checkedInFolders = /\.(json|jsonc|sh|bash|zsh|slurm|sbatch|ya?ml)$/i;
const skippedFolders = new Set(['node_modules', '.git', 'dist', 'out', '__pycache__', '.venv', 'venv']);

/** The editor's language for a file name, before its content is looked at (classifyDocument decides by both). */
function languageOf(file: string): string {
  if (shellExtensions.test(file)) return 'shellscript';
  if (/\.ya?ml$/i.test(file)) return 'yaml';
  if (/\.jsonc?$/i.test(file)) return 'json';
  return 'plaintext';
}

/** Why a file cannot be read: an errno in words, or what the caller says (a string). */
function readFailure(error: unknown, t: Translate): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  return typeof error === 'string'
    ? error
    : code === 'ENOENT'
      ? t('no such file or folder')
      : code === 'EACCES' || code === 'EPERM'
        ? t('permission denied')
        : code === 'EISDIR'
          ? t('it is a folder')
          : error instanceof Error
            ? error.message
            : String(error);
}

/** The first byte that is not UTF-8, where DeepSpeed's reader would stop. */
function notUtf8(document: TextDocument, offset: number, byte: number | undefined, t: Translate): Diagnostic {
  const range = { start: document.positionAt(offset), end: document.positionAt(offset + 1) };
  const message =
    byte === undefined
      ? t('A byte is not UTF-8: Python opens the file as UTF-8 and fails with UnicodeDecodeError. Save the file as UTF-8.')
      : t('Byte {0} is not UTF-8: Python opens the file as UTF-8 and fails with UnicodeDecodeError. Save the file as UTF-8.', `0x${byte.toString(16).toUpperCase().padStart(2, '0')}`);
  return makeDiagnostic('not-utf8', range, message, diagnosticData(document));
}

/** Files below a folder that may be configs, scripts or YAML (bounded walk, sorted for stable output). */
async function filesIn(folder: string, depth = 0): Promise<string[]> {
  if (depth > 5) return [];
  const entries = await fs.readdir(folder, { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && !skippedFolders.has(entry.name)) found.push(...(await filesIn(full, depth + 1)));
    } else if ((entry.isFile() || entry.isSymbolicLink()) && checkedInFolders.test(entry.name)) {
      // Not a FIFO or socket that happens to be named .json: reading one waits forever.
      found.push(full);
    }
  }
  return found;
}

export async function runCheck(args: string[], io: CliIO): Promise<number> {
  const locale = io.locale ?? 'en';
  const t = translator(locale);
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout(help(t));
    return ExitCode.ok;
  }
  const options = parseArgs(args, t);
  if (typeof options === 'string') {
    io.stderr(`zero-lens check: ${options}\n${help(t)}`);
    return ExitCode.usage;
  }
  const service = getLanguageService({ fs: nodeFileSystem, workspace: new NodeWorkspace([io.cwd]) });
  // The workspace's zeroLens.* settings, as the editor reads them (GPUs per node, the DeepSpeed release, …).
  // Giving a capacity asks for the memory verdict: the estimate's "does not fit" becomes an error for CI, and
  // the capacity given replaces the workspace's.
  const workspaceSettings = await readWorkspaceSettings(nodeFileSystem, io.cwd, (ignored) => io.stderr(`zero-lens check: ${describeIgnoredSetting(ignored, t)}\n`));
  const capacities = { ...(options.gpuMemoryGiB ? { gpuMemoryGiB: options.gpuMemoryGiB } : {}), ...(options.cpuMemoryGiB ? { cpuMemoryGiB: options.cpuMemoryGiB } : {}) };
  const settings = { ...workspaceSettings, locale, ...capacities };
  const verdicts = new Set([...(options.gpuMemoryGiB ? ['estimate-exceeds-gpu-memory'] : []), ...(options.cpuMemoryGiB ? ['estimate-exceeds-cpu-memory'] : [])]);
  const reports: FileReport[] = [];
  const skipped: UncheckedFile[] = [];
  const unread: UncheckedFile[] = [];
  /** Says on stderr that `file` could not be read, and why; the report lists it too. */
  const notRead = (file: string, error: unknown): void => {
    const reason = readFailure(error, t);
    io.stderr(`zero-lens check: ${t("cannot read '{0}': {1}.", file, reason)}\n`);
    unread.push({ file, reason });
  };

  /** Checks one file; false when it was not checked (unreadable, or not ours inside a folder). */
  const checkFile = async (shown: string, absolute: string, explicit: boolean): Promise<boolean> => {
    let bytes: Uint8Array;
    try {
      bytes = await fs.readFile(absolute);
    } catch (error) {
      notRead(shown, error);
      return false;
    }
    const decoded = decodeFile(bytes);
    // Inside a folder a binary file is simply not ours; named on the command line it is a mistake to say.
    if (decoded.kind === 'binary' && !explicit) return false;
    if (decoded.kind !== 'text') {
      notRead(shown, decoded.kind === 'binary' ? t('it is a binary file, not text') : t('it is UTF-16 text; DeepSpeed, the Hugging Face Trainer and accelerate read UTF-8: save it as UTF-8'));
      return false;
    }
    const text = decoded.text;
    // What the file is, by name and content, as the editor decides: a training-arguments JSON, a model config or
    // any other file is not checked as a DeepSpeed config.
    let document = TextDocument.create(pathToFileURL(absolute).toString(), languageOf(absolute), 1, text);
    const kind = service.classify(document, settings);
    if (!kind) {
      if (explicit) skipped.push({ file: shown, reason: t('not a DeepSpeed config, FSDP config, launch script or launcher config (by its name and content)') });
      return false;
    }
    // A config is checked with its own language, so its JSON syntax is reported here too.
    if (kind === 'ds-config') document = TextDocument.create(document.uri, 'ds-config', 1, text);
    else if (kind === 'launch-script' && document.languageId !== 'shellscript') document = TextDocument.create(document.uri, 'shellscript', 1, text);
    const diagnostics = (await service.doValidation(document, settings)).map((d) => (verdicts.has(String(d.code)) ? { ...d, severity: DiagnosticSeverity.Error } : d));
    // bash does not mind other encodings; Python's open() for JSON and YAML does.
    if (decoded.invalidUtf8At !== undefined && document.languageId !== 'shellscript') {
      diagnostics.push(notUtf8(document, decoded.invalidUtf8At, decoded.invalidByte, t));
    }
    reports.push({ file: shown, document, diagnostics });
    return true;
  };

  for (const given of options.paths) {
    const absolute = path.resolve(io.cwd, given);
    let stat;
    try {
      stat = await fs.stat(absolute);
    } catch (error) {
      notRead(given, error);
      continue;
    }
    if (stat.isDirectory()) {
      let files: string[];
      try {
        files = await filesIn(absolute);
      } catch (error) {
        notRead(given, error);
        continue;
      }
      let checked = 0;
      for (const file of files) if (await checkFile(path.join(given, path.relative(absolute, file)), file, false)) checked++;
      if (checked === 0) io.stderr(`zero-lens check: ${t("no DeepSpeed configs, launch scripts or launcher YAML found in '{0}'.", given)}\n`);
    } else {
      await checkFile(given, absolute, true);
    }
  }

  io.stdout(options.format === 'json' ? formatJson(reports, skipped, unread) : options.format === 'sarif' ? formatSarif(reports, unread) : formatText(reports, t, skipped, unread.length));
  if (unread.length) return ExitCode.usage;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 1)) ? ExitCode.problemsFound : ExitCode.ok;
}
