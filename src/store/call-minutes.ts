/**
 * Per-minute operation and call statistics (migration 9), written by the assembler and read by
 * incident analysis. Rows are deltas; several rows of one key add up in merges and in reads.
 */

import type { CallStat, OpStat } from '../analysis/call-stats.js';
import type { QueryOptions, Store } from '../model/store.js';
import { PermanentError } from '../util/retry.js';
import { encodeLines } from './compact-json.js';

const OP_COLUMNS = ['minute', 'service', 'operation', 'calls', 'errors', 'origin_errors', 'self_ns_sum', 'duration_ns_sum', 'self_ns_max'] as const;
const CALL_COLUMNS = [
  'minute',
  'caller',
  'callee',
  'operation',
  'peer',
  'calls',
  'errors',
  'origin_errors',
  'client_ns_sum',
  'wire_ns_sum',
  'wire_ns_max',
  'served_calls',
  'server_ns_sum',
] as const;

const s = JSON.stringify;

function checkMinute(minuteS: number): void {
  if (!Number.isInteger(minuteS) || minuteS % 60 !== 0 || minuteS < 0) throw new PermanentError('minuteS must be a whole minute in Unix seconds');
}

function opLine(r: OpStat): string {
  checkMinute(r.minuteS);
  return `[${r.minuteS},${s(r.service)},${s(r.operation)},${r.calls},${r.errors},${r.originErrors},${r.selfNsSum},${r.durationNsSum},${r.selfNsMax}]\n`;
}

function callLine(r: CallStat): string {
  checkMinute(r.minuteS);
  return `[${r.minuteS},${s(r.caller)},${s(r.callee)},${s(r.operation)},${s(r.peer)},${r.calls},${r.errors},${r.originErrors},${r.clientNsSum},${r.wireNsSum},${r.wireNsMax},${r.servedCalls},${r.serverNsSum}]\n`;
}

export async function insertOpMinutes(store: Store, rows: readonly OpStat[]): Promise<void> {
  if (rows.length === 0) return;
  await store.insertRaw('op_minutes', OP_COLUMNS, encodeLines(rows, opLine));
}

export async function insertCallMinutes(store: Store, rows: readonly CallStat[]): Promise<void> {
  if (rows.length === 0) return;
  await store.insertRaw('call_minutes', CALL_COLUMNS, encodeLines(rows, callLine));
}

interface OpRowText {
  minute: string | number;
  service: string;
  operation: string;
  calls: string;
  errors: string;
  origin_errors: string;
  self_ns_sum: string;
  duration_ns_sum: string;
  self_ns_max: string;
}

interface CallRowText {
  minute: string | number;
  caller: string;
  callee: string;
  operation: string;
  peer: string;
  calls: string;
  errors: string;
  origin_errors: string;
  client_ns_sum: string;
  wire_ns_sum: string;
  wire_ns_max: string;
  served_calls: string;
  server_ns_sum: string;
}

/** Operation statistics of the minutes in [fromS, toS), summed per minute, service and operation. */
export async function readOpMinutes(store: Store, fromS: number, toS: number, options: QueryOptions = {}): Promise<OpStat[]> {
  const rows = await store.query<OpRowText>(
    `SELECT toUInt32(minute) AS minute, service, operation, sum(calls) AS calls, sum(errors) AS errors, sum(origin_errors) AS origin_errors,
       sum(self_ns_sum) AS self_ns_sum, sum(duration_ns_sum) AS duration_ns_sum, max(self_ns_max) AS self_ns_max
     FROM op_minutes
     WHERE minute >= toDateTime({from_s:UInt32}) AND minute < toDateTime({to_s:UInt32})
     GROUP BY minute, service, operation`,
    { from_s: Math.max(0, Math.floor(fromS)), to_s: Math.max(0, Math.floor(toS)) },
    options,
  );
  return rows.map((r) => ({
    minuteS: Number(r.minute),
    service: r.service,
    operation: r.operation,
    calls: Number(r.calls),
    errors: Number(r.errors),
    originErrors: Number(r.origin_errors),
    selfNsSum: BigInt(r.self_ns_sum),
    durationNsSum: BigInt(r.duration_ns_sum),
    selfNsMax: BigInt(r.self_ns_max),
  }));
}

/** Call statistics of the minutes in [fromS, toS), summed per minute, caller, callee, operation and peer. */
export async function readCallMinutes(store: Store, fromS: number, toS: number, options: QueryOptions = {}): Promise<CallStat[]> {
  const rows = await store.query<CallRowText>(
    `SELECT toUInt32(minute) AS minute, caller, callee, operation, peer, sum(calls) AS calls, sum(errors) AS errors, sum(origin_errors) AS origin_errors,
       sum(client_ns_sum) AS client_ns_sum, sum(wire_ns_sum) AS wire_ns_sum, max(wire_ns_max) AS wire_ns_max, sum(served_calls) AS served_calls, sum(server_ns_sum) AS server_ns_sum
     FROM call_minutes
     WHERE minute >= toDateTime({from_s:UInt32}) AND minute < toDateTime({to_s:UInt32})
     GROUP BY minute, caller, callee, operation, peer`,
    { from_s: Math.max(0, Math.floor(fromS)), to_s: Math.max(0, Math.floor(toS)) },
    options,
  );
  return rows.map((r) => ({
    minuteS: Number(r.minute),
    caller: r.caller,
    callee: r.callee,
    operation: r.operation,
    peer: r.peer,
    calls: Number(r.calls),
    errors: Number(r.errors),
    originErrors: Number(r.origin_errors),
    clientNsSum: BigInt(r.client_ns_sum),
    wireNsSum: BigInt(r.wire_ns_sum),
    wireNsMax: BigInt(r.wire_ns_max),
    servedCalls: Number(r.served_calls),
    serverNsSum: BigInt(r.server_ns_sum),
  }));
}
