/** Bucketed series on the window's grid: every bucket present, so a total equals the sum of its buckets. */

import { bucketCoveredSecs, bucketGrid, type TimeWindow } from './window.js';

/** [start_unix_s, count] for every grid bucket of the window, 0 where nothing was counted. */
export function countSeries(window: TimeWindow, counts: Map<number, number>): [number, number][] {
  return bucketGrid(window).map((bucket) => [bucket, counts.get(bucket) ?? 0]);
}

/** [start_unix_s, per second] for every grid bucket, dividing by the part of the bucket inside the window. */
export function rateSeries(window: TimeWindow, counts: Map<number, number>): [number, number][] {
  return bucketGrid(window).map((bucket) => {
    const secs = bucketCoveredSecs(window, bucket);
    return [bucket, secs > 0 ? (counts.get(bucket) ?? 0) / secs : 0];
  });
}
