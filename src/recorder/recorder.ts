/**
 * The metrics recorder: every `record_secs` it writes every component's metrics into metric_samples
 * for the Pipeline page. Components in this process are read from their registries (all-in-one,
 * and the API's own metrics in split mode); `metric_targets` are scraped over HTTP, with an `up`
 * sample per target. Counters and histograms are stored as raw cumulative values; rates and
 * quantiles are computed when read.
 */

import { Registry } from 'prom-client';
import type { MetricTarget } from '../config/settings.js';
import type { Component } from '../model/component.js';
import type { Store } from '../model/store.js';
import { insertMetricSamples, type MetricSampleRow } from '../store/metric-samples.js';
import type { Logger } from '../util/log.js';
import { createRecorderMetrics } from './metrics.js';
import { samplesFromRegistry } from './registry-samples.js';
import type { MetricSample } from './sample.js';
import { instanceOf, scrapeTarget } from './scrape.js';

/** Samples written per tick at most, over all components (about 40 times what svc exposes). */
export const MAX_SAMPLES_PER_TICK = 20_000;
/** A scrape body above this is refused and the target counts as down. */
export const MAX_SCRAPE_BODY_BYTES = 8 * 1024 * 1024;
/** A scrape waits at most this long, and never longer than the interval. */
const MAX_SCRAPE_TIMEOUT_MS = 10_000;
/** Intervals below this work but multiply rows and scrape load; the contract asks for a warning. */
const WARN_BELOW_SECS = 5;
/** `instance` of the components read in this process (they have no URL). */
export const IN_PROCESS_INSTANCE = 'in-process';

export interface RecorderSettings {
  /** Interval; 0 turns the recorder off. */
  record_secs: number;
  metric_targets: readonly MetricTarget[];
}

export interface RecorderDeps {
  store: Store;
  logger: Logger;
  /** Job name (`svc-ingest`, ..., `svc-api`) to the registry of that component in this process. */
  sources: ReadonlyMap<string, Registry>;
  /** Where the recorder's own metrics go (the API's registry); a private one when absent. */
  registry?: Registry;
  nowMs?: () => number;
}

export interface TickResult {
  written: number;
  dropped: number;
  /** Jobs and instances of targets that could not be scraped this tick. */
  down: { job: string; instance: string }[];
}

export interface Recorder extends Component {
  /** One recording pass (the timer calls it; tests call it directly). Never rejects. */
  recordOnce(): Promise<TickResult>;
}

interface Gathered {
  job: string;
  instance: string;
  samples: MetricSample[];
  dropped: number;
}

