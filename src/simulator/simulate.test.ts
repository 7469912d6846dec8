import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SignalBatch, SpanRow } from '../model/signals.js';
import { expectedSuspect, FAULT_KINDS, faultTargets, type Fault } from './faults.js';
import { createSimulator } from './simulate.js';
import { shopModel } from './shop.js';

const T0 = Date.UTC(2026, 10, 27, 10, 0, 0);
const MINUTE = 60_000;

const attr = (span: SpanRow, key: string) => span.attrs.find(([name]) => name === key)?.[1];
const durationMs = (span: SpanRow) => Number(span.endNs - span.startNs) / 1e6;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const json = (value: unknown) => JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));

/** Children of each span by span id. */
function childrenOf(spans: SpanRow[]): Map<string, SpanRow[]> {
  const children = new Map<string, SpanRow[]>();
  for (const span of spans) {
    const list = children.get(span.parentSpanId);
    if (list === undefined) children.set(span.parentSpanId, [span]);
    else list.push(span);
  }
  return children;
}

/** Duration minus the union of the children's intervals, in ms. */
function selfMs(span: SpanRow, children: Map<string, SpanRow[]>): number {
  const intervals = (children.get(span.spanId) ?? [])
    .map((child) => [Number(child.startNs - span.startNs), Number(child.endNs - span.startNs)] as const)
    .sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reach = 0;
  for (const [start, end] of intervals) {
    if (end <= reach) continue;
    covered += end - Math.max(start, reach);
    reach = end;
  }
  return (Number(span.endNs - span.startNs) - covered) / 1e6;
}

/** The same traffic with and without one fault over the whole window. */
function withAndWithout(fault: Omit<Fault, 'fromMs' | 'toMs'>, minutes = 4, tracesPerSec = 10): { base: SignalBatch; faulty: SignalBatch } {
  const toMs = T0 + minutes * MINUTE;
  return {
    base: createSimulator({ seed: 7, tracesPerSec }).generate(T0, toMs),
    faulty: createSimulator({ seed: 7, tracesPerSec, faults: [{ ...fault, fromMs: T0, toMs }] }).generate(T0, toMs),
  };
}

const serverSpansOf = (batch: SignalBatch, service: string) => batch.spans.filter((span) => span.serviceName === service && span.kind === 'server');
const clientSpansTo = (batch: SignalBatch, peer: string) => batch.spans.filter((span) => span.kind === 'client' && attr(span, 'peer.service') === peer);

test('the same seed gives the same traffic, another seed other traffic, and windows compose', () => {
  const a = createSimulator({ seed: 42, tracesPerSec: 5 }).generate(T0, T0 + MINUTE);
  const b = createSimulator({ seed: 42, tracesPerSec: 5 }).generate(T0, T0 + MINUTE);
  assert.ok(a.spans.length > 1000, `${a.spans.length} spans`);
  assert.ok(json(a) === json(b), 'same seed, same rows');
  const other = createSimulator({ seed: 43, tracesPerSec: 5 }).generate(T0, T0 + MINUTE);
  assert.ok(json(other.spans.slice(0, 10)) !== json(a.spans.slice(0, 10)), 'other rows');

  const split = createSimulator({ seed: 42, tracesPerSec: 5 });
  const first = split.generate(T0, T0 + 25_500);
  const second = split.generate(T0 + 25_500, T0 + MINUTE);
  // Within a second traces come in arrival-draw order, not time order: compare as sets.
  const canonical = (spans: SpanRow[]) => json([...spans].sort((x, y) => (x.spanId < y.spanId ? -1 : 1)));
  assert.ok(canonical([...first.spans, ...second.spans]) === canonical(a.spans), 'two windows give the rows of one');
  const ids = (batch: SignalBatch[]) => batch.flatMap((one) => one.logs.map((log) => log.logId)).sort();
  assert.deepEqual(ids([first, second]), ids([a]));
});

