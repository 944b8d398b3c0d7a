import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { getLanguageService } from '../languageService';
import { diagnosticData } from '../diagnostics/fixData';
import { makeDiagnostic } from '../diagnostics/makeDiagnostic';
import { nodeFileSystem, NodeWorkspace } from '../nodeHost';
import { defaultSettings } from '../settings';
import { ExitCode, type CliIO } from './io';
import { formatJson, formatSarif, formatText, type FileReport } from './formatReport';
import { decodeFile } from './decodeFile';
import { shellExtensions } from '../classify';

const help = `Usage: zero-lens check <paths…> [--format text|json|sarif] [--gpu-memory GIB] [--cpu-memory GIB]

Checks DeepSpeed configs (ds_config.json), launch scripts (.sh, .slurm) and launcher configs (YAML, or
JSON argument files such as ms-swift's --config sft.json), each recognised by its name and content.
A file that is none of these is reported as skipped. A folder argument checks the files found in it.

Options:
  --format text    one line per problem, file:line:col: severity [code] message (default)
  --format json    [{file, diagnostics: [{range, severity, code, message}]}]
  --format sarif   SARIF 2.1.0, for code-scanning annotations on pull requests
  --gpu-memory G   memory of one GPU in GiB: a run whose estimate does not fit is an error
                   (estimate-exceeds-gpu-memory, at the "stage" or --deepspeed it concerns)
  --cpu-memory G   host memory of one node in GiB: offloaded states that do not fit are an error
  -h, --help       this help

Exit status: 0 no errors, 1 errors found, 2 usage error or unreadable file.
`;

interface CheckOptions {
  paths: string[];
  format: 'text' | 'json' | 'sarif';
  gpuMemoryGiB?: number;
  cpuMemoryGiB?: number;
}

function parseArgs(args: string[]): CheckOptions | string {
  const options: CheckOptions = { paths: [], format: 'text' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--format' || arg.startsWith('--format=')) {
      const value = arg === '--format' ? args[++i] : arg.slice('--format='.length);
      if (value !== 'text' && value !== 'json' && value !== 'sarif') return `--format must be "text", "json" or "sarif"${value === undefined ? '' : `, not "${value}"`}.`;
      options.format = value;
    } else if (arg === '--gpu-memory' || arg.startsWith('--gpu-memory=') || arg === '--cpu-memory' || arg.startsWith('--cpu-memory=')) {
      const flag = arg.startsWith('--gpu') ? '--gpu-memory' : '--cpu-memory';
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
      const n = Number(value);
      if (value === undefined || !Number.isFinite(n) || n <= 0) return `${flag} takes a size in GiB (for example 80)${value === undefined ? '' : `, not "${value}"`}.`;
      if (flag === '--gpu-memory') options.gpuMemoryGiB = n;
      else options.cpuMemoryGiB = n;
    } else if (arg === '--') {
      options.paths.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith('-') && arg !== '-') {
      return `unknown option '${arg}'.`;
    } else {
      options.paths.push(arg);
    }
  }
  if (options.paths.length === 0) return 'no files given.';
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

function readError(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reason = code === 'ENOENT' ? 'no such file or folder' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a folder' : error instanceof Error ? error.message : String(error);
  return `zero-lens check: cannot read '${file}': ${reason}.\n`;
}

