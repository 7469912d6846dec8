/**
 * The simulator end to end: two minutes of simulated shop traffic, generated at once with times in
 * the recent past, sent as OTLP/HTTP protobuf into a running `svc all-in-one`, read back through
 * the API: the traces are stored, and an injected return_value fault is an error story whose root
 * cause is the faulty service.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { pollJson } from '../testing/http.js';
import { stringifyJson } from '../util/json.js';
import { createSimulator } from './simulate.js';
import { createOtlpSender } from './send.js';

const data = tempDataDir('svc-e2e-simulator-');
let svc: RunningAllInOne;

before(async () => {
  svc = await startAllInOne({ dataDir: data.dir, env: { SVC__ASSEMBLER__GAP_MS: '300', SVC__WRITER__MAX_AGE_MS: '200' } });
});

after(async () => {
  await svc?.stop();
  data.cleanup();
});

test('simulated traffic sent as OTLP is stored, and a return_value fault becomes an error story rooted in its service', async () => {
  const untilMs = Math.floor(Date.now() / 1000) * 1000 - 60_000;
  const fromMs = untilMs - 2 * 60_000;
  // 2.5 traces/s for 2 minutes: 240 to 360 on average as the rate drifts (±20 % with the clock), so
  // with Poisson's noise the whole send stays well under the 500 rows one search answers.
  const simulator = createSimulator({
    seed: 2026,
    tracesPerSec: 2.5,
    faults: [{ kind: 'return_value', service: 'inventory', fromMs: fromMs + 60_000, toMs: untilMs, intensity: 0.8 }],
  });
  const batch = simulator.generate(fromMs, untilMs);
  const failedInInventory = batch.spans.filter((span) => span.serviceName === 'inventory' && span.status === 'error').length;
  assert.ok(failedInInventory > 20, `${failedInInventory} failing inventory spans`);

  // A small export bound makes the sender split the batch into many exports per signal.
  const sender = createOtlpSender({ url: `http://127.0.0.1:${svc.otlpHttpPort}`, maxExportBytes: 256 * 1024 });
  await sender.send(batch);
  const totals = sender.totals();
  assert.equal(totals.spans, batch.spans.length);
  assert.equal(totals.logs, batch.logs.length);
  assert.ok(totals.exports > 4, `${totals.exports} exports`);
  assert.ok(totals.bytes / totals.exports <= 256 * 1024);
  sender.close();

  const roots = batch.spans.filter((span) => span.parentSpanId === '');
  assert.ok(roots.length > 150 && roots.length < 500, `${roots.length} traces (a search answers up to 500)`);
  const window = `since=10m&until=${Math.floor(Date.now() / 1000) + 30}`;
  const search = await pollJson(
    `${svc.apiUrl}/api/v1/traces/search?${window}&limit=500`,
    (response) => Array.isArray(response.body) && response.body.length >= roots.length,
    60_000,
  );
  const rows = search.body as { endpoint_service: string; endpoint_name: string; trace_id: string }[];
  assert.equal(rows.length, roots.length, 'every trace sent is stored');
  const otherEndpoints = rows.filter((row) => row.endpoint_service !== 'gateway' || row.endpoint_name !== 'GET /*');
  assert.deepEqual(otherEndpoints, [], "every trace enters through the gateway's catch-all route");
  const sentIds = new Set(roots.map((root) => root.traceId));
  assert.ok(rows.every((row) => sentIds.has(row.trace_id)));

  const groups = await pollJson(
    `${svc.apiUrl}/api/v1/story-groups?${window}&kind=error&service=inventory`,
    (response) =>
      Array.isArray(response.body) && (response.body as { summary: string }[]).some((group) => group.summary.includes('invalid return value from inventory')),
    60_000,
  );
  const group = (groups.body as { rc_service: string; rc_span_name: string; summary: string; stories: number }[]).find((one) =>
    one.summary.includes('invalid return value from inventory'),
  );
  assert.ok(group !== undefined, stringifyJson(groups.body));
  assert.equal(group.rc_service, 'inventory');
  assert.match(group.rc_span_name, /^InventoryService\//);
});
