/**
 * The assembler: groups spans and logs of the signals topic by trace, closes traces (trace-buffer.ts),
 * analyses each closed trace against its endpoint's baseline, and writes trace summaries, stories and
 * service edges, publishing each story to the stories topic.
 *
 * Commit timing: a bus batch is committed as soon as its items are buffered, not when their traces
 * close. Holding the commit until close would pin up to max_age_ms (60 s) of the whole signals
 * stream in the bus (the in-process bus of all-in-one is bounded and keeps a record until every
 * group commits it, so ingest would push back on clients for a derived output). The price: a crash
 * loses the stories of the traces open at that moment. Raw spans and logs are unaffected: the writer
 * stores them under its own group and commits only what is stored.
 */
import { performance } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import { analyzeTrace } from '../analysis/analyze.js';
import type { AssemblerSettings, ThresholdSettings } from '../config/settings.js';
import { ITEMS_HEADER, KEY_HEADER, SIGNAL_HEADER, type Bus, type BusConsumer, type BusRecord } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { RecordDecoder } from '../otlp/record-decoder.js';
import { readBaselineSamples } from '../store/baseline-samples.js';
import type { Logger } from '../util/log.js';
import { createLogOnce } from '../util/log-once.js';
import { DropTally } from '../otlp/item-validity.js';
import { logDropReason, spanDropReason, type DropReason } from '../store/drop-reason.js';
import { Baselines } from './baselines.js';
import { createAssemblerMetrics } from './metrics.js';
import { AssemblerOutputs } from './outputs.js';
import { TraceBuffer, type AddResult, type ClosedTrace, type EncodedChunk } from './trace-buffer.js';

export const ASSEMBLER_GROUP = 'svc-assembler';
/** How often due traces are looked for: well below any sensible gap_ms. */
const SCHEDULER_MS = 100;
/** Analysis is synchronous; yield to the event loop after this long so I/O keeps flowing. */
const YIELD_AFTER_MS = 20;
/** On close, how long to wait for the rest of the topic to reach the buffer (in-process bus). */
const DRAIN_GRACE_MS = 5_000;

export interface AssemblerDeps {
  bus: Bus;
  store: Store;
  registry: Registry;
  logger: Logger;
  nowMs?: () => number;
}

export interface AssemblerConfig {
  assembler: AssemblerSettings;
  thresholds: ThresholdSettings;
  /** The signals topic (kafka.topic). */
  topic: string;
  /** kafka.max_record_bytes, the budget of a story record (default: the contract's 900,000). */
  maxRecordBytes?: number;
}

const DEFAULT_MAX_RECORD_BYTES = 900_000;

