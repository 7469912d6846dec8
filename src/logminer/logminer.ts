/**
 * The logminer: mines the logs topic into templates per service, stores templates and hits,
 * and every `detect_secs` raises new / spike / silence alerts for the services it owns, stores
 * them and publishes them to the alerts topic.
 *
 * Commit timing: a bus batch resolves (and is committed) only once the hits and templates of its
 * logs are stored, so a crash re-mines what was not stored rather than losing it.
 */
import type { Registry } from 'prom-client';
import type { LogminerSettings } from '../config/settings.js';
import { minuteOf, type LogAlert } from '../mining/alert-types.js';
import { maskLine, MASKING_VERSION } from '../mining/masking.js';
import type { MineRecord } from '../mining/remine.js';
import { overflowTemplateId } from '../mining/template-id.js';
import { SIGNAL_HEADER, type Bus, type BusConsumer, type BusRecord } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { LogRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { RecordDecoder } from '../otlp/record-decoder.js';
import type { TemplateRow } from '../store/templates.js';
import type { Logger } from '../util/log.js';
import { createLogOnce } from '../util/log-once.js';
import { createVersionClock } from '../util/version-clock.js';
import { DropTally } from '../otlp/item-validity.js';
import { logDropReason, type DropReason } from '../store/drop-reason.js';
import { AlertOutput } from './alert-output.js';
import { runDetection } from './detection.js';
import { Flusher } from './flusher.js';
import { LiveState, type LiveTemplate } from './live-state.js';
import { createLogminerMetrics } from './metrics.js';
import { createMiningEngine } from './mining-engine.js';
import { restoreLogminer } from './restore.js';

export const LOGMINER_GROUP = 'svc-logminer';
/** Minute slack kept in memory beyond the spike window and its baseline. */
const SLACK_MINUTES = 2;

export interface LogminerDeps {
  bus: Bus;
  store: Store;
  registry: Registry;
  logger: Logger;
  nowMs?: () => number;
}

export interface Logminer extends Component {
  /** Runs a detection pass now (after storing what is mined), instead of waiting for the timer (tests). */
  detectNow(): Promise<void>;
}

export function createLogminer(settings: { logminer: LogminerSettings; logsTopic: string }, deps: LogminerDeps): Logminer {
  const s = settings.logminer;
  const logger = deps.logger.child({ component: 'logminer' });
  const nowMs = deps.nowMs ?? Date.now;
  const metrics = createLogminerMetrics(deps.registry, {
    // Read at scrape time, so the lag keeps growing while no logs arrive.
    dataLagSecs: () => (state.newestLogNs === null ? 0 : Math.max(0, (nowMs() - Number(state.newestLogNs / 1_000_000n)) / 1000)),
  });
  const keepMinutes = s.spike_window_min + s.baseline_window_min + SLACK_MINUTES;
  const state = new LiveState(keepMinutes, s.ownership_window_min * 60_000);
  const engine = createMiningEngine(s);
  const output = new AlertOutput({
    store: deps.store,
    bus: deps.bus,
    alertsTopic: s.alerts_topic,
    activeWindowMs: s.alert_active_min * 60_000,
    nowMs,
    onPublished: (n) => metrics.published.inc(n),
    onPublishFailure: (error) => {
      metrics.publishFailures.inc();
      logOnce('publish', () => logger.warn({ err: error }, 'alert publish failed; stored alerts are republished after a later pass (logged once)'));
    },
  });
  /** Creation order of templates across restarts: this process's start, then a counter. */
  const seqBase = BigInt(nowMs()) * 1_000_000n;
  let seqNext = 0n;
  /** Template versions strictly increase: two flushes in one millisecond must not tie. */
  const templateVersionMs = createVersionClock(nowMs);
  let epochStartMs: number | null = null;
  let previousSpikes = new Map<string, LogAlert>();
  let prevDataClockNs: bigint | null = null;
  let consumer: BusConsumer | undefined;
  let timer: NodeJS.Timeout | undefined;
  let detecting: Promise<void> | undefined;
  let mining: Promise<unknown> = Promise.resolve();
  const logOnce = createLogOnce();

  const flusher = new Flusher({
    store: deps.store,
    maxBatch: s.max_batch,
    flushMs: s.flush_ms,
    templateRows: (ids) => {
      const rows: TemplateRow[] = [];
      const updatedAtMs = templateVersionMs();
      for (const id of ids) {
        const t = state.templates.get(id);
        if (t !== undefined) rows.push(templateRow(t, updatedAtMs));
      }
      return rows;
    },
    onFailure: (error, attempt) => {
      metrics.flushFailures.inc();
      if (attempt === 1) logger.error({ err: error }, 'storing templates and hits failed; retrying with backoff');
    },
  });

  const decoder = new RecordDecoder({ logger, countBad: () => metrics.dropped.inc({ reason: 'bad_record' }), counterName: 'svc_logminer_dropped_items_total' });

  function decode(record: BusRecord): LogRow[] {
    const signal = record.headers?.[SIGNAL_HEADER];
    if (signal !== undefined && signal !== 'logs') return [];
    return decoder.logs(record.value, record);
  }

  /** Mines the batch's logs (in order, one batch at a time) and queues their rows. */
  async function mineLogs(logs: LogRow[]): Promise<void> {
    if (logs.length === 0) return;
    const records: MineRecord[] = logs.map((log) => ({ service: log.serviceName, line: log.body, timeMs: Number(log.tsNs / 1_000_000n), severity: log.severityNumber }));
    const mined = await engine.mine(records);
    const wallMs = nowMs();
    for (let i = 0; i < logs.length; i++) {
      const log = logs[i];
      const { templateId, template } = mined[i];
      let t = state.templates.get(templateId);
      if (t === undefined) {
        const overflow = templateId === overflowTemplateId(log.serviceName);
        t = {
          templateId,
          service: log.serviceName,
          template,
          count: 0,
          firstSeenNs: log.tsNs,
          lastSeenNs: log.tsNs,
          maxSeverity: 0,
          // The first line of a new template is the one that created it: its masked tokens are the signature.
          sample: log.body,
          signature: overflow ? template : maskLine(log.body, { keepHttpStatus: engine.options.keepHttpStatus }).tokens.join(' '),
          overflow,
          createdSeq: seqBase + seqNext++,
        };
        state.templates.set(templateId, t);
      }
      t.template = template;
      t.count++;
      if (log.tsNs < t.firstSeenNs) t.firstSeenNs = log.tsNs;
      if (log.tsNs > t.lastSeenNs) t.lastSeenNs = log.tsNs;
      if (log.severityNumber > t.maxSeverity) t.maxSeverity = log.severityNumber;
      const minute = minuteOf(log.tsNs);
      state.addMinuteHits(templateId, log.serviceName, minute, 1, wallMs);
      state.advanceClock(log.serviceName, log.tsNs);
      state.markMined(log.serviceName, wallMs);
      flusher.addHit({ tsNs: log.tsNs, templateId, service: log.serviceName, logId: log.logId, traceId: log.traceId, spanId: log.spanId, severityNumber: log.severityNumber }, minute);
    }
    metrics.logsMined.inc(logs.length);
    metrics.templates.set(state.templates.size);
  }

  async function handle(records: BusRecord[]): Promise<void> {
    const nowNs = BigInt(nowMs()) * 1_000_000n;
    const logs: LogRow[] = [];
    const dropped = new DropTally<DropReason>();
    for (const record of records) {
      for (const log of decode(record)) {
        // Hits of logs the writer does not store would point at nothing (and expire at once).
        const reason = logDropReason(log, nowNs);
        if (reason === undefined) logs.push(log);
        else dropped.add(reason);
      }
    }
    for (const [reason, items] of dropped.counts) metrics.dropped.inc({ reason }, items);
    // Mining is serialized: per-service order decides templates and ids.
    const mined = mining.then(() => mineLogs(logs));
    mining = mined.catch(() => undefined);
    await mined;
    await flusher.commitPoint();
  }

  async function detect(): Promise<void> {
    const wallMs = nowMs();
    await flusher.flushNow();
    state.prune(wallMs);
    pruneSpikes(wallMs);
    const pass = await runDetection({ store: deps.store, state, settings: s, epochStartMs, previousSpikes }, wallMs, prevDataClockNs);
    if (pass.dataClockNs !== null) prevDataClockNs = pass.dataClockNs;
    if (pass.spikeWindowsSkipped > 0) metrics.spikeSkipped.inc({ reason: 'coverage' }, pass.spikeWindowsSkipped);
    for (const alert of pass.alerts) metrics.alerts.inc({ kind: alert.kind });
    await output.emit(pass.alerts);
    await output.republish();
    metrics.detectPasses.inc();
  }

  function pruneSpikes(wallMs: number): void {
    const oldestNs = BigInt(wallMs - keepMinutes * 60_000) * 1_000_000n;
    for (const [id, alert] of previousSpikes) if (alert.last_at_ns < oldestNs) previousSpikes.delete(id);
  }

  function tick(): Promise<void> {
    if (detecting !== undefined) return detecting;
    detecting = detect()
      .catch((error: unknown) => {
        metrics.detectFailures.inc();
        logger.error({ err: error }, 'detection pass failed; the next pass tries again');
      })
      .finally(() => {
        detecting = undefined;
      });
    return detecting;
  }

  return {
    async start() {
      const restored = await restoreLogminer({ store: deps.store, engine, state, nowMs: nowMs(), keepHttpStatus: s.keep_http_status, keepMinutes });
      epochStartMs = restored.epochStartMs;
      previousSpikes = restored.previousSpikes;
      metrics.templates.set(state.templates.size);
      consumer = deps.bus.consume({ group: LOGMINER_GROUP, topics: [settings.logsTopic], handler: handle, maxInFlightBatches: 16, maxBatchRecords: 200 });
      timer = setInterval(() => void tick(), s.detect_secs * 1000);
      timer.unref();
      logger.info(
        { maskingVersion: MASKING_VERSION, newEpoch: restored.newEpoch, epochStartMs, restoredTemplates: restored.restoredTemplates, fingerprinter: s.fingerprinter, detectSecs: s.detect_secs },
        restored.newEpoch ? 'logminer consuming; masking changed: new masking epoch, no new-template alerts for 15 minutes' : 'logminer consuming',
      );
    },
    async detectNow() {
      await detecting;
      await tick();
    },
    async close() {
      if (timer !== undefined) clearInterval(timer);
      await consumer?.close();
      await mining;
      await detecting;
      await flusher.close();
      await engine.close();
    },
  };
}

function templateRow(t: LiveTemplate, updatedAtMs: number): TemplateRow {
  return {
    templateId: t.templateId,
    service: t.service,
    template: t.template,
    count: t.count,
    firstSeenNs: t.firstSeenNs,
    lastSeenNs: t.lastSeenNs,
    maxSeverity: t.maxSeverity,
    sample: t.sample,
    maskingVersion: MASKING_VERSION,
    signature: t.signature,
    overflow: t.overflow,
    createdSeq: t.createdSeq,
    updatedAtMs,
  };
}
