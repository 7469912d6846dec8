/**
 * The data the browser tests look at, built with the real OpenTelemetry SDK: two failing
 * endpoints across four services and, on request, an endpoint with a trusted baseline and one
 * slow trace. Service names carry a per-run tag so every value asserted is this run's.
 */
import { SpanKind } from '@opentelemetry/api';
import type { RunningAllInOne } from '../../testing/all-in-one.js';
import { getJson, metricValue } from '../../testing/http.js';
import { SdkTraces, sendSpans, until } from '../../testing/sdk-trace.js';

export interface Names {
  frontend: string;
  cart: string;
  payments: string;
  inventory: string;
  catalog: string;
}

export function namesFor(tag: string): Names {
  return { frontend: `frontend-${tag}`, cart: `cart-${tag}`, payments: `payments-${tag}`, inventory: `inventory-${tag}`, catalog: `catalog-${tag}` };
}

export interface Failures {
  /** Two traces of GET /checkout failing in payments' "db query". */
  checkoutIds: string[];
  /** One trace of POST /reserve failing in inventory's "reserve stock". */
  reserveId: string;
  /** Span names of a checkout trace in waterfall order (parent first, children by start). */
  checkoutSpanNames: string[];
  checkoutSummary: string;
  reserveSummary: string;
}

/**
 * frontend -> cart -> payments where payments' database call fails (cart's cache write fails too,
 * and one span, "load session", succeeds), and frontend -> inventory failing on stock.
 */
export async function sendFailures(svc: RunningAllInOne, names: Names): Promise<Failures> {
  const t = new SdkTraces();
  const checkoutIds: string[] = [];
  for (const offset of [-2000, 0]) {
    const at = (ms: number) => ms + offset;
    const root = t.span(names.frontend, 'GET /checkout', { kind: SpanKind.SERVER, startMs: at(-400), endMs: at(-50), error: 'upstream failed' });
    t.span(names.frontend, 'load session', { kind: SpanKind.INTERNAL, parent: root, startMs: at(-398), endMs: at(-392) });
    const callCart = t.span(names.frontend, 'POST cart', { kind: SpanKind.CLIENT, parent: root, startMs: at(-390), endMs: at(-60), error: '' });
    const cart = t.span(names.cart, 'POST /cart/checkout', {
      kind: SpanKind.SERVER,
      parent: callCart,
      startMs: at(-385),
      endMs: at(-65),
      error: 'payment failed',
    });
    t.span(names.cart, 'cache set', { kind: SpanKind.INTERNAL, parent: cart, startMs: at(-380), endMs: at(-100), error: 'cache unavailable' });
    const callPayments = t.span(names.cart, 'POST payments', { kind: SpanKind.CLIENT, parent: cart, startMs: at(-370), endMs: at(-150), error: '' });
    const payments = t.span(names.payments, 'charge', {
      kind: SpanKind.SERVER,
      parent: callPayments,
      startMs: at(-365),
      endMs: at(-155),
      error: 'charge failed',
    });
    t.span(names.payments, 'db query', { kind: SpanKind.INTERNAL, parent: payments, startMs: at(-360), endMs: at(-200), error: 'card declined 4242' });
    checkoutIds.push(root.spanContext().traceId);
  }
  const root = t.span(names.frontend, 'POST /reserve', { kind: SpanKind.SERVER, startMs: -300, endMs: -20, error: 'reserve failed' });
  const call = t.span(names.frontend, 'POST inventory', { kind: SpanKind.CLIENT, parent: root, startMs: -290, endMs: -30, error: '' });
  const inventory = t.span(names.inventory, 'POST /stock/reserve', { kind: SpanKind.SERVER, parent: call, startMs: -285, endMs: -35, error: 'no stock' });
  t.span(names.inventory, 'reserve stock', { kind: SpanKind.INTERNAL, parent: inventory, startMs: -280, endMs: -40, error: 'out of stock for sku 12' });
  await sendSpans(svc, t.take());
  const reserveId = root.spanContext().traceId;
  await Promise.all([...checkoutIds, reserveId].map((id) => waitForStory(svc, id)));
  return {
    checkoutIds,
    reserveId,
    checkoutSpanNames: ['GET /checkout', 'load session', 'POST cart', 'POST /cart/checkout', 'cache set', 'POST payments', 'charge', 'db query'],
    checkoutSummary: `${names.payments} failed in "db query": card declined 4242`,
    reserveSummary: `${names.inventory} failed in "reserve stock": out of stock for sku 12`,
  };
}

/** 60 normal GET /items traces (a trusted baseline), then one 800 ms trace: a slow story. */
export async function sendSlowStory(svc: RunningAllInOne, service: string): Promise<string> {
  const normal = new SdkTraces();
  for (let i = 0; i < 60; i++) {
    const root = normal.span(service, 'GET /items', { kind: SpanKind.SERVER, startMs: -3000 - i * 20, endMs: -2980 - i * 20 + (i % 4) });
    normal.span(service, 'SELECT items', { kind: SpanKind.CLIENT, parent: root, startMs: -2998 - i * 20, endMs: -2988 - i * 20 });
  }
  const trustedBefore = metricValue(await metrics(svc), 'svc_assembler_trusted_baselines');
  await sendSpans(svc, normal.take());
  await until('a trusted baseline for GET /items', async () =>
    metricValue(await metrics(svc), 'svc_assembler_trusted_baselines') > trustedBefore ? true : undefined,
  );
  const slow = new SdkTraces();
  const root = slow.span(service, 'GET /items', { kind: SpanKind.SERVER, startMs: -900, endMs: -100 });
  slow.span(service, 'SELECT items', { kind: SpanKind.CLIENT, parent: root, startMs: -890, endMs: -200 });
  await sendSpans(svc, slow.take());
  const id = root.spanContext().traceId;
  await waitForStory(svc, id);
  return id;
}

async function metrics(svc: RunningAllInOne): Promise<string> {
  return (await fetch(`${svc.apiUrl}/metrics`)).text();
}

/** Resolves once the API serves the story of `traceId`. */
export async function waitForStory(svc: RunningAllInOne, traceId: string): Promise<void> {
  await until(`the story of ${traceId}`, async () => ((await getJson(`${svc.apiUrl}/api/v1/stories/${traceId}`)).status === 200 ? true : undefined));
}

/** Environment for an all-in-one that closes traces fast and reloads baselines every second. */
export const FAST_STORIES_ENV = { SVC__ASSEMBLER__GAP_MS: '300', SVC__ASSEMBLER__BASELINE_REFRESH_SECS: '1', SVC__WRITER__MAX_AGE_MS: '200' };
