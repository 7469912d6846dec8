/**
 * The assembler's open traces: spans and logs grouped by trace id until the trace closes. Pure: the
 * clock is a parameter of every call, nothing here does I/O or sets a timer.
 *
 * Closing rules (contract, "Trace closing and story creation"):
 * - gap: `gapMs` of processing time without a new span (logs do not keep a trace open);
 * - max_age: open for `maxAgeMs`;
 * - max_spans: a span beyond `maxSpans` arrives: the trace closes with `maxSpans` spans, flagged
 *   truncated, and the spans beyond are late;
 * - buffer: all buffered traces together exceed `maxBufferBytes`: the oldest close first, flagged
 *   truncated.
 * A closed trace without spans (logs only) produces nothing and is not remembered.
 *
 * Late items and pieces. Each closed piece is remembered (per partition, the last
 * `recentPerPartition`) with the time it was opened. An item for a remembered trace is:
 * - late when it arrives less than `maxAgeMs` after that piece opened: had the piece stayed open,
 *   the item would have joined it, so it belongs to the closed piece; it is counted, not analysed
 *   (the writer stores it raw either way);
 * - the start of a new piece otherwise: no piece may stay open longer than `maxAgeMs`, so the item
 *   could never have joined the closed one. This is how "a trace whose spans are more than a minute
 *   apart may close in pieces": each piece is analysed as its own trace.
 * A trace closed by max_age is therefore continued by a new piece at once, and a trace closed by its
 * gap treats stragglers within its minute as late.
 */
import type { LogRow, SpanRow } from '../model/signals.js';
import { LastSpanQueue } from './last-span-queue.js';
import { RecentClosed } from './recent-closed.js';
import { logBytes, spanBytes } from './row-bytes.js';

/**
 * A bus record's items kept as their protobuf bytes until the trace closes: a few hundred bytes a
 * span instead of kilobytes of decoded objects, which is most of the assembler's memory (it holds
 * `gap_ms` of the whole stream). The record's headers say how many items it holds.
 */
export interface EncodedChunk {
  signal: 'traces' | 'logs';
  items: number;
  value: Buffer;
}

/** Bookkeeping a chunk costs beyond its bytes (object, array slot). */
const CHUNK_OVERHEAD_BYTES = 96;

export type CloseReason = 'gap' | 'max_age' | 'max_spans' | 'buffer' | 'shutdown';

export interface ClosedTrace {
  traceId: string;
  partition: number;
  spans: SpanRow[];
  logs: LogRow[];
  /** Items still encoded; the caller decodes them and adds them to spans and logs. */
  chunks: EncodedChunk[];
  /** Closed by a limit (max_spans, buffer) with part of it possibly cut. */
  truncated: boolean;
  reason: CloseReason;
  openedAtMs: number;
}

export interface TraceBufferOptions {
  gapMs: number;
  maxAgeMs: number;
  maxSpans: number;
  maxBufferBytes: number;
  recentPerPartition: number;
  /** Byte estimates of buffered rows; injectable so tests can use round numbers. */
  spanBytes?: (span: SpanRow) => number;
  logBytes?: (log: LogRow) => number;
}

export interface AddResult {
  /** Items refused because their trace closed recently (svc_assembler_late_items_total). */
  late: number;
  /** 1 when these items opened a new piece of a trace that closed earlier. */
  newPieces: number;
  /** Traces closed by this add (max_spans, buffer). */
  closed: ClosedTrace[];
}

/**
 * One open trace. The buffer holds `gap_ms` of the whole stream, tens of thousands of these, most
 * with one or two records: the lists are made when their first item arrives and made to fit it
 * (an empty array literal grows to 17 slots on its first push) and a lone record is kept without a
 * list, which keeps a trace's bookkeeping
 * to a few hundred bytes beside its record bytes.
 */
