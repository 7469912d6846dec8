/**
 * One detection pass: builds the pure detector's input from memory (templates, recent minute
 * counts, coverage, log clocks) and storage (silence settings; for `seasonal`, the same window a
 * day and a week back), runs detectAlerts over the services this replica owns, and hands the
 * alerts on.
 */
import type { LogminerSettings } from '../config/settings.js';
import { detectAlerts, type DetectResult } from '../mining/alert-detect.js';
import { NS_PER_MINUTE, type LogAlert, type TemplateState } from '../mining/alert-types.js';
import type { Store } from '../model/store.js';
import { readSilences } from '../store/silence.js';
import { readCoverage, readTemplateMinuteCounts } from '../store/template-minutes.js';
import type { LiveState } from './live-state.js';
import { MINUTES_PER_DAY } from '../util/time-units.js';

const SEASONAL_OFFSETS_MIN = [MINUTES_PER_DAY, 7 * MINUTES_PER_DAY];

export interface DetectionContext {
  store: Store;
  state: LiveState;
  settings: LogminerSettings;
  /** Masking epoch start, Unix ms, or null. */
  epochStartMs: number | null;
  /** Latest spike per template, carried between passes. */
  previousSpikes: Map<string, LogAlert>;
}

export interface DetectionPass extends DetectResult {
  /** This pass's data clock, the next pass's `prevDataClockNs`; null when no owned service logged yet. */
  dataClockNs: bigint | null;
}

/** Runs one pass at wall time `wallMs`; `prevDataClockNs` is the previous pass's data clock. */
export async function runDetection(ctx: DetectionContext, wallMs: number, prevDataClockNs: bigint | null): Promise<DetectionPass> {
  const { state, settings } = ctx;
  const owned = state.ownedServices(wallMs);
  let dataClockNs: bigint | null = null;
  const serviceLogClockNs = new Map<string, bigint>();
  for (const service of owned) {
    const clock = state.serviceClockNs.get(service);
    if (clock === undefined) continue;
    serviceLogClockNs.set(service, clock);
    if (dataClockNs === null || clock > dataClockNs) dataClockNs = clock;
  }
  if (dataClockNs === null) return { alerts: [], spikeWindowsSkipped: 0, dataClockNs: null };
  let templates = state.templateStates(owned);
  const coverage = state.coverageOf(owned);
  const wallNs = BigInt(Math.floor(wallMs)) * 1_000_000n;
  if (settings.baseline_mode === 'seasonal') templates = await addSeasonalHistory(ctx.store, templates, coverage, wallNs, settings);
  const silences = await readSilences(ctx.store);
  const result = detectAlerts({
    templates,
    wallClockNs: wallNs,
    dataClockNs,
    prevDataClockNs,
    maskingEpochStartNs: ctx.epochStartMs === null ? null : BigInt(ctx.epochStartMs) * 1_000_000n,
    coverage,
    previousSpikes: ctx.previousSpikes,
    silences,
    serviceLogClockNs,
    settings,
  });
  for (const alert of result.alerts) if (alert.kind === 'spike') ctx.previousSpikes.set(alert.template_id, alert);
  return { ...result, dataClockNs };
}

/**
 * Seasonal mode compares a spike candidate with the same window a day and a week earlier, which
 * memory does not hold: those minutes (counts and coverage) are read for the candidates only.
 */
async function addSeasonalHistory(
  store: Store,
  templates: TemplateState[],
  coverage: Map<string, Set<number>>,
  wallNs: bigint,
  settings: LogminerSettings,
): Promise<TemplateState[]> {
  const windowEndMin = Number(wallNs / NS_PER_MINUTE);
  const windowStartMin = windowEndMin - settings.spike_window_min;
  const candidates = templates.filter((t) => {
    let n = 0;
    for (let m = windowStartMin; m < windowEndMin; m++) n += t.minuteCounts.get(m) ?? 0;
    return n >= settings.spike_min_count;
  });
  if (candidates.length === 0) return templates;
  const ids = candidates.map((t) => t.templateId);
  const services = [...new Set(candidates.map((t) => t.service))];
  const extra = new Map<string, Map<number, number>>();
  for (const offset of SEASONAL_OFFSETS_MIN) {
    const from = windowStartMin - offset;
    const to = windowEndMin - offset;
    for (const row of await readTemplateMinuteCounts(store, ids, from, to)) {
      let counts = extra.get(row.templateId);
      if (counts === undefined) extra.set(row.templateId, (counts = new Map()));
      counts.set(row.minute, row.hits);
    }
    for (const [service, minutes] of await readCoverage(store, services, from, to)) {
      let covered = coverage.get(service);
      if (covered === undefined) coverage.set(service, (covered = new Set()));
      for (const m of minutes) covered.add(m);
    }
  }
  return templates.map((t) => {
    const more = extra.get(t.templateId);
    if (more === undefined) return t;
    const merged = new Map(t.minuteCounts);
    for (const [m, n] of more) merged.set(m, n);
    return { ...t, minuteCounts: merged };
  });
}