/** Creates the recorder; `start` arms the interval. */
export function createRecorder(settings: RecorderSettings, deps: RecorderDeps): Recorder {
  const logger = deps.logger.child({ component: 'recorder' });
  const metrics = createRecorderMetrics(deps.registry ?? new Registry());
  const nowMs = deps.nowMs ?? Date.now;
  const intervalMs = settings.record_secs * 1000;
  const scrapeLimits = {
    timeoutMs: Math.max(1000, Math.min(MAX_SCRAPE_TIMEOUT_MS, intervalMs)),
    maxBodyBytes: MAX_SCRAPE_BODY_BYTES,
    maxSamples: MAX_SAMPLES_PER_TICK,
  };
  const targets = settings.metric_targets.map((target) => ({ ...target, instance: instanceOf(target.url) }));
  // Logged on a change only, so a target down for a day writes two lines, not 5,760.
  const downTargets = new Set<string>();
  const warnedMalformed = new Set<string>();
  const failingSources = new Set<string>();
  let warnedDropped = false;
  let storeFailing = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<TickResult> | undefined;

  async function readSource(job: string, registry: Registry): Promise<Gathered | undefined> {
    try {
      const read = await samplesFromRegistry(registry, MAX_SAMPLES_PER_TICK);
      failingSources.delete(job);
      return { job, instance: IN_PROCESS_INSTANCE, samples: read.samples, dropped: read.droppedSamples };
    } catch (error) {
      // A collect callback that throws costs that component one tick, not the others.
      if (!failingSources.has(job)) logger.warn({ job, err: error }, 'component metrics could not be read');
      failingSources.add(job);
      return undefined;
    }
  }

  async function readTarget(target: (typeof targets)[number]): Promise<Gathered | undefined> {
    const key = `${target.job} ${target.instance}`;
    try {
      const parsed = await scrapeTarget(target.url, scrapeLimits);
      if (downTargets.delete(key)) logger.info({ job: target.job, instance: target.instance }, 'metric target is back up');
      if (parsed.malformedLines > 0 && !warnedMalformed.has(key)) {
        warnedMalformed.add(key);
        logger.warn(
          { job: target.job, instance: target.instance, lines: parsed.malformedLines },
          'metric target sent lines that are not Prometheus text; they are skipped',
        );
      }
      return { job: target.job, instance: target.instance, samples: parsed.samples, dropped: parsed.droppedSamples };
    } catch (error) {
      metrics.scrapeFailures.inc({ job: target.job });
      // The URL is configuration the operator wrote; the instance names it without its path.
      if (!downTargets.has(key)) logger.warn({ job: target.job, instance: target.instance, err: error }, 'metric target could not be scraped; recording up 0');
      downTargets.add(key);
      return undefined;
    }
  }

  async function tick(): Promise<TickResult> {
    const tsMs = Math.floor(nowMs());
    const sourceReads = [...deps.sources].map(([job, registry]) => readSource(job, registry));
    const targetReads = targets.map((target) => readTarget(target));
    const [fromSources, fromTargets] = await Promise.all([Promise.all(sourceReads), Promise.all(targetReads)]);

    const rows: MetricSampleRow[] = [];
    const down: TickResult['down'] = [];
    // `up` first: it must survive the per-tick bound.
    for (const [job] of deps.sources) rows.push({ tsMs, job, instance: IN_PROCESS_INSTANCE, metric: 'up', labels: {}, value: 1 });
    targets.forEach((target, i) => {
      const ok = fromTargets[i] !== undefined;
      if (!ok) down.push({ job: target.job, instance: target.instance });
      rows.push({ tsMs, job: target.job, instance: target.instance, metric: 'up', labels: {}, value: ok ? 1 : 0 });
    });
    let dropped = 0;
    for (const gathered of [...fromSources, ...fromTargets]) {
      if (gathered === undefined) continue;
      dropped += gathered.dropped;
      for (const sample of gathered.samples) {
        if (rows.length >= MAX_SAMPLES_PER_TICK) {
          dropped++;
          continue;
        }
        rows.push({ tsMs, job: gathered.job, instance: gathered.instance, metric: sample.metric, labels: sample.labels, value: sample.value });
      }
    }
    if (dropped > 0) {
      metrics.droppedSamples.inc(dropped);
      if (!warnedDropped) {
        warnedDropped = true;
        logger.warn(
          { dropped, max_samples_per_tick: MAX_SAMPLES_PER_TICK },
          'more metric samples than one tick may write; the rest are dropped (counted in svc_api_recorder_dropped_samples_total)',
        );
      }
    }

    try {
      await insertMetricSamples(deps.store, rows);
      metrics.samples.inc(rows.length);
      if (storeFailing) logger.info('metric samples are being written again');
      storeFailing = false;
      return { written: rows.length, dropped, down };
    } catch (error) {
      metrics.writeFailures.inc();
      metrics.droppedSamples.inc(rows.length);
      if (!storeFailing) logger.warn({ err: error, samples: rows.length }, 'metric samples could not be written; this tick is lost');
      storeFailing = true;
      return { written: 0, dropped: dropped + rows.length, down };
    }
  }

  function recordOnce(): Promise<TickResult> {
    // One pass at a time: a slow store or target delays the next pass instead of piling them up.
    if (inFlight !== undefined) return inFlight;
    const pass = tick()
      .catch((error: unknown): TickResult => {
        logger.error({ err: error }, 'metrics recording pass failed');
        return { written: 0, dropped: 0, down: [] };
      })
      .finally(() => {
        inFlight = undefined;
      });
    inFlight = pass;
    return pass;
  }

  return {
    recordOnce,
    async start() {
      if (intervalMs <= 0) {
        logger.info('metrics recorder off (record_secs = 0)');
        return;
      }
      if (settings.record_secs < WARN_BELOW_SECS) {
        logger.warn(
          { record_secs: settings.record_secs },
          `record_secs below ${WARN_BELOW_SECS} records every component very often: more rows and more scrape load`,
        );
      }
      logger.info({ record_secs: settings.record_secs, jobs: [...deps.sources.keys()], targets: targets.length }, 'metrics recorder started');
      timer = setInterval(() => void recordOnce(), intervalMs);
      // The servers keep the process alive; the recorder alone must not.
      timer.unref();
      // A first pass now gives every series a starting value, so the first interval's increases count.
      void recordOnce();
    },
    async close() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      if (inFlight !== undefined) await inFlight;
    },
  };
}
