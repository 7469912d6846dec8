/**
 * Service-to-service calls summed per minute in memory before they are stored, so the edges table
 * gets one row per (minute, parent, child) per flush instead of one per trace. Pure; bounded by
 * `maxKeys` distinct keys between two takes (beyond, new keys are dropped and counted).
 */
import type { ServiceEdge } from '../analysis/types.js';
import type { ServiceEdgeRow } from '../store/service-edges.js';
import { NS_PER_MINUTE } from '../util/time-units.js';

export class EdgeAccumulator {
  private rows = new Map<string, ServiceEdgeRow>();

  constructor(private readonly maxKeys: number) {}

  get size(): number {
    return this.rows.size;
  }

  /** Adds one trace's edges in the minute of `tsNs` (the trace's start); returns how many edges were dropped. */
  add(tsNs: bigint, edges: readonly ServiceEdge[]): number {
    const minuteS = Number((tsNs - (((tsNs % NS_PER_MINUTE) + NS_PER_MINUTE) % NS_PER_MINUTE)) / 1_000_000_000n);
    let dropped = 0;
    for (const edge of edges) {
      const key = `${minuteS}\u0000${edge.parent}\u0000${edge.child}`;
      let row = this.rows.get(key);
      if (row === undefined) {
        if (this.rows.size >= this.maxKeys) {
          dropped++;
          continue;
        }
        this.rows.set(key, (row = { minuteS, parent: edge.parent, child: edge.child, calls: 0, errors: 0, durationNsSum: 0n }));
      }
      row.calls += edge.calls;
      row.errors += edge.errors;
      row.durationNsSum += edge.total_duration_ns;
    }
    return dropped;
  }

  /** Everything summed so far; starts over empty. */
  take(): ServiceEdgeRow[] {
    const rows = [...this.rows.values()];
    this.rows = new Map();
    return rows;
  }
}