test('a shop of at least 15 services behind one catch-all gateway route, with uninstrumented databases seen only by their callers', () => {
  const batch = createSimulator({ seed: 1, tracesPerSec: 10 }).generate(T0, T0 + 2 * MINUTE);
  const services = new Set(batch.spans.map((span) => span.serviceName));
  assert.ok(services.size >= 15, `${services.size} services: ${[...services].join(', ')}`);
  const roots = batch.spans.filter((span) => span.parentSpanId === '');
  assert.ok(roots.length > 900);
  for (const root of roots) {
    assert.equal(root.serviceName, 'gateway');
    assert.equal(root.name, 'GET /*');
    assert.equal(root.kind, 'server');
    assert.equal(attr(root, 'http.route'), '/*');
  }
  const paths = new Set(
    roots.map((root) =>
      String(attr(root, 'url.path'))
        .replace(/\/product\/.*/, '/product/x')
        .replace(/\?.*/, ''),
    ),
  );
  assert.deepEqual([...paths].sort(), ['/', '/account', '/cart', '/cart/add', '/checkout', '/login', '/product/x', '/search']);

  const spansPerTrace = new Map<string, number>();
  for (const span of batch.spans) spansPerTrace.set(span.traceId, (spansPerTrace.get(span.traceId) ?? 0) + 1);
  for (const count of spansPerTrace.values()) assert.ok(count >= 5 && count <= 40, `${count} spans in a trace`);
  assert.equal(spansPerTrace.size, roots.length, 'trace ids are unique');
  assert.equal(new Set(batch.spans.map((span) => span.spanId)).size, batch.spans.length, 'span ids are unique');

  // Every client span to a service has that service's server span as its only child, inside it in time.
  const children = childrenOf(batch.spans);
  const byId = new Map(batch.spans.map((span) => [span.spanId, span]));
  for (const span of batch.spans) if (span.parentSpanId !== '') assert.ok(byId.has(span.parentSpanId), 'every parent is in the batch');
  let serviceCalls = 0;
  for (const span of batch.spans.filter((one) => one.kind === 'client')) {
    const peer = String(attr(span, 'peer.service'));
    assert.equal(attr(span, 'server.address'), peer);
    const kids = children.get(span.spanId) ?? [];
    if (services.has(peer)) {
      if (span.status === 'error' && kids.length === 0) continue; // failed before reaching the callee
      serviceCalls++;
      assert.equal(kids.length, 1);
      const server = kids[0]!;
      assert.equal(server.serviceName, peer);
      assert.equal(server.kind, 'server');
      assert.equal(server.name, span.name);
      const wireMs = durationMs(span) - durationMs(server);
      assert.ok(server.startNs > span.startNs && server.endNs < span.endNs && wireMs >= 0.29 && wireMs <= 3.01, `wire ${wireMs} ms`);
    } else {
      assert.equal(kids.length, 0, 'peers send no spans');
      assert.ok(!services.has(peer));
    }
  }
  assert.ok(serviceCalls > 5000);
  for (const database of ['orders-db', 'catalog-db', 'cart-cache', 'users-db']) {
    const calls = clientSpansTo(batch, database);
    assert.ok(calls.length > 50, database);
    assert.ok(
      calls.every((span) => typeof attr(span, 'db.system') === 'string' && typeof attr(span, 'db.name') === 'string'),
      database,
    );
  }
  assert.ok(batch.spans.some((span) => span.kind === 'internal'));
  // Parallel children: some span has two children that overlap in time.
  const overlapping = [...children.values()].some((kids) => kids.some((a) => kids.some((b) => a !== b && a.startNs < b.endNs && b.startNs < a.endNs)));
  assert.ok(overlapping, 'parallel calls occur');
});

