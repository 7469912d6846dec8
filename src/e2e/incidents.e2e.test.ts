/**
 * Incidents end to end: an hour and a quarter of the simulated shop, with network delay injected in
 * front of one service for the last 15 minutes, sent as OTLP/HTTP into a running `svc all-in-one`;
 * the assembler's per-minute tables and the logminer's template counts, read back through
 * GET /api/v1/incidents, name that service first. The in-memory harness ranks the same way
 * (src/analysis/incidents/simulated-faults.test.ts); this proves the stored path.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { getJson, pollJson } from '../testing/http.js';
import { createSimulator } from '../simulator/simulate.js';
import { createOtlpSender } from '../simulator/send.js';
import { stringifyJson } from '../util/json.js';

const data = tempDataDir('svc-e2e-incidents-');
let svc: RunningAllInOne;

before(async () => {
  svc = await startAllInOne({ dataDir: data.dir, env: { SVC__ASSEMBLER__GAP_MS: '300', SVC__WRITER__MAX_AGE_MS: '200' } });
});

after(async () => {
  await svc?.stop();
  data.cleanup();
});

interface Incident {
  summary: string;
  window_from_ns: number;
  suspects: {
    service: string;
    score: number;
    edge: { caller: string; callee: string } | null;
    evidence: { kind: string; summary: string; caller: string | null }[];
  }[];
  groups: { trend: string; rc_service: string }[];
}

test('network delay in front of a service: the incident names it first, from the stored per-minute tables', async () => {
  // Whole minutes, the last one a minute old, so every minute of the window has settled.
  const untilMs = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
  const windowFromMs = untilMs - 15 * 60_000;
  const fault = { kind: 'network_delay' as const, service: 'currency', fromMs: windowFromMs, toMs: untilMs, intensity: 250 };
  const simulator = createSimulator({ seed: 7, tracesPerSec: 1.5, faults: [fault] });
  const sender = createOtlpSender({ url: `http://127.0.0.1:${svc.otlpHttpPort}` });
  let spans = 0;
  for (let fromMs = windowFromMs - 60 * 60_000; fromMs < untilMs; fromMs += 15 * 60_000) {
    const batch = simulator.generate(fromMs, fromMs + 15 * 60_000);
    spans += batch.spans.length;
    await sender.send(batch);
  }
  sender.close();

  const url = `${svc.apiUrl}/api/v1/incidents?since=15m&until=${untilMs / 1000}`;
  // Waits until the whole send is analysed: the faulty service leads and the standing errors of the
  // baseline hour are there to be recognised.
  const answer = await pollJson(
    url,
    (response) =>
      response.status === 200 &&
      (response.body as Incident).suspects[0]?.service === 'currency' &&
      (response.body as Incident).groups.some((g) => g.trend === 'chronic'),
    120_000,
  );
  assert.equal(answer.status, 200, stringifyJson(answer.body));
  const incident = answer.body as Incident;
  assert.equal(incident.suspects[0]?.service, 'currency', `${spans} spans sent; ${stringifyJson(incident.suspects.slice(0, 3))}`);
  assert.equal(BigInt(incident.window_from_ns), BigInt(windowFromMs) * 1_000_000n);
  const wire = incident.suspects[0]?.evidence.filter((e) => e.kind === 'edge_latency') ?? [];
  assert.ok(wire.length > 0 && wire.every((e) => /while currency's own answer time is flat/.test(e.summary)), stringifyJson(wire));
  assert.match(incident.summary, /^Likeliest cause: currency/);
  assert.ok(
    incident.groups.some((g) => g.trend === 'chronic'),
    `the shop's standing errors are recognised as chronic: ${stringifyJson(incident.groups)}`,
  );

  // Narrowed to a service that does not call currency, nothing is suspected there.
  const narrowed = await getJson(`${svc.apiUrl}/api/v1/incidents?since=15m&until=${untilMs / 1000}&service=search`);
  assert.equal(narrowed.status, 200);
  assert.ok(!(narrowed.body as Incident).suspects.some((s) => s.service === 'currency'));
});

test("bad input is refused with the windowed routes' messages", async () => {
  const tooLong = await getJson(`${svc.apiUrl}/api/v1/incidents?since=8d`);
  assert.equal(tooLong.status, 400);
  assert.deepEqual(tooLong.body, { error: 'since must be within 1s..7d' });
  const longName = await getJson(`${svc.apiUrl}/api/v1/incidents?service=${'x'.repeat(201)}`);
  assert.equal(longName.status, 400);
});
