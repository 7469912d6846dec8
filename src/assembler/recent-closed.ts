/**
 * The last N closed trace ids of one partition, with when each closed piece was opened, so that an
 * item arriving after its trace closed is recognised as late. A fixed-size ring: the oldest id is
 * forgotten when the (N+1)th closes, so memory stays bounded whatever the trace rate
 * (contract: 100,000 closed trace ids remembered per partition).
 */
export class RecentClosed {
  private readonly ids: (string | undefined)[];
  private readonly openedAtMs: Float64Array;
  /** trace id -> ring slot; the slot number is a small integer, cheap to hold. */
  private readonly slots = new Map<string, number>();
  private next = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.ids = new Array<string | undefined>(capacity);
    this.openedAtMs = new Float64Array(capacity);
  }

  get size(): number {
    return this.slots.size;
  }

  /** Remembers a closed trace piece (replacing an older memory of the same id). */
  remember(traceId: string, openedAtMs: number): void {
    this.forget(traceId);
    const slot = this.next;
    const evicted = this.ids[slot];
    if (evicted !== undefined) this.slots.delete(evicted);
    this.ids[slot] = traceId;
    this.openedAtMs[slot] = openedAtMs;
    this.slots.set(traceId, slot);
    this.next = (slot + 1) % this.capacity;
  }

  /** When the remembered closed piece of this trace was opened, or undefined when not remembered. */
  openedAt(traceId: string): number | undefined {
    const slot = this.slots.get(traceId);
    return slot === undefined ? undefined : this.openedAtMs[slot];
  }

  forget(traceId: string): void {
    const slot = this.slots.get(traceId);
    if (slot === undefined) return;
    this.slots.delete(traceId);
    this.ids[slot] = undefined;
  }
}