test('logs: INFO per operation with trace context, some DEBUG and WARN, and background jobs without trace context', () => {
  const batch = createSimulator({ seed: 3, tracesPerSec: 5 }).generate(T0, T0 + 10 * MINUTE);
  const severities = new Map<string, number>();
  for (const log of batch.logs)
    severities.set(`${log.severityText}/${log.severityNumber}`, (severities.get(`${log.severityText}/${log.severityNumber}`) ?? 0) + 1);
  for (const key of ['INFO/9', 'WARN/13', 'DEBUG/5', 'ERROR/17']) assert.ok((severities.get(key) ?? 0) > 0, `${key} in ${json([...severities])}`);
  const serviceOfSpan = new Map(batch.spans.map((span) => [span.spanId, span.serviceName]));
  const traced = batch.logs.filter((log) => log.traceId !== '');
  assert.ok(traced.length > 10_000);
  assert.ok(
    traced.every((log) => serviceOfSpan.get(log.spanId) === log.serviceName),
    'a log names its span, in its own service',
  );
  const background = batch.logs.filter((log) => log.traceId === '');
  assert.ok(background.some((log) => log.serviceName === 'catalog' && /^Catalog cache refresh completed in \d+ ms/.test(log.body)));
  assert.equal(background.filter((log) => log.serviceName === 'catalog').length, 2, 'every 5 minutes');
  assert.ok(new Set(batch.logs.map((log) => log.serviceName)).size >= 15);
});

test('chronic errors exist without any fault: service discovery, a business error and a flaky timeout, each as a real error', () => {
  const batch = createSimulator({ seed: 5, tracesPerSec: 10 }).generate(T0, T0 + 10 * MINUTE);
  const failing = (service: string, message: string) =>
    batch.spans.filter((span) => span.serviceName === service && span.status === 'error' && span.statusMessage === message);
  const discovery = failing('recommendation', 'no instances available for ad');
  const declined = failing('payment', 'card declined');
  const timeout = failing('shipping', 'timeout of 1000ms exceeded');
  const calls = (service: string) => serverSpansOf(batch, service).length;
  for (const [name, spans, rate] of [
    ['discovery', discovery.filter((span) => span.kind === 'client'), 0.03 * calls('recommendation')],
    ['declined', declined, 0.02 * calls('payment')],
    ['timeout', timeout.filter((span) => span.kind === 'client'), 0.04 * calls('shipping')],
  ] as const) {
    assert.ok(spans.length > rate * 0.5 && spans.length < rate * 1.6, `${name}: ${spans.length} against ~${rate}`);
  }
  assert.ok(discovery.some((span) => span.events.some((event) => event.name === 'exception')));
  assert.ok(batch.logs.some((log) => log.serviceName === 'payment' && log.severityNumber === 17 && log.body.includes('card declined')));
  assert.ok(batch.logs.some((log) => log.serviceName === 'recommendation' && log.severityNumber === 17 && log.body.includes('no instances available for ad')));
  // The failure travels up: the root of a declined checkout fails too.
  const declinedTraces = new Set(declined.map((span) => span.traceId));
  assert.ok(batch.spans.filter((span) => span.parentSpanId === '' && declinedTraces.has(span.traceId)).every((root) => root.status === 'error'));
  assert.equal(batch.spans.filter((span) => span.status === 'error' && /invalid return|ECONNREFUSED|UNAVAILABLE/.test(span.statusMessage)).length, 0);
});

