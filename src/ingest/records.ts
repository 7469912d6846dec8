import { ITEMS_HEADER, KEY_HEADER, SIGNAL_HEADER, type BusMessage, type SignalKind } from '../model/bus.js';
import type { LogRow, SpanRow } from '../model/signals.js';

/** The record value holding the items at `indices` of the export (in that order). */
export type ItemEncoder = (indices: readonly number[]) => Buffer;

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
export function buildSpanRecords(spans: SpanRow[], maxRecordBytes: number, encode: ItemEncoder): BuiltRecords {
  const signals: BusMessage[] = [];
  let droppedItems = 0;
  for (const [key, items] of groupBy(spans, (span) => span.traceId || span.serviceName)) {
    // groupBy makes no empty group, and its indices are below spans.length.
    droppedItems += splitIntoRecords(key, spans[items[0]!]!.traceId === '' ? 'service' : 'trace', items, 'traces', maxRecordBytes, encode, signals);
  }
  return { signals, logs: [], droppedItems };
}

export function buildLogRecords(logs: LogRow[], maxRecordBytes: number, encode: ItemEncoder): BuiltRecords {
  const signals: BusMessage[] = [];
  const byService: BusMessage[] = [];
  let droppedItems = 0;
  for (const [key, items] of groupBy(logs, (log) => log.traceId || log.serviceName)) {
    droppedItems += splitIntoRecords(key, logs[items[0]!]!.traceId === '' ? 'service' : 'trace', items, 'logs', maxRecordBytes, encode, signals);
  }
  // An item dropped for size on the signals topic is dropped here too: the same bytes exceed the
  // same budget, and it is counted once above.
  for (const [service, items] of groupBy(logs, (log) => log.serviceName)) {
    splitIntoRecords(service, 'service', items, 'logs', maxRecordBytes, encode, byService);
  }
  return { signals, logs: byService, droppedItems };
}

function splitIntoRecords(
  key: string,
  keyKind: 'trace' | 'service',
  items: number[],
  signal: SignalKind,
  maxRecordBytes: number,
  encode: ItemEncoder,
  out: BusMessage[],
): number {
  const value = encode(items);
  const { headers, bytes: headerBytes } = sharedHeaders(signal, keyKind, items.length);
  if (Buffer.byteLength(key) + value.length + headerBytes <= maxRecordBytes) {
    out.push({ key, value, headers });
    return 0;
  }
  if (items.length === 1) return 1;
  // Halving keeps the number of encodes logarithmic in the group size.
  const middle = Math.ceil(items.length / 2);
  return (
    splitIntoRecords(key, keyKind, items.slice(0, middle), signal, maxRecordBytes, encode, out) +
    splitIntoRecords(key, keyKind, items.slice(middle), signal, maxRecordBytes, encode, out)
  );
}

/** What counts against the budget: key, value and headers, as the broker stores them. */
export function recordBytes(key: string, value: Buffer, headers: Record<string, string>): number {
  let bytes = Buffer.byteLength(key) + value.length;
  for (const [name, headerValue] of Object.entries(headers)) bytes += name.length + headerValue.length;
  return bytes;
}

/** A record's headers with their budget bytes (recordBytes' count of them). */
interface SharedHeaders {
  headers: Readonly<Record<string, string>>;
  bytes: number;
}

/** Counts up to this share one headers object; a bigger record (rare) gets its own. */
const MAX_SHARED_COUNT = 1024;
const sharedByKind = new Map<string, (SharedHeaders | undefined)[]>();

/**
 * The headers of a record of `count` items: one frozen object per signal, key kind and count, as
 * a record's headers are only read (by the bus and consumers), never changed. An object and a
 * count string per record were garbage at every export (250 records in one of 500 logs).
 */
function sharedHeaders(signal: SignalKind, keyKind: 'trace' | 'service', count: number): SharedHeaders {
  const made = (): SharedHeaders => {
    const headers = Object.freeze({ [SIGNAL_HEADER]: signal, [ITEMS_HEADER]: String(count), [KEY_HEADER]: keyKind });
    return { headers, bytes: recordBytes('', EMPTY, headers) };
  };
  if (count > MAX_SHARED_COUNT) return made();
  const kind = `${signal}/${keyKind}`;
  let byCount = sharedByKind.get(kind);
  if (byCount === undefined) sharedByKind.set(kind, (byCount = []));
  return (byCount[count] ??= made());
}

const EMPTY = Buffer.alloc(0);

/**
 * Indices of `items` by key, in order of first appearance (each group holds at least one). An
 * item with the key of the one before it (a trace's spans usually come together) joins its group
 * without a Map lookup.
 */
function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  let lastKey: string | undefined;
  let lastGroup: number[] = [];
  for (let i = 0; i < items.length; i++) {
    const key = keyOf(items[i]!);
    if (key === lastKey) {
      lastGroup.push(i);
      continue;
    }
    const group = groups.get(key);
    if (group === undefined) groups.set(key, (lastGroup = [i]));
    else (lastGroup = group).push(i);
    lastKey = key;
  }
  return groups;
}
