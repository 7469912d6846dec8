/**
 * Operation and call statistics summed per minute in memory before they are stored, so the
 * tables get one row per key per flush instead of one per trace. Pure; bounded by `maxKeys`
 * distinct keys between two takes (beyond, new keys are dropped and counted).
 */
import type { CallStat, CallStats, OpStat } from '../analysis/call-stats.js';

export class CallStatsAccumulator {
  private ops = new Map<string, OpStat>();
  private calls = new Map<string, CallStat>();

  constructor(private readonly maxKeys: number) {}

  get size(): number {
    return this.ops.size + this.calls.size;
  }

  /** Adds one trace's statistics; returns how many rows were dropped for want of room. */
  add(stats: CallStats): number {
    let dropped = 0;
    for (const op of stats.ops) {
      const key = `${op.minuteS}\u0000${op.service}\u0000${op.operation}`;
      const row = this.ops.get(key);
      if (row !== undefined) {
        row.calls += op.calls;
        row.errors += op.errors;
        row.originErrors += op.originErrors;
        row.selfNsSum += op.selfNsSum;
        row.durationNsSum += op.durationNsSum;
        if (op.selfNsMax > row.selfNsMax) row.selfNsMax = op.selfNsMax;
      } else if (this.size >= this.maxKeys) dropped++;
      else this.ops.set(key, { ...op });
    }
    for (const call of stats.calls) {
      const key = `${call.minuteS}\u0000${call.caller}\u0000${call.callee}\u0000${call.operation}\u0000${call.peer}`;
      const row = this.calls.get(key);
      if (row !== undefined) {
        row.calls += call.calls;
        row.errors += call.errors;
        row.originErrors += call.originErrors;
        row.clientNsSum += call.clientNsSum;
        row.wireNsSum += call.wireNsSum;
        if (call.wireNsMax > row.wireNsMax) row.wireNsMax = call.wireNsMax;
        row.servedCalls += call.servedCalls;
        row.serverNsSum += call.serverNsSum;
      } else if (this.size >= this.maxKeys) dropped++;
      else this.calls.set(key, { ...call });
    }
    return dropped;
  }

  /** Everything summed so far; starts over empty. */
  take(): CallStats {
    const taken = { ops: [...this.ops.values()], calls: [...this.calls.values()] };
    this.ops = new Map();
    this.calls = new Map();
    return taken;
  }
}