test('cpu: every operation of the target takes longer by itself; its callers only wait', () => {
  const { base, faulty } = withAndWithout({ kind: 'cpu', service: 'pricing', intensity: 2 });
  const selfOf = (batch: SignalBatch, service: string) => {
    const children = childrenOf(batch.spans);
    return serverSpansOf(batch, service).map((span) => selfMs(span, children));
  };
  const ratio = mean(selfOf(faulty, 'pricing')) / mean(selfOf(base, 'pricing'));
  assert.ok(ratio >= 1.6 && ratio <= 2.4, `pricing self time x${ratio}`);
  for (const caller of ['frontend', 'checkout', 'currency', 'catalog']) {
    const callerRatio = median(selfOf(faulty, caller)) / median(selfOf(base, caller));
    assert.ok(callerRatio > 0.9 && callerRatio < 1.1, `${caller} self time x${callerRatio}`);
  }
  assert.ok(median(clientSpansTo(faulty, 'pricing').map(durationMs)) > median(clientSpansTo(base, 'pricing').map(durationMs)), 'callers wait longer');
  assert.equal(
    faulty.spans.filter((span) => span.status === 'error').length > base.spans.filter((span) => span.status === 'error').length * 1.5,
    false,
    'no new errors',
  );
});

test('network_delay: callers see wire time grow on calls to the target; its own server spans are unchanged', () => {
  const { base, faulty } = withAndWithout({ kind: 'network_delay', service: 'catalog', intensity: 300 });
  const wireTimes = (batch: SignalBatch) => {
    const children = childrenOf(batch.spans);
    return clientSpansTo(batch, 'catalog').flatMap((client) => (children.get(client.spanId) ?? []).map((server) => durationMs(client) - durationMs(server)));
  };
  assert.ok(median(wireTimes(base)) < 3);
  const delayed = wireTimes(faulty);
  assert.ok(
    delayed.every((wire) => wire >= 240 && wire <= 363),
    `wire ${Math.min(...delayed)}..${Math.max(...delayed)} ms`,
  );
  const serverRatio = median(serverSpansOf(faulty, 'catalog').map(durationMs)) / median(serverSpansOf(base, 'catalog').map(durationMs));
  assert.ok(serverRatio > 0.9 && serverRatio < 1.1, `catalog server time x${serverRatio}`);
  const otherWire = (batch: SignalBatch) => {
    const children = childrenOf(batch.spans);
    return median(
      clientSpansTo(batch, 'pricing').flatMap((client) => (children.get(client.spanId) ?? []).map((server) => durationMs(client) - durationMs(server))),
    );
  };
  assert.ok(otherWire(faulty) < 3, 'calls to other services keep their wire time');
});

test('crash: the target sends nothing; its callers fail fast naming it, log an ERROR, and the failure travels up', () => {
  const toMs = T0 + 4 * MINUTE;
  const fault: Fault = { kind: 'crash', service: 'inventory', fromMs: T0 + 2 * MINUTE, toMs };
  const batch = createSimulator({ seed: 9, tracesPerSec: 10, faults: [fault] }).generate(T0, toMs);
  const during = (tsNs: bigint) => tsNs >= BigInt(fault.fromMs) * 1_000_000n;
  const traceStart = new Map(batch.spans.filter((span) => span.parentSpanId === '').map((root) => [root.traceId, root.startNs]));
  const inFault = (traceId: string) => during(traceStart.get(traceId) ?? 0n);
  assert.ok(
    batch.spans.some((span) => span.serviceName === 'inventory' && !inFault(span.traceId)),
    'before the fault inventory works',
  );
  assert.equal(batch.spans.filter((span) => span.serviceName === 'inventory' && inFault(span.traceId)).length, 0);
  assert.equal(batch.logs.filter((log) => log.serviceName === 'inventory' && (log.traceId === '' ? during(log.tsNs) : inFault(log.traceId))).length, 0);
  const calls = clientSpansTo(batch, 'inventory').filter((span) => inFault(span.traceId));
  assert.ok(calls.length > 200);
  for (const span of calls) {
    assert.equal(span.status, 'error');
    assert.equal(span.statusMessage, 'UNAVAILABLE: io exception');
    assert.ok(durationMs(span) < 5);
  }
  assert.ok(batch.logs.filter((log) => during(log.tsNs) && log.severityNumber === 17 && log.body.includes('inventory')).length >= calls.length);
  const failedTraces = new Set(calls.map((span) => span.traceId));
  assert.ok(batch.spans.filter((span) => span.parentSpanId === '' && failedTraces.has(span.traceId)).every((root) => root.status === 'error'));
});

