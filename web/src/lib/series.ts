// Pure helpers for charts (kept apart from uPlot so they can be tested without a DOM).

/**
 * Aligns sparse `[x, value]` series (empty buckets omitted) on one x grid of `stepSecs` over the
 * window, filling gaps with `fill` (0 for counts, null for quantiles).
 */
export function alignSeries(
  lists: [number, number | null][][],
  startSecs: number,
  endSecs: number,
  stepSecs: number,
  fill: number | null,
): { xs: number[]; values: (number | null)[][] } {
  const step = Math.max(1, stepSecs);
  const first = Math.floor(startSecs / step) * step;
  const xs: number[] = [];
  for (let x = first; x < endSecs; x += step) xs.push(x);
  const index = new Map(xs.map((x, i) => [x, i]));
  const values = lists.map((list) => {
    const row: (number | null)[] = xs.map(() => fill);
    for (const [x, value] of list) {
      const at = index.get(Math.floor(x / step) * step);
      if (at !== undefined) row[at] = value;
    }
    return row;
  });
  return { xs, values };
}

/**
 * The x range of a bucketed chart: half a bucket beyond the first and the last point, so a bar
 * drawn left or right of its point (or centred on it) stays inside the plot. Without a step, or
 * without data, the data range as it is.
 */
export function paddedTimeRange(min: number | null, max: number | null, stepSecs: number | undefined): [number | null, number | null] {
  if (min === null || max === null || stepSecs === undefined || !(stepSecs > 0)) return [min, max];
  return [min - stepSecs / 2, max + stepSecs / 2];
}

/**
 * Axis ticks for counts: whole numbers only, at a 1-2-5 step no finer than `incr` (the step the
 * chart picked for its space), so labels never repeat ("0, 1, 1" for 0, 0.5, 1).
 */
export function countSplits(min: number, max: number, incr: number): number[] {
  const target = Number.isFinite(incr) && incr > 1 ? incr : 1;
  let magnitude = 1;
  while (magnitude * 10 < target) magnitude *= 10;
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= target) ?? 10 * magnitude;
  const splits: number[] = [];
  if (!Number.isFinite(min) || !Number.isFinite(max)) return splits;
  // `+ 0` turns -0 into 0, which would otherwise read "-0".
  for (let tick = Math.ceil(min / step) * step + 0; tick <= max; tick += step) splits.push(tick);
  return splits;
}
