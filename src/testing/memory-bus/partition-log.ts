import type { BusMessage, BusRecord } from '../../model/bus.js';

interface CommitWaiter {
  offset: bigint;
  resolve: () => void;
}

/** One partition of a topic in memory: an append-only window of records plus each group's committed offset. */
export class PartitionLog {
  private records: BusRecord[] = [];
  /** Offset of records[0]. */
  private baseOffset = 0n;
  private nextOffset = 0n;
  private readonly committed = new Map<string, bigint>();
  private readonly waiters = new Map<string, CommitWaiter[]>();

  constructor(
    readonly topic: string,
    readonly index: number,
  ) {}

  get endOffset(): bigint {
    return this.nextOffset;
  }

  append(message: BusMessage, timestampMs: number): BusRecord {
    const record: BusRecord = {
      topic: this.topic,
      partition: this.index,
      offset: this.nextOffset,
      timestampMs,
      key: message.key,
      value: message.value,
      headers: message.headers,
    };
    this.records.push(record);
    this.nextOffset += 1n;
    return record;
  }

  /** Records from `offset` on, at most `max`; an offset already trimmed starts at the oldest held record. */
  read(offset: bigint, max: number): BusRecord[] {
    const start = offset < this.baseOffset ? 0 : Number(offset - this.baseOffset);
    return this.records.slice(start, start + max);
  }

  committedOffset(group: string): bigint {
    return this.committed.get(group) ?? 0n;
  }

  /** Records that the group has processed everything before `nextOffset`. */
  commit(group: string, nextOffset: bigint): void {
    if (nextOffset <= this.committedOffset(group)) return;
    this.committed.set(group, nextOffset);
    const waiting = this.waiters.get(group);
    if (waiting === undefined) return;
    const still: CommitWaiter[] = [];
    for (const waiter of waiting) {
      if (waiter.offset < nextOffset) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters.set(group, still);
  }

  /** Resolves once `group` has committed past `offset`. */
  waitForCommit(group: string, offset: bigint): Promise<void> {
    if (offset < this.committedOffset(group)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiters.get(group) ?? [];
      list.push({ offset, resolve });
      this.waiters.set(group, list);
    });
  }

  /** Drops records below the smallest commit of `groups`; returns the bytes released. */
  trimCommitted(groups: string[]): number {
    let low = this.nextOffset;
    for (const group of groups) {
      const offset = this.committedOffset(group);
      if (offset < low) low = offset;
    }
    return this.dropBefore(low);
  }

  /** Keeps at most `maxBytes` of the newest records (retention for a topic nobody consumes). */
  trimToBytes(maxBytes: number): void {
    let bytes = 0;
    let keepFrom = this.records.length;
    while (keepFrom > 0) {
      const record = this.records[keepFrom - 1];
      const size = record.value.length + record.key.length;
      if (bytes + size > maxBytes) break;
      bytes += size;
      keepFrom -= 1;
    }
    if (keepFrom > 0) this.dropBefore(this.baseOffset + BigInt(keepFrom));
  }

  private dropBefore(offset: bigint): number {
    if (offset <= this.baseOffset) return 0;
    const count = Number(offset - this.baseOffset);
    let bytes = 0;
    for (let i = 0; i < count; i++) bytes += this.records[i].value.length + this.records[i].key.length;
    this.records = this.records.slice(count);
    this.baseOffset = offset;
    return bytes;
  }
}
