/** Units the estimator reads and DeepSpeed prints; how sizes are written for people is protocol/format.ts. */
import { GiB } from '../protocol/format';

export { GiB };

/**
 * `value` with exactly two decimals (DeepSpeed's own printout, which `--mode deepspeed` reproduces), rounded the way Python's `f"{x:.2f}"` rounds a binary fraction:
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

/** Bytes as DeepSpeed prints GiB ("11.29"), for reproducing its tables. */
export function deepSpeedGiB(bytes: number): string {
  return fixed2Ratio(bytes, GiB);
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
