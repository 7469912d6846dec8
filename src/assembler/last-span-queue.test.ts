import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LastSpanQueue } from './last-span-queue.js';

interface Trace {
  id: string;
  lastSpanAtMs: number;
}

/** A tiny owner: stamps, pushes and closes the way the trace buffer does. */
class Owner {
  readonly queue = new LastSpanQueue<Trace>();
  readonly open = new Map<string, Trace>();

  span(id: string, nowMs: number): void {
    let trace = this.open.get(id);
    if (trace === undefined) this.open.set(id, (trace = { id, lastSpanAtMs: nowMs }));
    else if (trace.lastSpanAtMs === nowMs) return;
    trace.lastSpanAtMs = nowMs;
    this.queue.push(trace, nowMs, this.open.size);
  }

  close(trace: Trace): void {
    this.open.delete(trace.id);
    trace.lastSpanAtMs = NaN;
  }

  due(nowMs: number, gapMs: number): string[] {
    const ids: string[] = [];
    this.queue.takeDue(nowMs, gapMs, (trace) => {
      ids.push(trace.id);
      this.close(trace);
    });
    return ids;
  }
}

test('traces come due in the order of their last span, each once, however often stamped', () => {
  const owner = new Owner();
  owner.span('a', 0);
  owner.span('b', 1);
  owner.span('a', 2); // a's first entry goes stale
  owner.span('c', 3);
  owner.span('b', 4);
  assert.deepEqual(owner.due(11, 10), []);
  assert.deepEqual(owner.due(12, 10), ['a']);
  assert.deepEqual(owner.due(14, 10), ['c', 'b']);
  assert.equal(owner.queue.length, 0);
  assert.deepEqual(owner.due(100, 10), []);
});

test('stops at the first current entry not yet due, even behind it are older stale ones', () => {
  const owner = new Owner();
  owner.span('a', 0);
  owner.span('b', 5);
  owner.span('a', 6);
  assert.deepEqual(owner.due(15, 10), ['b']);
  assert.deepEqual(owner.due(15, 10), []);
  assert.deepEqual(owner.due(16, 10), ['a']);
});

test('a trace closed by its owner (max_age, buffer) never comes due, and a new piece of its id does in its own turn', () => {
  const owner = new Owner();
  owner.span('a', 0);
  owner.span('b', 1);
  owner.close(owner.open.get('a')!);
  owner.span('a', 2); // a new piece under the same id
  assert.deepEqual(owner.due(11, 10), ['b']);
  assert.deepEqual(owner.due(12, 10), ['a']);
});

test('stale entries are dropped once they outnumber the open traces: the queue stays bounded by them', () => {
  const owner = new Owner();
  for (let i = 0; i < 10; i++) owner.span(`t${i}`, 0);
  // One trace stamped again and again: every older entry of it is stale.
  for (let ms = 1; ms <= 50_000; ms++) {
    owner.span('t0', ms);
    assert.ok(owner.queue.length <= 2 * owner.open.size + 1024 + 1, `queue ${owner.queue.length} for ${owner.open.size} open traces`);
  }
  assert.deepEqual(owner.due(50_000 + 10, 10).sort(), ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8', 't9']);
  assert.equal(owner.queue.length, 0);
});

test('clear() forgets every entry', () => {
  const owner = new Owner();
  owner.span('a', 0);
  owner.queue.clear();
  assert.equal(owner.queue.length, 0);
  assert.deepEqual(owner.due(100, 10), []);
});
