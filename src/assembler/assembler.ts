/**
 * The assembler: groups spans and logs of the signals topic by trace, closes traces (trace-buffer.ts),
 * analyses each closed trace against its endpoint's baseline, and writes trace summaries, stories and
 * service edges, publishing each story to the stories topic.
 *
 * Commit timing: a bus batch is committed as soon as its items are buffered, not when their traces
 * close. Holding the commit until close would pin up to max_age_ms (60 s) of the whole signals
 * stream in the bus (the embedded bus of all-in-one is bounded and keeps a record until every
 * group commits it, so ingest would push back on clients for a derived output). The price: a crash
 * loses the stories of the traces open at that moment. Raw spans and logs are unaffected: the writer
 * stores them under its own group and commits only what is stored.
 */
import { performance } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import type { AssemblerSettings, ThresholdSettings } from '../config/settings.js';
import type { Bus, BusConsumer, BusRecord } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { Store } from '../model/store.js';
import { RecordDecoder } from '../otlp/record-decoder.js';
import { readBaselineSamples } from '../store/baseline-samples.js';
import type { Logger } from '../util/log.js';
import { Baselines } from './baselines.js';
import { Intake } from './intake.js';
import { createAssemblerMetrics } from './metrics.js';
import { AssemblerOutputs } from './outputs.js';
import { TraceBuffer } from './trace-buffer.js';
import { TraceFinisher } from './trace-finisher.js';

export const ASSEMBLER_GROUP = 'svc-assembler';
/** How often due traces are looked for: well below any sensible gap_ms. */
const SCHEDULER_MS = 100;
/**
 * Analysis is synchronous; yield to the event loop after this long so I/O keeps flowing. Short,
 * because an export arriving meanwhile waits for the slice: under one exporter (one export in
 * flight, a cycle of ~25 ms) closing ~600 traces a tick took 20 ms slices, several a second.
 */
const YIELD_AFTER_MS = 4;
/** On close, how long to wait for the rest of the topic to reach the buffer (embedded bus). */
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
  const decoder = new RecordDecoder({
    logger,
    countBad: () => metrics.droppedItems.inc({ reason: 'bad_record' }),
    counterName: 'svc_assembler_dropped_items_total',
    logIds: false,
  });
  const finisher = new TraceFinisher({
    decoder,
    baselines,
    outputs,
    thresholds: settings.thresholds,
    maxBufferBytes: assembler.max_buffer_bytes,
    metrics,
    logger,
    nowMs,
  });
  const intake = new Intake({ buffer, decoder, finisher, metrics });
  let consumer: BusConsumer | undefined;
  let scheduler: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;

  function updateGauges(): void {
    metrics.openTraces.set(buffer.openTraces);
    metrics.bufferedBytes.set(buffer.bufferedBytes);
  }

  /**
   * Buffers a batch and resolves at once, so the bus commits it (see the file comment). Synchronous
   * inside, so the batches of a partition are buffered in delivery order.
   */
  async function handle(records: BusRecord[]): Promise<void> {
    intake.add(records, nowMs());
    updateGauges();
  }

  /** Closes and analyses due traces, yielding now and then so a burst of closes does not stall I/O. */
  async function closeDue(): Promise<void> {
    const due = buffer.closeDue(nowMs());
    let sliceStartMs = performance.now();
    for (const closed of due) {
      finisher.finish(closed);
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
      for (const closed of buffer.closeAll()) finisher.finish(closed);
      updateGauges();
      await outputs.close();
    },
  };
}
