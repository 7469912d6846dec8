/** Webhook and chat bodies for an alert (DESIGN.md §5). Pure: no I/O. */

import type { NotifierTarget } from '../config/settings.js';
import type { NotifierAlert } from './alert.js';

/** The webhook body; field set and types are DESIGN.md §5's. */
export interface WebhookBody {
  alert_id: string;
  kind: string;
  service: string;
  template_id: string;
  template: string;
  /** RFC 3339 UTC. */
  started_at: string;
  /** RFC 3339 UTC. */
  last_at: string;
  count: number;
  baseline: number;
  summary: string;
  example_trace_ids: string[];
  links: string[];
}

const MAX_LINKS = 3;
/** Long templates are cut in the summary so a chat message stays one readable line. */
const SUMMARY_TEMPLATE_CHARS = 200;

/** RFC 3339 UTC with milliseconds (what every JSON date parser reads) from Unix nanoseconds. */
export function rfc3339FromNs(ns: bigint): string {
  // Floor division keeps pre-1970 instants on the right millisecond.
  const ms = ns >= 0n ? ns / 1_000_000n : -((-ns + 999_999n) / 1_000_000n);
  return new Date(Number(ms)).toISOString();
}

/**
 * The alert's count: a spike's window count; `new` and `silence` alerts carry window_count 0
 * (contract), so theirs is peak_count, the miner's hits so far (0 for a silence).
 */
export function alertCount(alert: NotifierAlert): number {
  return alert.kind === 'spike' ? alert.window_count : alert.peak_count;
}

/** Trace links into the app, at most 3. */
export function traceLinks(publicUrl: string, traceIds: readonly string[]): string[] {
  const base = publicUrl.replace(/\/+$/, '');
  return traceIds.slice(0, MAX_LINKS).map((id) => `${base}/traces/${encodeURIComponent(id)}`);
}

/** One-line summary sentence per kind, e.g. `New log template in checkout: "payment <*> declined"`. */
export function summaryLine(alert: NotifierAlert): string {
  const template = quoteTemplate(alert.template);
  const service = oneLine(alert.service);
  switch (alert.kind) {
    case 'new':
      return `New log template in ${service}: ${template}`;
    case 'spike':
      return `Log spike in ${service}: ${template} logged ${alert.window_count} times in the window (baseline ${formatBaseline(alert.baseline_per_window)})`;
    case 'silence':
      return `Log silence in ${service}: ${template} not seen since ${rfc3339FromNs(alert.started_at_ns)}`;
  }
}

/** The webhook body. */
export function webhookBody(alert: NotifierAlert, publicUrl: string): WebhookBody {
  return {
    alert_id: alert.alert_id,
    kind: alert.kind,
    service: alert.service,
    template_id: alert.template_id,
    template: alert.template,
    started_at: rfc3339FromNs(alert.started_at_ns),
    last_at: rfc3339FromNs(alert.last_at_ns),
    count: alertCount(alert),
    baseline: alert.baseline_per_window,
    summary: summaryLine(alert),
    example_trace_ids: [...alert.example_trace_ids],
    links: traceLinks(publicUrl, alert.example_trace_ids),
  };
}

/** The chat message: `{"text": "<one-line summary> <links>"}` (Slack, Mattermost, Rocket.Chat). */
export function chatBody(alert: NotifierAlert, publicUrl: string): { text: string } {
  return { text: [summaryLine(alert), ...traceLinks(publicUrl, alert.example_trace_ids)].join(' ') };
}

/** The JSON text sent to a target of `kind`. */
export function requestBody(kind: NotifierTarget['kind'], alert: NotifierAlert, publicUrl: string): string {
  return JSON.stringify(kind === 'chat' ? chatBody(alert, publicUrl) : webhookBody(alert, publicUrl));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function quoteTemplate(template: string): string {
  const line = oneLine(template);
  const cut = line.length > SUMMARY_TEMPLATE_CHARS ? `${line.slice(0, SUMMARY_TEMPLATE_CHARS - 1)}…` : line;
  return `"${cut}"`;
}

function formatBaseline(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
