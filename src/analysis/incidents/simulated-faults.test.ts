/**
 * The incident ranking on the fault simulator, small: one fault of every kind, each in a 15-minute
 * window after a fault-free hour of the simulated shop with its background noise (chronic errors,
 * drifting traffic, pauses, background jobs), through the assembler's analysis and the logminer's
 * miner in memory. The first suspect must be the injected service. The benchmark
 * (bench/incident-faults.ts) runs many more faults of varied strength on varied services.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectedSuspect, type Fault, type FaultKind } from '../../simulator/faults.js';
import { rankScenario } from '../../testing/incident-harness.js';

const WINDOW_FROM_MS = Date.UTC(2026, 10, 3, 9, 0, 0);
const WINDOW_MINUTES = 15;
const TRACES_PER_SEC = 2;

const CASES: { kind: FaultKind; service: string; intensity: number }[] = [
  { kind: 'return_value', service: 'pricing', intensity: 0.5 },
  { kind: 'exception', service: 'catalog', intensity: 0.6 },
  { kind: 'cpu', service: 'checkout', intensity: 2 },
  { kind: 'network_delay', service: 'currency', intensity: 200 },
  { kind: 'crash', service: 'cart', intensity: 1 },
  { kind: 'slow_db', service: 'orders-db', intensity: 5 },
];

for (const [i, c] of CASES.entries()) {
  test(`${c.kind} on ${c.service}: the first suspect is ${c.service}`, () => {
    const fault: Fault = { kind: c.kind, service: c.service, fromMs: WINDOW_FROM_MS, toMs: WINDOW_FROM_MS + WINDOW_MINUTES * 60_000, intensity: c.intensity };
    const report = rankScenario({ seed: 40 + i, tracesPerSec: TRACES_PER_SEC, windowFromMs: WINDOW_FROM_MS, windowMinutes: WINDOW_MINUTES, faults: [fault] });
    const shown = report.suspects.map((s) => `${s.service} ${s.score}: ${s.evidence[0]?.summary ?? ''}`).join('\n');
    assert.equal(report.suspects[0]?.service, expectedSuspect(fault), shown);
    assert.match(report.summary, new RegExp(`^Likeliest cause: ${c.service}`));
  });
}

test('without a fault, no suspect stands out', () => {
  const report = rankScenario({ seed: 99, tracesPerSec: TRACES_PER_SEC, windowFromMs: WINDOW_FROM_MS, windowMinutes: WINDOW_MINUTES, faults: [] });
  const strong = report.suspects.filter((s) => s.score >= 50);
  assert.deepEqual(
    strong.map((s) => `${s.service} ${s.score}: ${s.evidence[0]?.summary ?? ''}`),
    [],
  );
  assert.ok(
    report.groups.some((g) => g.trend === 'chronic'),
    'the chronic errors are there and recognised',
  );
  assert.ok(!report.groups.some((g) => g.trend === 'new' && g.kind === 'error' && g.stories >= 5), 'no error group of substance is new');
});
