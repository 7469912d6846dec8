/**
 * Which series buckets can count logs without collapsing replays.
 *
 * A replayed log (a bus replay or an exporter's retry) is an identical row with the same sort key,
 * so one part of the ReplacingMergeTree never holds it twice: an insert collapses twins within its
 * block (optimize_on_insert, on by default and set on every insert) and every merge collapses them.
 * Twins can only sit in two different parts, and then in parts whose time ranges (the exact
 * minimum and maximum of ts_ns each part keeps for its partition key) overlap at the twins' stamp.
 * So a bucket whose time range meets at most one part's range counts its rows as they are; only
 * buckets where parts overlap (the newest minutes, late or replayed logs) must count distinct ids.
 *
 * Pure: the parts are read by the caller, before the count and again after it (see partsAdded).
 */

export interface LogPart {
  name: string;
  partitionId: string;
  minBlock: bigint;
  maxBlock: bigint;
  minTsNs: bigint;
  maxTsNs: bigint;
}

/** `20261127_10_12_1` or `20261127_10_12_1_18` (with a mutation): partition, blocks, level[, mutation]. */
const PART_NAME = /^([^_]+)_(\d+)_(\d+)_\d+(?:_\d+)?$/;

/** A part from its name and time range; null when the name is not of a MergeTree part of a date partition. */
export function logPart(name: string, minTsNs: bigint, maxTsNs: bigint): LogPart | null {
  const match = PART_NAME.exec(name);
  if (match === null) return null;
  const [, partitionId = '', minBlock = '0', maxBlock = '0'] = match;
  return { name, partitionId, minBlock: BigInt(minBlock), maxBlock: BigInt(maxBlock), minTsNs, maxTsNs };
}

/** Grid index of a stamp, as the engine's intDiv(ts_ns, bucket_ns) computes it (truncated toward zero). */
function bucketIndex(tsNs: bigint, bucketNs: bigint): bigint {
  return tsNs / bucketNs;
}

/** The grid buckets (intDiv(ts_ns, bucketNs)) of a window that one part alone meets, and those several meet. */
export interface BucketCoverage {
  single: bigint[];
  shared: bigint[];
}

/**
 * Sorts the buckets of [fromNs, toNs) that parts' time ranges meet into those one part alone meets
 * and those several meet. Buckets no part meets hold no rows and are in neither list.
 */
export function bucketCoverage(parts: readonly LogPart[], fromNs: bigint, toNs: bigint, bucketNs: bigint): BucketCoverage {
  const partsMeeting = new Map<bigint, number>();
  for (const part of parts) {
    const lowNs = part.minTsNs > fromNs ? part.minTsNs : fromNs;
    const highNs = part.maxTsNs < toNs - 1n ? part.maxTsNs : toNs - 1n;
    if (highNs < lowNs) continue;
    for (let b = bucketIndex(lowNs, bucketNs); b <= bucketIndex(highNs, bucketNs); b++) partsMeeting.set(b, (partsMeeting.get(b) ?? 0) + 1);
  }
  const byIndex = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);
  const single: bigint[] = [];
  const shared: bigint[] = [];
  for (const [bucket, n] of partsMeeting) (n === 1 ? single : shared).push(bucket);
  return { single: single.sort(byIndex), shared: shared.sort(byIndex) };
}

/**
 * Parts in `after` holding rows that none of `before` held: an insert's part, or a merge that took
 * one in. A part made by merging (or mutating) parts of `before` keeps blocks at or below the
 * highest block its partition had then; any later insert takes a higher block number.
 */
export function partsAdded(before: readonly LogPart[], after: readonly LogPart[]): LogPart[] {
  const highestBlock = new Map<string, bigint>();
  for (const part of before) {
    const seen = highestBlock.get(part.partitionId);
    if (seen === undefined || part.maxBlock > seen) highestBlock.set(part.partitionId, part.maxBlock);
  }
  return after.filter((part) => {
    const seen = highestBlock.get(part.partitionId);
    return seen === undefined || part.maxBlock > seen;
  });
}

/** Whether any of `parts` may hold a stamp in one of the given grid buckets. */
export function meetsBuckets(parts: readonly LogPart[], buckets: readonly bigint[], bucketNs: bigint): boolean {
  return parts.some((part) => {
    const low = bucketIndex(part.minTsNs, bucketNs);
    const high = bucketIndex(part.maxTsNs, bucketNs);
    return buckets.some((bucket) => bucket >= low && bucket <= high);
  });
}
