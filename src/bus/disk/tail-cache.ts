import type { BusRecord } from '../../model/bus.js';

export interface PositionedRecord {
  position: number;
  nextPosition: number;
  record: BusRecord;
}

/**
 * The newest durable records of the embedded bus, kept in memory so that consumers that keep up
 * never read the disk (and get the very Buffers ingest published). Bounded in bytes: past the
 * bound the oldest go, and a consumer that far behind reads them from the log instead.
 */
export class TailCache {
  private entries: PositionedRecord[] = [];
  private head = 0;
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get heldBytes(): number {
    return this.bytes;
  }

  /** Position of the oldest record held, or undefined when empty. */
  get startPosition(): number | undefined {
    return this.head < this.entries.length ? this.entries[this.head].position : undefined;
  }

  push(entry: PositionedRecord): void {
    this.entries.push(entry);
    this.bytes += recordBytes(entry.record);
    while (this.bytes > this.maxBytes && this.head < this.entries.length) this.dropHead();
    this.compact();
  }

  /**
   * Records from `position` on, at most `maxRecords`; undefined when `position` is older than
   * what is held or nothing is held (then the log has the answer).
   */
  readFrom(position: number, maxRecords: number): PositionedRecord[] | undefined {
    const start = this.startPosition;
    if (start === undefined || position < start) return undefined;
    let low = this.head;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.entries[middle].position < position) low = middle + 1;
      else high = middle;
    }
    return this.entries.slice(low, Math.min(low + maxRecords, this.entries.length));
  }

  /** Forgets records before `position` (every consumer here has read past them). */
  dropBefore(position: number): void {
    while (this.head < this.entries.length && this.entries[this.head].position < position) this.dropHead();
    this.compact();
  }

  private dropHead(): void {
    this.bytes -= recordBytes(this.entries[this.head].record);
    this.head += 1;
  }

  private compact(): void {
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

export function recordBytes(record: BusRecord): number {
  return record.value.length + record.key.length;
}