test("return_value: a share of the target's spans fail with the invalid value, logged as ERROR, and the deepest failing span is the target's", () => {
  const { base, faulty } = withAndWithout({ kind: 'return_value', service: 'currency', intensity: 0.5 });
  const currency = serverSpansOf(faulty, 'currency');
  const failed = currency.filter((span) => span.status === 'error');
  const share = failed.length / currency.length;
  assert.ok(share > 0.4 && share < 0.6, `share ${share}`);
  assert.ok(failed.every((span) => /^invalid return value from currency: \w+=-1$/.test(span.statusMessage)));
  assert.equal(serverSpansOf(base, 'currency').filter((span) => span.status === 'error').length, 0);
  assert.ok(faulty.logs.filter((log) => log.serviceName === 'currency' && log.severityNumber === 17).length === failed.length);
  const children = childrenOf(faulty.spans);
  const failedTraces = new Set(failed.map((span) => span.traceId));
  const deepestFailing = faulty.spans.filter(
    (span) => failedTraces.has(span.traceId) && span.status === 'error' && !(children.get(span.spanId) ?? []).some((child) => child.status === 'error'),
  );
  for (const traceId of failedTraces)
    assert.ok(
      deepestFailing.some((span) => span.traceId === traceId && span.serviceName === 'currency'),
      traceId,
    );
  const roots = faulty.spans.filter((span) => span.parentSpanId === '' && failedTraces.has(span.traceId));
  assert.equal(roots.length, failedTraces.size);
  assert.ok(
    roots.every((root) => root.status === 'error'),
    'the failure reaches the root',
  );
});

test('exception: the target logs new lines and drops a usual one, with no error status and no ERROR log anywhere new', () => {
  const { base, faulty } = withAndWithout({ kind: 'exception', service: 'pricing', intensity: 0.7 });
  const errorsOf = (batch: SignalBatch) => batch.spans.filter((span) => span.status === 'error' && span.serviceName === 'pricing').length;
  assert.equal(errorsOf(faulty), 0);
  assert.equal(faulty.logs.filter((log) => log.serviceName === 'pricing' && log.severityNumber >= 17).length, 0);
  const count = (batch: SignalBatch, pattern: RegExp) => batch.logs.filter((log) => log.serviceName === 'pricing' && pattern.test(log.body)).length;
  assert.equal(count(base, /^Caught /), 0);
  assert.ok(count(faulty, /^Caught java\.lang\.IllegalStateException in PricingService\/GetPrice: falling back to cached value/) > 500);
  assert.ok(count(faulty, /^Fallback path served/) > 500);
  const usualRatio = count(faulty, /^Price for /) / serverSpansOf(faulty, 'pricing').length;
  assert.ok(usualRatio > 0.2 && usualRatio < 0.4, `the usual line in ${usualRatio} of executions`);
  assert.equal(count(base, /^Price for /), serverSpansOf(base, 'pricing').length);
  const timeRatio = median(serverSpansOf(faulty, 'pricing').map(durationMs)) / median(serverSpansOf(base, 'pricing').map(durationMs));
  assert.ok(timeRatio > 0.9 && timeRatio < 1.1, `time x${timeRatio}`);
});

test('slow_db: only the calls to the slow database take longer', () => {
  const { base, faulty } = withAndWithout({ kind: 'slow_db', service: 'orders-db', intensity: 5 });
  const ratio = (peer: string) => median(clientSpansTo(faulty, peer).map(durationMs)) / median(clientSpansTo(base, peer).map(durationMs));
  assert.ok(ratio('orders-db') > 4 && ratio('orders-db') < 6, `orders-db x${ratio('orders-db')}`);
  for (const other of ['catalog-db', 'users-db', 'cart-cache']) assert.ok(ratio(other) > 0.9 && ratio(other) < 1.1, `${other} x${ratio(other)}`);
  assert.equal(faulty.spans.filter((span) => span.serviceName === 'orders-db').length, 0);
});

