/**
 * Where in time log counts must collapse replays.
 *
 * A replayed log (a bus replay or an exporter's retry) is an identical row with the same sort key
 * and stamp, so one part of the ReplacingMergeTree never holds it twice: an insert collapses twins
 * within its block (optimize_on_insert, set on every insert) and every merge collapses them. Twins
 * can only sit in two different parts, and then at a stamp inside both parts' time ranges (the
 * exact minimum and maximum of ts_ns each part keeps for its partition key). So rows stamped where
 * at most one part's range reaches are counted as they are; only rows where ranges overlap (part
 * boundaries, late or replayed logs) are counted by distinct log id.
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

/** An inclusive range of stamps, Unix ns. */
export interface StampRange {
  fromNs: bigint;
  toNs: bigint;
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

/**
 * The stamps of [fromNs, toNs) where two or more parts' time ranges overlap, and every stamp from
 * `edgeNs` on (where parts written while a count runs usually land, see countLogs), as at most
 * `maxRanges` sorted, disjoint ranges: past that the closest ranges are joined with the stamps
 * between them, which only moves rows to the distinct count.
 */
export function overlapRanges(parts: readonly LogPart[], fromNs: bigint, toNs: bigint, edgeNs: bigint, maxRanges: number): StampRange[] {
  if (toNs <= fromNs) return [];
  const lastNs = toNs - 1n;
  // Sweep over range starts and ends: +1 at a start, -1 just past an end.
  const events: [bigint, number][] = [];
  for (const part of parts) {
    const lowNs = part.minTsNs > fromNs ? part.minTsNs : fromNs;
    const highNs = part.maxTsNs < lastNs ? part.maxTsNs : lastNs;
    if (highNs < lowNs) continue;
    events.push([lowNs, 1], [highNs + 1n, -1]);
  }
  // At one stamp, ends (just past a range) before starts: ranges that only touch do not overlap.
  events.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
  const ranges: StampRange[] = [];
  let open = 0;
  let startNs = 0n;
  for (const [atNs, step] of events) {
    if (open < 2 && open + step >= 2) startNs = atNs;
    if (open >= 2 && open + step < 2) ranges.push({ fromNs: startNs, toNs: atNs - 1n });
    open += step;
  }
  if (edgeNs <= lastNs) ranges.push({ fromNs: edgeNs > fromNs ? edgeNs : fromNs, toNs: lastNs });
  ranges.sort((a, b) => (a.fromNs < b.fromNs ? -1 : a.fromNs > b.fromNs ? 1 : 0));
  const joined: StampRange[] = [];
  for (const range of ranges) addRange(joined, range);
  while (joined.length > Math.max(1, maxRanges)) joinClosest(joined);
  return joined;
}

/**
 * The newest stamps are always counted by distinct id: parts the writer adds while a count runs hold
 * them (and exporters' retries of the last minutes), so they seldom force a recount.
 */
export const EDGE_NS = 5n * 60n * 1_000_000_000n;
/** Ranges tested per row at most (more are joined; each costs two comparisons per row). */
export const MAX_DISTINCT_RANGES = 8;

/**
 * The stamps of [fromNs, toNs) to count by distinct id: where parts overlap, and the last EDGE_NS
 * before the newest stamp stored or the window end, whichever is earlier (a log stamped in the
 * future must not move the edge away from where new parts land).
 */
export function distinctRanges(parts: readonly LogPart[], fromNs: bigint, toNs: bigint): StampRange[] {
  let newestNs = fromNs;
  for (const part of parts) if (part.maxTsNs > newestNs) newestNs = part.maxTsNs;
  const edgeNs = (newestNs < toNs ? newestNs : toNs) - EDGE_NS;
  return overlapRanges(parts, fromNs, toNs, edgeNs, MAX_DISTINCT_RANGES);
}

/** Appends a range to sorted disjoint ranges (it starts at or after the last one's start), joining it with the last when they touch or overlap. */
function addRange(ranges: StampRange[], range: StampRange): void {
  const last = ranges[ranges.length - 1];
  if (last !== undefined && range.fromNs <= last.toNs + 1n) {
    if (range.toNs > last.toNs) last.toNs = range.toNs;
    return;
  }
  ranges.push({ ...range });
}

/** Joins the two neighbouring ranges with the fewest stamps between them. */
function joinClosest(ranges: StampRange[]): void {
  let best = 1;
  for (let i = 2; i < ranges.length; i++) {
    const gap = (ranges[i] as StampRange).fromNs - (ranges[i - 1] as StampRange).toNs;
    if (gap < (ranges[best] as StampRange).fromNs - (ranges[best - 1] as StampRange).toNs) best = i;
  }
  const [removed] = ranges.splice(best, 1);
  if (removed !== undefined) (ranges[best - 1] as StampRange).toNs = removed.toNs;
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

/** Whether any part's time range reaches a stamp of [fromNs, toNs) outside the given sorted, disjoint ranges. */
export function reachesOutside(parts: readonly LogPart[], ranges: readonly StampRange[], fromNs: bigint, toNs: bigint): boolean {
  return parts.some((part) => {
    let lowNs = part.minTsNs > fromNs ? part.minTsNs : fromNs;
    const highNs = part.maxTsNs < toNs - 1n ? part.maxTsNs : toNs - 1n;
    for (const range of ranges) {
      if (lowNs > highNs) return false;
      if (range.toNs < lowNs) continue;
      if (range.fromNs > lowNs) return true;
      lowNs = range.toNs + 1n;
    }
    return lowNs <= highNs;
  });
}
