/**
 * Open traces in the order of their last span, for closing by gap: the head is the trace whose gap
 * runs out first. Pure, no clock of its own.
 *
 * Why a queue and not a second Map re-inserted on every span: the buffer holds tens of thousands of
 * traces, and a Map keyed by trace id costs a hash table of its own (tens of bytes a trace) and a
 * delete and a set per record. Here a new last span appends an entry (the trace and the time it
 * was stamped with); the older entries of that trace go stale and are skipped when they reach the
 * head. An entry is current while its stamp equals the trace's `lastSpanAtMs`: the owner sets that
 * to NaN when it closes the trace, so every entry of a closed trace is stale.
 *
 * Bounded: when stale entries outnumber the owner's open traces (plus a slack), they are dropped in
 * one pass, so the queue never holds more than about three entries per open trace.
 */
export interface LastSpanStamped {
  lastSpanAtMs: number;
}

/** Entries below this many are never compacted: a pass would cost more than it frees. */
const COMPACT_SLACK = 1024;

export class LastSpanQueue<T extends LastSpanStamped> {
  private items: (T | undefined)[] = [];
  private stampsMs: number[] = [];
  private head = 0;

  /** Entries held, stale ones included (for tests and bounds). */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Records that `item`'s last span came at `stampMs` (the caller has set `item.lastSpanAtMs` to it). `openCount`: the caller's open traces. */
  push(item: T, stampMs: number, openCount: number): void {
    this.items.push(item);
    this.stampsMs.push(stampMs);
    if (this.length > 2 * openCount + COMPACT_SLACK) this.compact();
  }

  /**
   * Hands `onDue` each current entry whose gap has run out at `nowMs`, oldest first, stopping at the
   * first current entry that is not due. `onDue` must close the trace (set its `lastSpanAtMs` to NaN).
   */
  takeDue(nowMs: number, gapMs: number, onDue: (item: T) => void): void {
    while (this.head < this.items.length) {
      const item = this.items[this.head]!;
      const stampMs = this.stampsMs[this.head]!;
      if (item.lastSpanAtMs === stampMs) {
        if (nowMs - stampMs < gapMs) break;
        onDue(item);
      }
      this.items[this.head] = undefined; // releases a closed trace now, not when the queue is next compacted
      this.head++;
    }
    if (this.head === this.items.length) this.clear();
    else if (this.head > COMPACT_SLACK && this.head * 2 > this.items.length) this.dropHead();
  }

  /** Forgets every entry (after the owner closed every trace). */
  clear(): void {
    this.items = [];
    this.stampsMs = [];
    this.head = 0;
  }

  private dropHead(): void {
    this.items = this.items.slice(this.head);
    this.stampsMs = this.stampsMs.slice(this.head);
    this.head = 0;
  }

  /** Keeps only current entries, in order. */
  private compact(): void {
    const items: T[] = [];
    const stampsMs: number[] = [];
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i]!;
      const stampMs = this.stampsMs[i]!;
      if (item.lastSpanAtMs !== stampMs) continue;
      items.push(item);
      stampsMs.push(stampMs);
    }
    this.items = items;
    this.stampsMs = stampsMs;
    this.head = 0;
  }
}
