import { URI } from 'vscode-uri';

/**
 * Path arithmetic for the pure core, which may not import `node:path` (the layer check enforces it): absolute
 * POSIX or Windows paths, joined with the separator the base already uses.
 */
export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\');
}

function separatorOf(p: string): string {
  return /^[A-Za-z]:\\/.test(p) || (p.includes('\\') && !p.includes('/')) ? '\\' : '/';
}

export function joinPath(base: string, ...parts: string[]): string {
  const sep = separatorOf(base);
  let out = base;
  for (const part of parts) {
    if (!part) continue;
    const clean = part.replace(/[\\/]+/g, sep).replace(new RegExp(`^\\${sep}+`), '');
    out = out.endsWith(sep) ? out + clean : out + sep + clean;
  }
  return normalizeDots(out, sep);
}

/** Resolves "." and ".." segments. */
function normalizeDots(p: string, sep: string): string {
  const parts = p.split(sep);
  const out: string[] = [];
  for (const part of parts) {
    if (part === '.') continue;
    if (part === '..' && out.length > 1) out.pop();
    else out.push(part);
  }
  return out.join(sep) || sep;
}

export function dirName(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i <= 0 ? p.slice(0, i + 1) || '/' : p.slice(0, i);
}

export function baseName(p: string): string {
  const trimmed = p.replace(/[\\/]+$/, '');
  return trimmed.slice(Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\')) + 1);
}

/** The last URI `pathOf` read and its path: a keystroke asks for its document's path several times. */
let lastUri: string | undefined;
let lastPath = '';

/** The file-system path of a document URI (the URI itself when it is not one). */
export function pathOf(uri: string): string {
  if (uri === lastUri) return lastPath;
  let path: string;
  try {
    path = URI.parse(uri).fsPath;
  } catch {
    path = uri;
  }
  lastUri = uri;
  lastPath = path;
  return path;
}

/** A path with "." and ".." resolved and its separators made uniform. */
export function normalizePath(p: string): string {
  const sep = separatorOf(p);
  return normalizeDots(p.replace(/[\\/]+/g, sep), sep);
}

/** Whether two absolute paths name the same file (case-insensitive for Windows drive paths). */
export function samePath(a: string, b: string): boolean {
  const na = normalizePath(a);
  const nb = normalizePath(b);
  return /^[A-Za-z]:/.test(na) ? na.toLowerCase() === nb.toLowerCase() : na === nb;
}

/** `to` relative to the folder `fromDir` with `/` separators ("../ds/z3.json"); both absolute. */
export function relativePath(fromDir: string, to: string): string {
  const split = (p: string) => normalizePath(p).split(/[\\/]/).filter(Boolean);
  const from = split(fromDir);
  const target = split(to);
  let common = 0;
  while (common < from.length && common < target.length && from[common] === target[common]) common++;
  return [...from.slice(common).map(() => '..'), ...target.slice(common)].join('/');
}

/** `~/x`, relative or absolute → absolute, or undefined when it cannot be made absolute. */
export function resolvePath(p: string, cwd: string | undefined, home: string | undefined): string | undefined {
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) return home ? joinPath(home, p.slice(2)) : undefined;
  if (isAbsolutePath(p)) return p;
  return cwd ? joinPath(cwd, p) : undefined;
}

/** The folder of `folders` that holds `file` (the innermost, when folders nest), or undefined when none does. */
export function folderHolding(file: string, folders: readonly string[]): string | undefined {
  const inside = (folder: string): boolean => {
    const relative = relativePath(folder, file);
    return relative !== '' && !relative.startsWith('..') && !isAbsolutePath(relative);
  };
  return folders.filter(inside).sort((x, y) => normalizePath(y).length - normalizePath(x).length)[0];
}
