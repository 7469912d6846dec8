/** The part of a log alert the notifier needs, read from an `svc.alerts` record or a stored alert. */

import type { AlertKind } from '../config/settings.js';
import type { LogAlert } from '../mining/alert-types.js';
import { storedToMined } from '../store/log-alerts.js';
import type { StoredAlert } from '../store/reads/log-alert-shape.js';
import { parseJsonExact } from '../util/json.js';

/** The contract's Log alert, less what delivery does not use, with the example traces' ids only. */
export type NotifierAlert = Omit<LogAlert, 'example_traces' | 'baseline_day' | 'baseline_week'> & { example_trace_ids: string[] };

const KINDS: readonly string[] = ['new', 'spike', 'silence'];

/** Parses a record value (the API's Log alert JSON); returns a short reason instead of throwing. */
export function parseAlertRecord(value: Buffer | string): { ok: true; alert: NotifierAlert } | { ok: false; reason: string } {
  let parsed: unknown;
  try {
    parsed = parseJsonExact(typeof value === 'string' ? value : value.toString('utf8'));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, reason: 'not an object' };
  const o = parsed as Record<string, unknown>;
  for (const field of ['alert_id', 'service', 'template'] as const) {
    if (typeof o[field] !== 'string') return { ok: false, reason: `${field} is not a string` };
  }
  if (typeof o.kind !== 'string' || !KINDS.includes(o.kind)) return { ok: false, reason: 'kind is not new, spike or silence' };
  // The contract types template_id as a string; a u64 written as a bare number is read exactly too.
  const templateId = typeof o.template_id === 'string' ? o.template_id : isInteger(o.template_id) ? String(o.template_id) : undefined;
  if (templateId === undefined) return { ok: false, reason: 'template_id is not a string' };
  const startedAtNs = toBigInt(o.started_at_ns);
  const lastAtNs = toBigInt(o.last_at_ns);
  if (startedAtNs === undefined || lastAtNs === undefined) return { ok: false, reason: 'started_at_ns or last_at_ns is not an integer' };
  const windowCount = toCount(o.window_count);
  const peakCount = toCount(o.peak_count);
  if (windowCount === undefined || peakCount === undefined) return { ok: false, reason: 'window_count or peak_count is not an integer' };
  const baseline =
    typeof o.baseline_per_window === 'number' ? o.baseline_per_window : typeof o.baseline_per_window === 'bigint' ? Number(o.baseline_per_window) : undefined;
  if (baseline === undefined) return { ok: false, reason: 'baseline_per_window is not a number' };
  const examples = Array.isArray(o.example_traces) ? o.example_traces : [];
  const traceIds: string[] = [];
  for (const example of examples) {
    const traceId = typeof example === 'object' && example !== null ? (example as Record<string, unknown>).trace_id : undefined;
    if (typeof traceId === 'string' && traceId !== '') traceIds.push(traceId);
  }
  return {
    ok: true,
    alert: {
      alert_id: o.alert_id as string,
      kind: o.kind as AlertKind,
      template_id: templateId,
      service: o.service as string,
      template: o.template as string,
      started_at_ns: startedAtNs,
      last_at_ns: lastAtNs,
      window_count: windowCount,
      peak_count: peakCount,
      baseline_per_window: baseline,
      example_trace_ids: traceIds,
    },
  };
}

/** A stored log_alerts row (newest version) as a NotifierAlert, for resuming pending deliveries. */
export function alertFromStored(row: StoredAlert): NotifierAlert {
  const { example_traces: exampleTraces, baseline_day: _day, baseline_week: _week, ...rest } = storedToMined(row);
  return { ...rest, example_trace_ids: exampleTraces.map((example) => example.trace_id) };
}

function isInteger(value: unknown): value is number | bigint {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return undefined;
}

function toCount(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'bigint' && value >= 0n) return Number(value);
  return undefined;
}
