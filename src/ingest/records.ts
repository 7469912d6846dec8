import { SIGNAL_HEADER, type BusMessage, type SignalKind } from '../model/bus.js';
import type { LogRow, SpanRow } from '../model/signals.js';

export interface RecordEncoders {
  encodeSpans(spans: SpanRow[]): Buffer;
  encodeLogs(logs: LogRow[]): Buffer;
}

export interface BuiltRecords {
  /** For the signals topic: one record per trace id (or per service for items without one). */
  signals: BusMessage[];
  /** For the logs topic: logs keyed by service. */
  logs: BusMessage[];
  /** Single items that alone exceed the byte budget. */
  droppedItems: number;
}

/**
 * Builds the bus records of one export request as the contract's data flow says: grouped and keyed
 * by trace id (service for items without one), a group above the byte budget split, a single item
 * alone above it dropped.
 */
export function buildSpanRecords(spans: SpanRow[], maxRecordBytes: number, encoders: RecordEncoders): BuiltRecords {
  const groups = groupBy(spans, (span) => span.traceId || span.serviceName);
  const signals: BusMessage[] = [];
  let droppedItems = 0;
  for (const [key, items] of groups) droppedItems += splitIntoRecords(key, items, 'traces', maxRecordBytes, encoders.encodeSpans, signals);
  return { signals, logs: [], droppedItems };
}

export function buildLogRecords(logs: LogRow[], maxRecordBytes: number, encoders: RecordEncoders): BuiltRecords {
  const signals: BusMessage[] = [];
  const byService: BusMessage[] = [];
  let droppedItems = 0;
  for (const [key, items] of groupBy(logs, (log) => log.traceId || log.serviceName)) {
    droppedItems += splitIntoRecords(key, items, 'logs', maxRecordBytes, encoders.encodeLogs, signals);
  }
  // An item dropped for size on the signals topic is dropped here too: the same bytes exceed the
  // same budget, and it is counted once above.
  for (const [service, items] of groupBy(logs, (log) => log.serviceName)) {
    splitIntoRecords(service, items, 'logs', maxRecordBytes, encoders.encodeLogs, byService);
  }
  return { signals, logs: byService, droppedItems };
}

function splitIntoRecords<T>(
  key: string,
  items: T[],
  signal: SignalKind,
  maxRecordBytes: number,
  encode: (items: T[]) => Buffer,
  out: BusMessage[],
): number {
  const value = encode(items);
  if (recordBytes(key, value, signal) <= maxRecordBytes) {
    out.push({ key, value, headers: { [SIGNAL_HEADER]: signal } });
    return 0;
  }
  if (items.length === 1) return 1;
  // Halving keeps the number of encodes logarithmic in the group size.
  const middle = Math.ceil(items.length / 2);
  return (
    splitIntoRecords(key, items.slice(0, middle), signal, maxRecordBytes, encode, out) +
    splitIntoRecords(key, items.slice(middle), signal, maxRecordBytes, encode, out)
  );
}

/** What counts against the budget: key, value and the signal header, as the broker stores them. */
export function recordBytes(key: string, value: Buffer, signal: SignalKind): number {
  return Buffer.byteLength(key) + value.length + SIGNAL_HEADER.length + signal.length;
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}