interface OpenTrace {
  traceId: string;
  partition: number;
  spans: SpanRow[] | undefined;
  logs: LogRow[] | undefined;
  /** One record alone (most traces get no other), a list once a second arrives. */
  chunks: EncodedChunk | EncodedChunk[] | undefined;
  /** Spans in `spans` and in span chunks. */
  spanCount: number;
  bytes: number;
  openedAtMs: number;
  lastSpanAtMs: number;
}

/** Open traces with their closing rules and the memory of recently closed ones. */
export class TraceBuffer {
  /** Insertion order is opening order: the head is the oldest trace. */
  private readonly byOpen = new Map<string, OpenTrace>();
  /** The head is the trace with the oldest last span. */
  private readonly byLastSpan = new LastSpanQueue<OpenTrace>();
  private readonly recent = new Map<number, RecentClosed>();
  private readonly spanBytes: (span: SpanRow) => number;
  private readonly logBytes: (log: LogRow) => number;
  private totalBytes = 0;

  constructor(private readonly options: TraceBufferOptions) {
    this.spanBytes = options.spanBytes ?? spanBytes;
    this.logBytes = options.logBytes ?? logBytes;
  }

  get openTraces(): number {
    return this.byOpen.size;
  }

  get bufferedBytes(): number {
    return this.totalBytes;
  }

  /** Closed trace ids remembered for one partition (for tests and metrics). */
  rememberedIn(partition: number): number {
    return this.recent.get(partition)?.size ?? 0;
  }

  /** Adds one trace's items from one bus record of `partition`. */
  add(partition: number, traceId: string, spans: readonly SpanRow[], logs: readonly LogRow[], nowMs: number): AddResult {
    const result: AddResult = { late: 0, newPieces: 0, closed: [] };
    if (spans.length === 0 && logs.length === 0) return result;
    const trace = this.openOrLate(partition, traceId, spans.length + logs.length, nowMs, result);
    if (trace === undefined) return result;

    const room = this.options.maxSpans - trace.spanCount;
    const taken = spans.length > room ? spans.slice(0, Math.max(0, room)) : spans;
    let addedBytes = 0;
    if (taken.length > 0) {
      const spanList = (trace.spans ??= []);
      for (const span of taken) {
        spanList.push(span);
        addedBytes += this.spanBytes(span);
      }
    }
    trace.spanCount += taken.length;
    if (logs.length > 0) {
      const logList = (trace.logs ??= []);
      for (const log of logs) {
        logList.push(log);
        addedBytes += this.logBytes(log);
      }
    }
    this.grow(trace, addedBytes, spans.length > 0, nowMs);
    if (taken.length < spans.length) {
      result.late += spans.length - taken.length;
      this.pushClosed(result.closed, this.close(trace, 'max_spans', true));
    }
    this.enforceByteBound(result);
    return result;
  }

  /**
   * Adds one record's items still encoded. Returns null, changing nothing, when its spans would pass
   * `maxSpans`: the caller then decodes it and uses add(), which cuts at the exact span.
   */
  addEncoded(partition: number, traceId: string, chunk: EncodedChunk, nowMs: number): AddResult | null {
    const result: AddResult = { late: 0, newPieces: 0, closed: [] };
    if (chunk.items === 0) return result;
    const open = this.byOpen.get(traceId);
    if (chunk.signal === 'traces' && (open?.spanCount ?? 0) + chunk.items > this.options.maxSpans) return null;
    const trace = open ?? this.openOrLate(partition, traceId, chunk.items, nowMs, result);
    if (trace === undefined) return result;
    if (trace.chunks === undefined) trace.chunks = chunk;
    else if (Array.isArray(trace.chunks)) trace.chunks.push(chunk);
    else trace.chunks = [trace.chunks, chunk];
    if (chunk.signal === 'traces') trace.spanCount += chunk.items;
    this.grow(trace, chunk.value.length + CHUNK_OVERHEAD_BYTES, chunk.signal === 'traces', nowMs);
    this.enforceByteBound(result);
    return result;
  }

