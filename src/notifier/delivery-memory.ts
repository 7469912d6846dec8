/**
 * What this process knows about alert and target pairs: queued (in a target queue) or a recorded
 * result. It saves a store read for repeats on the topic and keeps once-delivery within the
 * process even when a final write was lost. Bounded: beyond `maxEntries` the oldest settled
 * entries are forgotten (the store still has them).
 */

import type { DeliveryResult } from '../store/deliveries.js';

export type MemoryState = 'queued' | Exclude<DeliveryResult, 'pending'>;

export class DeliveryMemory {
  private readonly states = new Map<string, MemoryState>();

  constructor(private readonly maxEntries: number) {}

  get(key: string): MemoryState | undefined {
    return this.states.get(key);
  }

  set(key: string, state: MemoryState): void {
    // Re-inserting moves the key to the newest end, so eviction drops the least recently settled.
    this.states.delete(key);
    this.states.set(key, state);
    if (this.states.size <= this.maxEntries) return;
    for (const [oldKey, oldState] of this.states) {
      if (this.states.size <= this.maxEntries) break;
      // Queued entries are bounded by the queues; only settled ones are forgotten.
      if (oldState !== 'queued') this.states.delete(oldKey);
    }
  }
}
