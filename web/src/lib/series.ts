// Pure helpers for charts (kept apart from uPlot so they can be tested without a DOM).

/**
 * Aligns sparse `[x, value]` series (empty buckets omitted) on one x grid of `stepSecs` over the
 * window, filling gaps with `fill` (0 for counts, null for quantiles).
 */
export function alignSeries(lists: [number, number | null][][], startSecs: number, endSecs: number, stepSecs: number, fill: number | null): { xs: number[]; values: (number | null)[][] } {
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
