/** Quantiles from histogram bucket counts, as Prometheus's histogram_quantile computes them. Pure. */

export interface LeCount {
  /** Upper bound; Infinity for `+Inf`. */
  le: number;
  /** Observations at or below `le` (cumulative). */
  count: number;
}

/**
 * The `q` quantile (0..1) by linear interpolation inside the bucket that holds it; null without
 * observations or without the `+Inf` bucket. A rank in the `+Inf` bucket answers the largest
 * finite bound (nothing better is known).
 */
export function histogramQuantile(q: number, buckets: readonly LeCount[]): number | null {
  const sorted = buckets.filter((b) => !Number.isNaN(b.le)).sort((a, b) => a.le - b.le);
  if (sorted.length === 0 || sorted[sorted.length - 1].le !== Number.POSITIVE_INFINITY) return null;
  // Increases of separate series can disagree by a reset; cumulative counts never fall.
  const counts: number[] = [];
  for (const [i, bucket] of sorted.entries()) counts.push(i === 0 ? bucket.count : Math.max(bucket.count, counts[i - 1]));
  const total = counts[counts.length - 1];
  if (!(total > 0)) return null;
  const rank = q * total;
  let i = counts.findIndex((count) => count >= rank);
  if (i < 0) i = counts.length - 1;
  if (sorted[i].le === Number.POSITIVE_INFINITY) return sorted.length >= 2 ? sorted[sorted.length - 2].le : null;
  const upper = sorted[i].le;
  if (i === 0 && upper <= 0) return upper;
  const lower = i === 0 ? 0 : sorted[i - 1].le;
  const below = i === 0 ? 0 : counts[i - 1];
  const inBucket = counts[i] - below;
  if (inBucket <= 0) return upper;
  return lower + (upper - lower) * ((rank - below) / inBucket);
}

/** `le` label text to its bound (`+Inf` to Infinity); NaN when it is not a number. */
export function parseLe(text: string): number {
  if (text === '+Inf' || text === 'Inf' || text === '+inf') return Number.POSITIVE_INFINITY;
  if (text.trim() === '') return Number.NaN;
  return Number(text);
}
