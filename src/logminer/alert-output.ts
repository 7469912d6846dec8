/**
 * Where detected alerts go: stored in log_alerts (a new version per change), published to the
 * alerts topic keyed by alert_id, then stored again as published. After each pass, alerts of the
 * last 24 h stored but never published are republished: at most 1,000, oldest first, stopping at
 * the first failed send.
 */
import { isAlertActive } from '../mining/alert-status.js';
import type { LogAlert as MinedAlert } from '../mining/alert-types.js';
import type { Bus } from '../model/bus.js';
import type { Store } from '../model/store.js';
import { oldestAllowedNs } from '../store/lifetimes.js';
import { insertAlertVersions, readUnpublishedAlerts, storedToMined } from '../store/log-alerts.js';
import { readExampleTraceIds } from '../store/template-hits.js';
import { toLogAlert, tracesWithStories } from '../store/reads/log-alert-shape.js';
import { stringifyJson } from '../util/json.js';
import { createVersionClock } from '../util/version-clock.js';
import { alertForApi } from './alert-json.js';

/** Contract: republish covers the last 24 h, at most 1,000 alerts per pass. */
export const REPUBLISH_WINDOW_MS = 86_400_000;
export const REPUBLISH_MAX = 1_000;
/** Example traces kept per alert (the webhook links at most 3 of them). */
export const EXAMPLE_TRACES = 5;
/** Alert versions remembered to skip rewriting an unchanged alert every tick. */
const REMEMBERED_ALERTS = 10_000;

export interface AlertOutputDeps {
  store: Store;
  bus: Bus;
  alertsTopic: string;
  /** `alert_active_min` in ms: the published records' `active` flag. */
  activeWindowMs: number;
  nowMs: () => number;
  onPublished(count: number): void;
  onPublishFailure(error: unknown): void;
}

export class AlertOutput {
  private readonly written = new Map<string, string>();
  /** A strictly increasing version clock: two versions written in one millisecond must not tie. */
  private readonly version: () => number;

  constructor(private readonly deps: AlertOutputDeps) {
    this.version = createVersionClock(deps.nowMs);
  }

  /** Fills example traces, stores, publishes and marks published the alerts that changed. */
  async emit(alerts: readonly MinedAlert[]): Promise<MinedAlert[]> {
    const changed = alerts.filter((a) => this.written.get(a.alert_id) !== fingerprintOf(a));
    if (changed.length === 0) return [];
    const { store } = this.deps;
    const nowMs = this.deps.nowMs();
    const filled: MinedAlert[] = [];
    for (const alert of changed) {
      const [fromNs, toNs] = exampleRange(alert, nowMs);
      const traceIds = await readExampleTraceIds(store, { service: alert.service, templateId: alert.template_id }, fromNs, toNs, EXAMPLE_TRACES);
      filled.push({ ...alert, example_traces: traceIds.map((traceId) => ({ trace_id: traceId, story_id: null })) });
    }
    await insertAlertVersions(
      store,
      filled.map((alert) => ({ alert, published: false, updatedAtMs: this.version() })),
    );
    for (const alert of changed) this.remember(alert);
    const withStories = await tracesWithStories(
      store,
      [...new Set(filled.flatMap((a) => a.example_traces.map((t) => t.trace_id)))],
      oldestAllowedNs('stories', nowMs),
      {},
    );
    const messages = filled.map((alert) => ({
      key: alert.alert_id,
      value: Buffer.from(stringifyJson(alertForApi(alert, nowMs, withStories, this.deps.activeWindowMs))),
    }));
    try {
      await this.deps.bus.publish(this.deps.alertsTopic, messages);
    } catch (error) {
      // Stored unpublished: the republish pass sends them once the topic takes records again.
      this.deps.onPublishFailure(error);
      return filled;
    }
    this.deps.onPublished(messages.length);
    await insertAlertVersions(
      store,
      filled.map((alert) => ({ alert, published: true, updatedAtMs: this.version() })),
    );
    return filled;
  }

  /** Republishes stored-but-unpublished alerts of the last 24 h; returns how many were sent. */
  async republish(): Promise<number> {
    const { store } = this.deps;
    const nowMs = this.deps.nowMs();
    const rows = await readUnpublishedAlerts(store, BigInt(nowMs - REPUBLISH_WINDOW_MS) * 1_000_000n, REPUBLISH_MAX);
    if (rows.length === 0) return 0;
    const withStories = await tracesWithStories(store, [...new Set(rows.flatMap((r) => r.a_example_trace_ids))], oldestAllowedNs('stories', nowMs), {});
    const sent: MinedAlert[] = [];
    for (const row of rows) {
      try {
        const shaped = toLogAlert(row, nowMs, withStories);
        shaped.active = isAlertActive(shaped, BigInt(nowMs) * 1_000_000n, BigInt(this.deps.activeWindowMs) * 1_000_000n);
        await this.deps.bus.publish(this.deps.alertsTopic, [{ key: row.alert_id, value: Buffer.from(stringifyJson(shaped)) }]);
      } catch (error) {
        this.deps.onPublishFailure(error);
        break;
      }
      sent.push(storedToMined(row));
    }
    if (sent.length > 0) {
      this.deps.onPublished(sent.length);
      await insertAlertVersions(
        store,
        sent.map((alert) => ({ alert, published: true, updatedAtMs: this.version() })),
      );
    }
    return sent.length;
  }

  private remember(alert: MinedAlert): void {
    this.written.delete(alert.alert_id);
    this.written.set(alert.alert_id, fingerprintOf(alert));
    // Oldest first out (Map keeps insertion order); a forgotten alert is at worst rewritten once.
    while (this.written.size > REMEMBERED_ALERTS) this.written.delete(this.written.keys().next().value as string);
  }
}

/** What makes a new version worth writing: the fields that change while an alert lasts. */
function fingerprintOf(a: MinedAlert): string {
  return `${a.last_at_ns}|${a.started_at_ns}|${a.window_count}|${a.peak_count}|${a.baseline_per_window}|${a.template}`;
}

/** Hits whose traces illustrate an alert: its span, or for a silence the last hits before it. */
function exampleRange(alert: MinedAlert, nowMs: number): [bigint, bigint] {
  const oldestNs = oldestAllowedNs('template_hits', nowMs);
  if (alert.kind === 'silence') return [oldestNs, alert.started_at_ns];
  const fromNs = alert.started_at_ns > oldestNs ? alert.started_at_ns : oldestNs;
  return [fromNs, alert.last_at_ns];
}
