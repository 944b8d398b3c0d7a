/**
 * Minimal path arithmetic for the pure core (no `node:path`): absolute POSIX or Windows paths, joined
 * with the separator the base already uses.
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

/** `~/x`, relative or absolute → absolute, or undefined when it cannot be made absolute. */
export function resolvePath(p: string, cwd: string | undefined, home: string | undefined): string | undefined {
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) return home ? joinPath(home, p.slice(2)) : undefined;
  if (isAbsolutePath(p)) return p;
  return cwd ? joinPath(cwd, p) : undefined;
}