test('fault targets and the expected suspect; a fault the model cannot inject is refused with the valid targets', () => {
  const model = shopModel();
  for (const kind of FAULT_KINDS) assert.ok(faultTargets(kind, model).length >= 4, kind);
  assert.deepEqual(faultTargets('slow_db', model), ['orders-db', 'users-db', 'catalog-db', 'cart-cache']);
  assert.ok(!faultTargets('crash', model).includes('gateway'), 'the gateway has no callers');
  assert.ok(faultTargets('network_delay', model).includes('pricing'));
  assert.equal(expectedSuspect({ kind: 'slow_db', service: 'orders-db', fromMs: 0, toMs: 1 }), 'orders-db');
  assert.equal(expectedSuspect({ kind: 'cpu', service: 'pricing', fromMs: 0, toMs: 1 }), 'pricing');
  assert.throws(
    () => createSimulator({ seed: 1, tracesPerSec: 1, faults: [{ kind: 'slow_db', service: 'pricing', fromMs: 0, toMs: 1 }] }),
    /slow_db cannot target "pricing"; valid targets: orders-db/,
  );
  assert.throws(
    () => createSimulator({ seed: 1, tracesPerSec: 1, faults: [{ kind: 'cpu', service: 'gateway', fromMs: 0, toMs: 1 }] }),
    /cpu cannot target "gateway"/,
  );
  assert.throws(
    () => createSimulator({ seed: 1, tracesPerSec: 1, faults: [{ kind: 'oops' as 'cpu', service: 'pricing', fromMs: 0, toMs: 1 }] }),
    /unknown fault kind "oops"/,
  );
});

test('faults touch only traces that start inside their window', () => {
  const fault: Fault = { kind: 'cpu', service: 'pricing', fromMs: T0 + MINUTE, toMs: T0 + 2 * MINUTE, intensity: 3 };
  const plain = createSimulator({ seed: 11, tracesPerSec: 5 });
  const faulty = createSimulator({ seed: 11, tracesPerSec: 5, faults: [fault] });
  assert.ok(json(faulty.generate(T0, T0 + MINUTE)) === json(plain.generate(T0, T0 + MINUTE)), 'the same rows');
  assert.ok(json(faulty.generate(T0 + 2 * MINUTE, T0 + 3 * MINUTE)) === json(plain.generate(T0 + 2 * MINUTE, T0 + 3 * MINUTE)), 'the same rows');
  assert.ok(json(faulty.generate(T0 + MINUTE, T0 + 2 * MINUTE)) !== json(plain.generate(T0 + MINUTE, T0 + 2 * MINUTE)), 'other rows');
});

test('the rate drifts smoothly within ±20 % of the mean, and arrivals follow it', () => {
  const simulator = createSimulator({ seed: 2, tracesPerSec: 10 });
  const rates = Array.from({ length: 120 }, (_, minute) => simulator.rateAt(T0 + minute * MINUTE));
  assert.ok(Math.min(...rates) >= 8 && Math.max(...rates) <= 12);
  assert.ok(Math.max(...rates) - Math.min(...rates) > 1, 'it does drift');
  for (let minute = 1; minute < rates.length; minute++) assert.ok(Math.abs(rates[minute]! - rates[minute - 1]!) < 0.5, 'smoothly');
  const roots = simulator.generate(T0, T0 + 5 * MINUTE).spans.filter((span) => span.parentSpanId === '').length;
  const expected = rates.slice(0, 5).reduce((sum, rate) => sum + rate * 60, 0);
  assert.ok(Math.abs(roots - expected) < expected * 0.08, `${roots} traces against ~${expected}`);
});
