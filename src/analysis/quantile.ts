/** Nearest-rank quantiles over bigint durations. */
import { at } from '../util/at.js';

/** The q-quantile (0 < q <= 1) of values sorted ascending: the smallest value with at least q of them at or below it. */
export function quantileSorted(sorted: readonly bigint[], q: number): bigint {
  if (sorted.length === 0) throw new RangeError('quantile of no values');
  const rank = Math.ceil(q * sorted.length);
  return at(sorted, Math.min(sorted.length, Math.max(1, rank)) - 1);
}

/** Sorts bigints ascending in place and returns them. */
export function sortBigints(values: bigint[]): bigint[] {
  return values.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
