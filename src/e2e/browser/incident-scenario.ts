/**
 * An incident for the browser and MCP tests, built with the real OpenTelemetry SDK and stamped in
 * the recent past: 75 minutes of a shop's normal traffic (gateway -> cart -> payments, and gateway
 * -> inventory, whose stock lookup fails now and then at a steady rate: a chronic error), then, for
 * the last 10 minutes, payments' charge failing on every call.
 */
import { SpanKind } from '@opentelemetry/api';
import type { RunningAllInOne } from '../../testing/all-in-one.js';
import { getJson } from '../../testing/http.js';
import { SdkTraces, sendSpans, until } from '../../testing/sdk-trace.js';
import { MINUTE_MS } from '../../util/time-units.js';

export interface IncidentNames {
  gateway: string;
  cart: string;
  payments: string;
  inventory: string;
}

export function incidentNamesFor(tag: string): IncidentNames {
  return { gateway: `gateway-${tag}`, cart: `cart-${tag}`, payments: `payments-${tag}`, inventory: `inventory-${tag}` };
}

/** Normal traffic starts this long ago: the hour before the default 15-minute window, and a little more. */
const HISTORY_MS = 76 * MINUTE_MS;
/** The fault: payments' charge fails on every call over the last 10 minutes. */
const FAULT_MS = 10 * MINUTE_MS;
const CHECKOUT_EVERY_MS = 15_000;
/** The chronic error: one failing stock lookup every 2 minutes, before and during the fault alike. */
const STOCK_FAILURE_EVERY_MS = 2 * MINUTE_MS;
const STOCK_EVERY_MS = 30_000;

export const PAYMENTS_FAULT = 'card processor unavailable';
export const CHRONIC_FAULT = 'no instances available';

export interface SentIncident {
  /** Failing checkouts (the outage's stories), all in the last 10 minutes. */
  outageStories: number;
  /** Failing stock lookups (the chronic group's stories) over the 76 minutes. */
  chronicStories: number;
}

/** Sends the scenario; returns when every export is acknowledged (stories follow a few seconds later). */
export async function sendIncident(svc: RunningAllInOne, names: IncidentNames): Promise<SentIncident> {
  const t = new SdkTraces();
  const sent = { outageStories: 0, chronicStories: 0 };
  for (let at = -HISTORY_MS; at < -1_000; at += CHECKOUT_EVERY_MS) {
    const failing = at >= -FAULT_MS;
    checkout(t, names, at, failing);
    if (failing) sent.outageStories++;
  }
  for (let at = -HISTORY_MS + 5_000; at < -1_000; at += STOCK_EVERY_MS) {
    const failing = (at + HISTORY_MS - 5_000) % STOCK_FAILURE_EVERY_MS === 0;
    stock(t, names, at, failing);
    if (failing) sent.chronicStories++;
  }
  // A trace's spans in one request (one trace never straddles the assembler's gap), a few hundred traces per request.
  const spans = t.take();
  const byTrace = new Map<string, typeof spans>();
  for (const span of spans) {
    const id = span.spanContext().traceId;
    byTrace.set(id, [...(byTrace.get(id) ?? []), span]);
  }
  const traces = [...byTrace.values()];
  for (let i = 0; i < traces.length; i += 200) await sendSpans(svc, traces.slice(i, i + 200).flat());
  return sent;
}

/**
 * Resolves once both groups hold every story sent: the assembler has closed every trace, so the
 * incident analysis reads the whole scenario.
 */
export async function waitForIncidentStories(svc: RunningAllInOne, names: IncidentNames, sent: SentIncident): Promise<void> {
  const counts = (groups: { rc_service: string; stories: number }[], service: string) =>
    groups.filter((group) => group.rc_service === service).reduce((sum, group) => sum + group.stories, 0);
  await until(
    'every story of the incident scenario',
    async () => {
      const { status, body } = await getJson(`${svc.apiUrl}/api/v1/story-groups?since=2h&kind=error`);
      if (status !== 200) return undefined;
      const groups = body as { rc_service: string; stories: number }[];
      return counts(groups, names.payments) === sent.outageStories && counts(groups, names.gateway) === sent.chronicStories ? true : undefined;
    },
    60_000,
  );
}

/** GET /* at the gateway -> cart's checkout -> payments' charge; `failing` makes the charge fail. */
function checkout(t: SdkTraces, names: IncidentNames, at: number, failing: boolean): void {
  const error = failing ? '' : undefined;
  const root = t.span(names.gateway, 'GET /*', { kind: SpanKind.SERVER, startMs: at, endMs: at + 60, error: failing ? 'upstream failed' : undefined });
  const callCart = t.span(names.gateway, 'POST cart', { kind: SpanKind.CLIENT, parent: root, startMs: at + 2, endMs: at + 58, error });
  const cart = t.span(names.cart, 'POST /cart/checkout', {
    kind: SpanKind.SERVER,
    parent: callCart,
    startMs: at + 4,
    endMs: at + 56,
    error: failing ? 'payment failed' : undefined,
  });
  const callPayments = t.span(names.cart, 'POST payments', { kind: SpanKind.CLIENT, parent: cart, startMs: at + 10, endMs: at + 50, error });
  t.span(names.payments, 'charge', {
    kind: SpanKind.SERVER,
    parent: callPayments,
    startMs: at + 12,
    endMs: at + 48,
    error: failing ? PAYMENTS_FAULT : undefined,
  });
}

/** GET /* at the gateway -> inventory's stock lookup; `failing` is the chronic "no instances" error at the gateway's client. */
function stock(t: SdkTraces, names: IncidentNames, at: number, failing: boolean): void {
  const root = t.span(names.gateway, 'GET /*', { kind: SpanKind.SERVER, startMs: at, endMs: at + 20, error: failing ? 'lookup failed' : undefined });
  if (failing) {
    t.span(names.gateway, 'resolve inventory', { kind: SpanKind.INTERNAL, parent: root, startMs: at + 1, endMs: at + 3, error: CHRONIC_FAULT });
    return;
  }
  const call = t.span(names.gateway, 'GET inventory', { kind: SpanKind.CLIENT, parent: root, startMs: at + 2, endMs: at + 18 });
  t.span(names.inventory, 'GET /stock', { kind: SpanKind.SERVER, parent: call, startMs: at + 4, endMs: at + 16 });
}
