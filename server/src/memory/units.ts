/** Byte and count units shared by the estimator, the CLI and hovers. */

export const GiB = 2 ** 30;

/**
 * `value` with exactly two decimals, rounded the way Python's `f"{x:.2f}"` rounds a binary fraction:
 * to nearest, ties to even. `value` is `numerator / denominator` with both integers, so ties are found
 * exactly (JS `toFixed` rounds ties up, which differs for values such as 0.125).
 */
export function fixed2Ratio(numerator: number, denominator: number): string {
  const n = BigInt(Math.round(numerator));
  const d = BigInt(Math.round(denominator));
  const negative = n < 0n;
  const scaled = (negative ? -n : n) * 100n;
  let q = scaled / d;
  const r2 = (scaled - q * d) * 2n;
  if (r2 > d || (r2 === d && q % 2n === 1n)) q += 1n;
  const digits = q.toString().padStart(3, '0');
  return `${negative && q !== 0n ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Integer bytes as GiB with two decimals ("11.29"). */
export function formatGiB(bytes: number): string {
  return fixed2Ratio(bytes, GiB);
}

/** "1.54B", "494M": a compact, human count for hints. */
export function formatCount(n: number): string {
  if (n >= 1e12) return `${trim(n / 1e12)}T`;
  if (n >= 1e9) return `${trim(n / 1e9)}B`;
  if (n >= 1e6) return `${trim(n / 1e6)}M`;
  if (n >= 1e3) return `${trim(n / 1e3)}K`;
  return String(n);
}

function trim(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1).replace(/\.0$/, '') : x.toFixed(2).replace(/\.?0+$/, '');
}

const suffixes: Record<string, number> = { '': 1, k: 1e3, m: 1e6, b: 1e9, g: 1e9, t: 1e12 };

/**
 * A count as users write it: "7e9", "7B", "7000M", "6.5b", "1,000,000", "1_000". Undefined when not a
 * finite non-negative number.
 */
export function parseCount(text: string): number | undefined {
  const match = /^\s*([0-9][0-9,_]*(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)\s*([kmbgt]?)\s*$/i.exec(text);
  if (!match) return undefined;
  const value = Number(match[1].replace(/[,_]/g, '')) * suffixes[match[2].toLowerCase()];
  return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}
