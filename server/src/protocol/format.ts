/**
 * How sizes and counts are written wherever a person reads them (hints, hovers, fixes, the sidebar, the
 * CLI's tables): one rounding rule, so the same estimate never reads 19.2 in one place and 19.24 in another.
 * DeepSpeed's own two-decimal printout, which `--mode deepspeed` reproduces to the byte, is a different thing
 * and lives with the DeepSpeed estimator.
 */
import { english, type Translate } from './l10n';

export const GiB = 2 ** 30;

/**
 * GiB as a number with one decimal ("19.2"), whole numbers with thousands separators from 1,000 on, "< 0.1"
 * for a size under 0.05 GiB that is not zero (a buffer of a few MiB is real, but not 0.0), "?" when unknown.
 */
export function formatGiBValue(bytes: number): string {
  if (!Number.isFinite(bytes)) return '?';
  if (bytes === 0) return '0';
  const gib = bytes / GiB;
  if (Math.abs(gib) < 0.05) return gib > 0 ? '< 0.1' : '> −0.1';
  if (Math.abs(gib) >= 1000) return Math.round(gib).toLocaleString('en-US');
  return gib.toFixed(1);
}

/** "19.2 GiB". */
export function formatGiB(bytes: number): string {
  return `${formatGiBValue(bytes)} GiB`;
}

/** "1.54B", "494M": a compact count as people say it. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '?';
  if (n >= 1e12) return `${trim(n / 1e12)}T`;
  if (n >= 1e9) return `${trim(n / 1e9)}B`;
  if (n >= 1e6) return `${trim(n / 1e6)}M`;
  if (n >= 1e3) return `${trim(n / 1e3)}K`;
  return String(Math.round(n));
}

function trim(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1).replace(/\.0$/, '') : x.toFixed(2).replace(/\.?0+$/, '');
}

/** "8 GPUs", "1 GPU", "16 GPUs (2 nodes × 8)", in the reader's language (`t`; English by default). */
export function formatGpuCount(gpusPerNode: number, nodes: number, t: Translate = english): string {
  const total = gpusPerNode * nodes;
  const base = total === 1 ? t('1 GPU') : t('{0} GPUs', total);
  return nodes > 1 ? t('{0} ({1} nodes × {2})', base, nodes, gpusPerNode) : base;
}