/** Creates the assembler component (consumer group `svc-assembler`). */
export function createAssembler(settings: AssemblerConfig, deps: AssemblerDeps): Component {
  const logger = deps.logger.child({ component: 'assembler' });
  const nowMs = deps.nowMs ?? Date.now;
  const metrics = createAssemblerMetrics(deps.registry);
  const { assembler } = settings;
  const buffer = new TraceBuffer({
    gapMs: assembler.gap_ms,
    maxAgeMs: assembler.max_age_ms,
    maxSpans: assembler.max_spans,
    maxBufferBytes: assembler.max_buffer_bytes,
    recentPerPartition: assembler.recent_per_partition,
  });
  const baselines = new Baselines({
    assembler,
    thresholds: settings.thresholds,
    readSamples: (query) => readBaselineSamples(deps.store, query),
    nowMs,
    logger,
    onRefreshed: (trusted) => metrics.trustedBaselines.set(trusted),
    onFailure: () => metrics.baselineRefreshFailures.inc(),
  });
  const outputs = new AssemblerOutputs({
    store: deps.store,
    bus: deps.bus,
    storiesTopic: assembler.stories_topic,
    maxRecordBytes: settings.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
    metrics,
    logger,
    nowMs,
  });
  let consumer: BusConsumer | undefined;
  let scheduler: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  const logOnce = createLogOnce();
  const decoder = new RecordDecoder({ logger, countBad: () => metrics.droppedItems.inc({ reason: 'bad_record' }), counterName: 'svc_assembler_dropped_items_total' });

  /** Analyses one closed trace and queues what it produced. */
  function finish(closed: ClosedTrace): void {
    metrics.tracesClosed.inc({ reason: closed.reason });
    if (closed.reason === 'buffer') {
      logOnce('buffer', () => logger.warn({ maxBufferBytes: assembler.max_buffer_bytes }, 'open traces passed assembler.max_buffer_bytes: closing the oldest early, flagged truncated (counted in svc_assembler_traces_closed_total{reason="buffer"}; logged once)'));
    }
    const startedMs = performance.now();
    try {
      const { spans, logs } = materialize(closed);
      const analysis = analyzeTrace({
        spans,
        logs,
        truncated: closed.truncated,
        baseline: baselines.lookup,
        thresholds: settings.thresholds,
      });
      metrics.analysisSeconds.observe((performance.now() - startedMs) / 1000);
      if (analysis === null) return;
      outputs.add(analysis);
      if (analysis.story !== null) metrics.stories.inc({ kind: analysis.story.kind });
    } catch (error) {
      metrics.analysisFailures.inc();
      logOnce('analysis', () => logger.error({ err: error, traceId: closed.traceId }, 'trace analysis failed; trace skipped (counted in svc_assembler_analysis_failures_total; logged once)'));
    }
  }

  /** The closed trace's rows: buffered ones plus its encoded chunks, decoded now, without items the writer will not store. */
  function materialize(closed: ClosedTrace): { spans: SpanRow[]; logs: LogRow[] } {
    if (closed.chunks.length === 0) return { spans: closed.spans, logs: closed.logs };
    const nowNs = BigInt(nowMs()) * 1_000_000n;
    const spans = [...closed.spans];
    const logs = [...closed.logs];
    const dropped = new DropTally<DropReason>();
    for (const chunk of closed.chunks) {
      const decoded = decodeChunk(chunk);
      for (const span of decoded.spans) keepOrTally(span, spanDropReason(span, nowNs), spans, dropped);
      for (const log of decoded.logs) if (log.traceId !== '') keepOrTally(log, logDropReason(log, nowNs), logs, dropped);
    }
    countDropped(dropped);
    return { spans, logs };
  }

  function keepOrTally<T>(item: T, reason: DropReason | undefined, kept: T[], dropped: DropTally<DropReason>): void {
    if (reason === undefined) kept.push(item);
    else dropped.add(reason);
  }

  function countDropped(dropped: DropTally<DropReason>): void {
    for (const [reason, items] of dropped.counts) metrics.droppedItems.inc({ reason }, items);
  }

  function decodeChunk(chunk: EncodedChunk): { spans: SpanRow[]; logs: LogRow[] } {
    return chunk.signal === 'logs' ? { spans: [], logs: decoder.logs(chunk.value) } : { spans: decoder.spans(chunk.value), logs: [] };
  }

  /**
   * Records from our own ingest say in their headers that they hold one trace's items and how many:
   * those are buffered still encoded. Others (another producer) are decoded at once.
   */
  function encodedChunkOf(record: BusRecord): EncodedChunk | 'skip' | null {
    const signal = record.headers?.[SIGNAL_HEADER] === 'logs' ? 'logs' : 'traces';
    const keyKind = record.headers?.[KEY_HEADER];
    if (keyKind === 'service') return signal === 'logs' ? 'skip' : null; // logs without trace context
    const items = Number(record.headers?.[ITEMS_HEADER]);
    if (keyKind !== 'trace' || !Number.isInteger(items) || items < 0) return null;
    return { signal, items, value: record.value };
  }

  function updateGauges(): void {
    metrics.openTraces.set(buffer.openTraces);
    metrics.bufferedBytes.set(buffer.bufferedBytes);
  }

  function decode(record: BusRecord): { spans: SpanRow[]; logs: LogRow[] } {
    if (record.headers?.[SIGNAL_HEADER] === 'logs') return { spans: [], logs: decoder.logs(record.value, record) };
    return { spans: decoder.spans(record.value, record), logs: [] };
  }

  function count(result: AddResult): void {
    if (result.late > 0) metrics.lateItems.inc(result.late);
    if (result.newPieces > 0) metrics.tracePieces.inc(result.newPieces);
    for (const closed of result.closed) finish(closed);
  }

  /**
   * Buffers a batch and resolves at once, so the bus commits it (see the file comment). Synchronous
   * inside, so the batches of a partition are buffered in delivery order.
   */
  async function handle(records: BusRecord[]): Promise<void> {
    const now = nowMs();
    const nowNs = BigInt(now) * 1_000_000n;
    const dropped = new DropTally<DropReason>();
    for (const record of records) {
      const chunk = encodedChunkOf(record);
      if (chunk === 'skip') continue;
      if (chunk !== null) {
        const result = buffer.addEncoded(record.partition, record.key, chunk, now);
        if (result !== null) {
          count(result);
          continue;
        }
        // Past max_spans: decode so that add() cuts at the exact span.
      }
      const { spans, logs } = decode(record);
      // One record normally holds one trace; group anyway, an export may be keyed otherwise.
      const byTrace = new Map<string, { spans: SpanRow[]; logs: LogRow[] }>();
      const itemsOf = (traceId: string) => {
        let items = byTrace.get(traceId);
        if (items === undefined) byTrace.set(traceId, (items = { spans: [], logs: [] }));
        return items;
      };
      // Items the writer will not store (stamped 0, older than 3 days, past the store's range, or
      // with an invalid id) get no story either: it would point at a trace nobody can open.
      for (const span of spans) {
        const reason = spanDropReason(span, nowNs);
        if (reason === undefined) itemsOf(span.traceId).spans.push(span); else dropped.add(reason);
      }
      for (const log of logs) {
        if (log.traceId === '') continue; // not part of any trace
        const reason = logDropReason(log, nowNs);
        if (reason === undefined) itemsOf(log.traceId).logs.push(log); else dropped.add(reason);
      }
      for (const [traceId, items] of byTrace) {
        count(buffer.add(record.partition, traceId, items.spans, items.logs, now));
      }
    }
    countDropped(dropped);
    updateGauges();
  }

  /** Closes and analyses due traces, yielding now and then so a burst of closes does not stall I/O. */
  async function closeDue(): Promise<void> {
    const due = buffer.closeDue(nowMs());
    let sliceStartMs = performance.now();
    for (const closed of due) {
      finish(closed);
      if (performance.now() - sliceStartMs >= YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStartMs = performance.now();
      }
    }
    outputs.tick();
    updateGauges();
  }

  function tick(): void {
    if (ticking !== undefined) return;
    ticking = closeDue().finally(() => {
      ticking = undefined;
    });
  }

  /** Waits (bounded) until the group has taken everything already on the topic, so close() loses nothing in flight. */
  async function drainTopic(): Promise<void> {
    const deadlineMs = Date.now() + DRAIN_GRACE_MS;
    while (Date.now() < deadlineMs) {
      const offsets = await deps.bus.offsets(ASSEMBLER_GROUP, settings.topic);
      if (offsets.every((p) => p.committed >= p.end)) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    logger.warn('assembler close: the topic was not drained within the grace period; the rest stays uncommitted');
  }

  return {
    async start() {
      // Baselines first, so that the first closed traces are already judged against them.
      await baselines.refresh();
      baselines.start();
      scheduler = setInterval(tick, SCHEDULER_MS);
      scheduler.unref();
      consumer = deps.bus.consume({ group: ASSEMBLER_GROUP, topics: [settings.topic], handler: handle, maxBatchRecords: 500 });
      logger.info({ gapMs: assembler.gap_ms, maxAgeMs: assembler.max_age_ms, baselineRefreshSecs: assembler.baseline_refresh_secs }, 'assembler consuming');
    },
    async close() {
      if (consumer !== undefined) {
        await drainTopic().catch((error: unknown) => logger.warn({ err: error }, 'assembler close: could not read offsets'));
        await consumer.close();
      }
      if (scheduler !== undefined) clearInterval(scheduler);
      await ticking;
      await baselines.stop();
      // Every open trace is analysed now rather than lost: it is as closed as it will get.
      for (const closed of buffer.closeAll()) finish(closed);
      updateGauges();
      await outputs.close();
    },
  };
}
