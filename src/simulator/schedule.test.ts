import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAULT_KINDS, faultTargets } from './faults.js';
import { DEMO_KIND_ORDER, faultSchedule, INTENSITY_RANGE, variedFaults } from './schedule.js';
import { createSimulator } from './simulate.js';
import { shopModel } from './shop.js';

test('a demo schedule: one fault every period, rotating through every kind on valid targets, clipped to the end', () => {
  const model = shopModel();
  const startMs = 1_000_000;
  const faults = faultSchedule({ seed: 4, model, startMs, endMs: startMs + 30 * 60_000, firstAfterMs: 20_000, everyMs: 4 * 60_000, lastingMs: 3 * 60_000 });
  assert.equal(faults.length, 8);
  faults.forEach((fault, index) => {
    assert.equal(fault.kind, DEMO_KIND_ORDER[index % DEMO_KIND_ORDER.length]);
    assert.ok(faultTargets(fault.kind, model).includes(fault.service), `${fault.kind} on ${fault.service}`);
    assert.equal(fault.fromMs, startMs + 20_000 + index * 4 * 60_000);
    assert.ok(fault.toMs <= startMs + 30 * 60_000);
  });
  assert.equal(faults[0]!.toMs - faults[0]!.fromMs, 3 * 60_000);
  assert.equal(faults.at(-1)!.toMs, startMs + 30 * 60_000);
  assert.deepEqual(
    faultSchedule({ seed: 4, model, startMs, endMs: startMs + 30 * 60_000, firstAfterMs: 20_000, everyMs: 4 * 60_000, lastingMs: 3 * 60_000 }),
    faults,
  );
  assert.ok(new Set(faults.map((fault) => fault.service)).size >= 5, 'targets vary');
  const oneMinute = faultSchedule({ seed: 4, model, startMs, endMs: startMs + 60_000, firstAfterMs: 20_000, everyMs: 4 * 60_000, lastingMs: 3 * 60_000 });
  assert.deepEqual(
    oneMinute.map((fault) => [fault.kind, fault.fromMs, fault.toMs]),
    [['return_value', startMs + 20_000, startMs + 60_000]],
  );
});

test('varied faults for a benchmark: every kind, targets used about equally, intensities over the whole range', () => {
  const model = shopModel();
  const specs = variedFaults({ seed: 1, model, perKind: 40 });
  assert.equal(specs.length, 40 * FAULT_KINDS.length);
  for (const kind of FAULT_KINDS) {
    const ofKind = specs.filter((spec) => spec.kind === kind);
    assert.equal(ofKind.length, 40);
    const targets = faultTargets(kind, model);
    const uses = targets.map((target) => ofKind.filter((spec) => spec.service === target).length);
    assert.ok(Math.max(...uses) - Math.min(...uses) <= 1, `${kind}: ${uses.join(',')}`);
    const [min, max] = INTENSITY_RANGE[kind];
    const intensities = ofKind.map((spec) => spec.intensity ?? NaN);
    assert.equal(Math.min(...intensities), min);
    assert.equal(Math.max(...intensities), max);
    // Every spec can be injected.
    createSimulator({ seed: 1, tracesPerSec: 1, faults: ofKind.map((spec) => ({ ...spec, fromMs: 0, toMs: 1 })) });
  }
  assert.deepEqual(variedFaults({ seed: 1, model, perKind: 40 }), specs);
  assert.notDeepEqual(variedFaults({ seed: 2, model, perKind: 40 }), specs);
});