  /** The open trace for new items, opened if needed; undefined (items counted late) when they belong to a recently closed piece. */
  private openOrLate(partition: number, traceId: string, items: number, nowMs: number, result: AddResult): OpenTrace | undefined {
    const open = this.byOpen.get(traceId);
    if (open !== undefined) return open;
    const recent = this.recentOf(partition);
    const closedOpenedAtMs = recent.openedAt(traceId);
    if (closedOpenedAtMs !== undefined) {
      if (nowMs - closedOpenedAtMs < this.options.maxAgeMs) {
        result.late = items;
        return undefined;
      }
      recent.forget(traceId);
      result.newPieces = 1;
    }
    const trace: OpenTrace = {
      traceId,
      partition,
      spans: undefined,
      logs: undefined,
      chunks: undefined,
      spanCount: 0,
      bytes: 0,
      openedAtMs: nowMs,
      lastSpanAtMs: nowMs,
    };
    this.byOpen.set(traceId, trace);
    this.byLastSpan.push(trace, nowMs, this.byOpen.size);
    return trace;
  }

  private grow(trace: OpenTrace, addedBytes: number, hadSpans: boolean, nowMs: number): void {
    trace.bytes += addedBytes;
    this.totalBytes += addedBytes;
    // A trace whose last span came at this very millisecond (opened now, or fed by another record
    // of the same batch) already sits among the newest: moving it to the end keeps the order
    // closeDue() relies on unchanged, so no entry is added.
    if (hadSpans && trace.lastSpanAtMs !== nowMs) {
      trace.lastSpanAtMs = nowMs;
      this.byLastSpan.push(trace, nowMs, this.byOpen.size);
    }
  }

  private enforceByteBound(result: AddResult): void {
    while (this.totalBytes > this.options.maxBufferBytes && this.byOpen.size > 0) {
      const oldest = this.byOpen.values().next().value as OpenTrace;
      this.pushClosed(result.closed, this.close(oldest, 'buffer', true));
    }
  }

  /** Closes the traces whose gap or age has run out at `nowMs`. */
  closeDue(nowMs: number): ClosedTrace[] {
    const closed: ClosedTrace[] = [];
    this.byLastSpan.takeDue(nowMs, this.options.gapMs, (trace) => this.pushClosed(closed, this.close(trace, 'gap', false)));
    for (const trace of this.byOpen.values()) {
      if (nowMs - trace.openedAtMs < this.options.maxAgeMs) break;
      this.pushClosed(closed, this.close(trace, 'max_age', false));
    }
    return closed;
  }

  /** Closes every open trace (shutdown), oldest first. */
  closeAll(): ClosedTrace[] {
    const closed: ClosedTrace[] = [];
    for (const trace of [...this.byOpen.values()]) this.pushClosed(closed, this.close(trace, 'shutdown', false));
    this.byLastSpan.clear();
    return closed;
  }

  private close(trace: OpenTrace, reason: CloseReason, truncated: boolean): ClosedTrace | null {
    this.byOpen.delete(trace.traceId);
    trace.lastSpanAtMs = NaN; // its entries in byLastSpan are stale from now on
    this.totalBytes -= trace.bytes;
    if (trace.spanCount === 0) return null; // logs only: nothing to analyse, nothing to remember
    this.recentOf(trace.partition).remember(trace.traceId, trace.openedAtMs);
    return {
      traceId: trace.traceId,
      partition: trace.partition,
      spans: trace.spans ?? [],
      logs: trace.logs ?? [],
      chunks: trace.chunks === undefined ? [] : Array.isArray(trace.chunks) ? trace.chunks : [trace.chunks],
      truncated,
      reason,
      openedAtMs: trace.openedAtMs,
    };
  }

  private pushClosed(out: ClosedTrace[], closed: ClosedTrace | null): void {
    if (closed !== null) out.push(closed);
  }

  private recentOf(partition: number): RecentClosed {
    let recent = this.recent.get(partition);
    if (recent === undefined) this.recent.set(partition, (recent = new RecentClosed(this.options.recentPerPartition)));
    return recent;
  }
}
