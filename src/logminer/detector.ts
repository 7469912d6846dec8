/**
 * The logminer's detection passes: every `detect_secs`, store what is mined, prune the live state,
 * raise new / spike / silence alerts for the owned services, store and publish them. One pass at a
 * time; a failed pass is counted and the next one tries again.
 */

import type { LogminerSettings } from '../config/settings.js';
import type { LogAlert } from '../mining/alert-types.js';
import type { Store } from '../model/store.js';
import type { Logger } from '../util/log.js';
import type { AlertOutput } from './alert-output.js';
import { runDetection } from './detection.js';
import type { Flusher } from './flusher.js';
import type { LiveState } from './live-state.js';
import type { LogminerMetrics } from './metrics.js';

export interface DetectorDeps {
  store: Store;
  state: LiveState;
  flusher: Flusher;
  output: AlertOutput;
  metrics: LogminerMetrics;
  logger: Logger;
  nowMs: () => number;
  /** Minutes of hits kept in memory: spikes older than this are forgotten. */
  keepMinutes: number;
}

export interface Detector {
  /** What a start restored: the masking epoch's start and the spikes still open. */
  resume(restored: { epochStartMs: number | null; previousSpikes: Map<string, LogAlert> }): void;
  /** Runs passes every `detect_secs` (never keeping the process alive). */
  start(): void;
  /** Runs a pass now, or joins the one running. */
  tick(): Promise<void>;
  /** Stops the timer at once; the promise settles when a running pass has ended. */
  stop(): Promise<void>;
}

export function createDetector(settings: LogminerSettings, deps: DetectorDeps): Detector {
  const { state, flusher, output, metrics } = deps;
  let epochStartMs: number | null = null;
  let previousSpikes = new Map<string, LogAlert>();
  let prevDataClockNs: bigint | null = null;
  let timer: NodeJS.Timeout | undefined;
  let detecting: Promise<void> | undefined;

  function pruneSpikes(wallMs: number): void {
    const oldestNs = BigInt(wallMs - deps.keepMinutes * 60_000) * 1_000_000n;
    for (const [id, alert] of previousSpikes) if (alert.last_at_ns < oldestNs) previousSpikes.delete(id);
  }

  async function detect(): Promise<void> {
    const wallMs = deps.nowMs();
    await flusher.flushNow();
    state.prune(wallMs);
    pruneSpikes(wallMs);
    const pass = await runDetection({ store: deps.store, state, settings, epochStartMs, previousSpikes }, wallMs, prevDataClockNs);
    if (pass.dataClockNs !== null) prevDataClockNs = pass.dataClockNs;
    if (pass.spikeWindowsSkipped > 0) metrics.spikeSkipped.inc({ reason: 'coverage' }, pass.spikeWindowsSkipped);
    for (const alert of pass.alerts) metrics.alerts.inc({ kind: alert.kind });
    await output.emit(pass.alerts);
    await output.republish();
    metrics.detectPasses.inc();
  }

  function tick(): Promise<void> {
    if (detecting !== undefined) return detecting;
    detecting = detect()
      .catch((error: unknown) => {
        metrics.detectFailures.inc();
        deps.logger.error({ err: error }, 'detection pass failed; the next pass tries again');
      })
      .finally(() => {
        detecting = undefined;
      });
    return detecting;
  }

  return {
    resume(restored) {
      epochStartMs = restored.epochStartMs;
      previousSpikes = restored.previousSpikes;
    },
    start() {
      timer = setInterval(() => void tick(), settings.detect_secs * 1000);
      timer.unref();
    },
    async tick() {
      await detecting;
      await tick();
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      return Promise.resolve(detecting);
    },
  };
}