/** The first byte that is not UTF-8, where DeepSpeed's reader would stop. */
function notUtf8(document: TextDocument, offset: number, byte: number | undefined): Diagnostic {
  const shown = byte === undefined ? 'A byte' : `Byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  const range = { start: document.positionAt(offset), end: document.positionAt(offset + 1) };
  const message = `${shown} is not UTF-8: Python opens the file as UTF-8 and fails with UnicodeDecodeError. Save the file as UTF-8.`;
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
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout(help);
    return ExitCode.ok;
  }
  const options = parseArgs(args);
  if (typeof options === 'string') {
    io.stderr(`zero-lens check: ${options}\n${help}`);
    return ExitCode.usage;
  }
  const service = getLanguageService({ fs: nodeFileSystem, workspace: new NodeWorkspace([io.cwd]) });
  // Giving a capacity asks for the memory verdict: the estimate's "does not fit" becomes an error for CI.
  const settings = { ...defaultSettings, gpuMemoryGiB: options.gpuMemoryGiB, cpuMemoryGiB: options.cpuMemoryGiB };
  const verdicts = new Set([...(options.gpuMemoryGiB ? ['estimate-exceeds-gpu-memory'] : []), ...(options.cpuMemoryGiB ? ['estimate-exceeds-cpu-memory'] : [])]);
  const reports: FileReport[] = [];
  const skipped: { file: string; reason: string }[] = [];
  let unreadable = false;

  /** Checks one file; false when it was not checked (unreadable, or not ours inside a folder). */
  const checkFile = async (shown: string, absolute: string, explicit: boolean): Promise<boolean> => {
    let bytes: Uint8Array;
    try {
      bytes = await fs.readFile(absolute);
    } catch (error) {
      io.stderr(readError(shown, error));
      unreadable = true;
      return false;
    }
    const decoded = decodeFile(bytes);
    // Inside a folder a binary file is simply not ours; named on the command line it is a mistake to say.
    if (decoded.kind === 'binary' && !explicit) return false;
    if (decoded.kind !== 'text') {
      io.stderr(readError(shown, decoded.kind === 'binary' ? 'it is a binary file, not text' : "it is UTF-16 text; DeepSpeed, the Hugging Face Trainer and accelerate read UTF-8: save it as UTF-8"));
      unreadable = true;
      return false;
    }
    const text = decoded.text;
    // What the file is, by name and content, as the editor decides: a training-arguments JSON, a model config or
    // any other file is not checked as a DeepSpeed config.
    let document = TextDocument.create(pathToFileURL(absolute).toString(), languageOf(absolute), 1, text);
    const kind = service.classify(document, settings);
    if (!kind) {
      if (explicit) skipped.push({ file: shown, reason: 'not a DeepSpeed config, launch script or launcher config (by its name and content)' });
      return false;
    }
    // A config is checked with its own language, so its JSON syntax is reported here too.
    if (kind === 'ds-config') document = TextDocument.create(document.uri, 'ds-config', 1, text);
    else if (kind === 'launch-script' && document.languageId !== 'shellscript') document = TextDocument.create(document.uri, 'shellscript', 1, text);
    const diagnostics = (await service.doValidation(document, settings)).map((d) => (verdicts.has(String(d.code)) ? { ...d, severity: DiagnosticSeverity.Error } : d));
    // bash does not mind other encodings; Python's open() for JSON and YAML does.
    if (decoded.invalidUtf8At !== undefined && document.languageId !== 'shellscript') {
      diagnostics.push(notUtf8(document, decoded.invalidUtf8At, decoded.invalidByte));
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
      io.stderr(readError(given, error));
      unreadable = true;
      continue;
    }
    if (stat.isDirectory()) {
      let files: string[];
      try {
        files = await filesIn(absolute);
      } catch (error) {
        io.stderr(readError(given, error));
        unreadable = true;
        continue;
      }
      let checked = 0;
      for (const file of files) if (await checkFile(path.join(given, path.relative(absolute, file)), file, false)) checked++;
      if (checked === 0) io.stderr(`zero-lens check: no DeepSpeed configs, launch scripts or launcher YAML found in '${given}'.\n`);
    } else {
      await checkFile(given, absolute, true);
    }
  }

  io.stdout(options.format === 'json' ? formatJson(reports, skipped) : options.format === 'sarif' ? formatSarif(reports) : formatText(reports, skipped));
  if (unreadable) return ExitCode.usage;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 1)) ? ExitCode.problemsFound : ExitCode.ok;
}
