/** Number formatting shared by the sidebar, the language status item and the stage quick pick. Pure. */

export const GIB = 1024 ** 3;

/**
 * GiB with 1–2 decimals: two below 10 GiB (where 0.05 matters), one above.
 * `exact` always gives two decimals, for tooltips and the table.
 */
export function formatGiB(bytes: number, exact = false): string {
  if (!Number.isFinite(bytes)) return '? GiB';
  if (bytes === 0) return '0 GiB';
  const gib = bytes / GIB;
  if (Math.abs(gib) < 0.005) return bytes > 0 ? '< 0.01 GiB' : '> −0.01 GiB';
  const digits = exact || Math.abs(gib) < 10 ? 2 : 1;
  return `${gib.toFixed(digits)} GiB`;
}

/** "7.6B", "671B", "125M": parameter counts as people say them. */
export function formatParams(count: number): string {
  if (!Number.isFinite(count) || count <= 0) return '?';
  if (count >= 1e12) return `${trim(count / 1e12)}T`;
  if (count >= 1e9) return `${trim(count / 1e9)}B`;
  if (count >= 1e6) return `${trim(count / 1e6)}M`;
  return String(Math.round(count));
}

function trim(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1).replace(/\.0$/, '') : value.toFixed(2).replace(/\.?0+$/, '');
}

/** The last path segment of a URI, decoded, for headings ("ds_config.json"). */
export function fileNameOf(uri: string): string {
  const path = uri.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1) || path;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
