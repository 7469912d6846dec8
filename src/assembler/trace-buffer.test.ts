import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LogRow, SpanRow } from '../model/signals.js';
import { TraceBuffer, type TraceBufferOptions } from './trace-buffer.js';
import { readHex32, RecentClosed } from './recent-closed.js';
import { logBytes, spanBytes } from './row-bytes.js';

const T = (n: number) => n.toString(16).padStart(32, '0');

function span(traceId: string, id: number): SpanRow {
  return {
    traceId,
    spanId: id.toString(16).padStart(16, '0'),
    parentSpanId: '',
    serviceName: 'api',
    name: `op${id}`,
    kind: 'server',
    startNs: 1_763_800_000_000_000_000n,
    endNs: 1_763_800_000_010_000_000n,
    status: 'unset',
    statusMessage: '',
    attrs: [],
    resource: [],
    events: [],
    scopeName: '',
    scopeVersion: '',
  };
}

function log(traceId: string, body = 'hello'): LogRow {
  return {
    logId: '1',
    tsNs: 1n,
    observedTsNs: 1n,
    traceId,
    spanId: '',
    serviceName: 'api',
    severityNumber: 9,
    severityText: 'INFO',
    body,
    attrs: [],
    resource: [],
    scopeName: '',
    scopeVersion: '',
  };
}

/** Every span 100 bytes and every log 10, so byte limits are easy to reason about. */
function buffer(overrides: Partial<TraceBufferOptions> = {}): TraceBuffer {
  return new TraceBuffer({
    gapMs: 10_000,
    maxAgeMs: 60_000,
    maxSpans: 10_000,
    maxBufferBytes: 1_000_000,
    recentPerPartition: 100,
    spanBytes: () => 100,
    logBytes: () => 10,
    ...overrides,
  });
}

describe('closing rules', () => {
  test('gap: closes gapMs after the last span, not before; a new span restarts the gap', () => {
    const b = buffer();
    b.add(0, T(1), [span(T(1), 1)], [], 0);
    b.add(0, T(1), [span(T(1), 2)], [], 5_000);
    assert.deepEqual(b.closeDue(14_999), []);
    const closed = b.closeDue(15_000);
    assert.equal(closed.length, 1);
    assert.equal(closed[0].reason, 'gap');
    assert.equal(closed[0].truncated, false);
    assert.equal(closed[0].spans.length, 2);
    assert.equal(b.openTraces, 0);
    assert.equal(b.bufferedBytes, 0);
  });

  test('gap: logs do not keep a trace open', () => {
    const b = buffer();
    b.add(0, T(1), [span(T(1), 1)], [], 0);
    b.add(0, T(1), [], [log(T(1))], 9_000);
    const closed = b.closeDue(10_000);
    assert.equal(closed.length, 1);
    assert.equal(closed[0].logs.length, 1);
  });

  test('max_age: a trace that keeps receiving spans closes maxAgeMs after it opened', () => {
    const b = buffer();
    for (let t = 0; t < 60_000; t += 5_000) b.add(0, T(1), [span(T(1), t + 1)], [], t);
    assert.deepEqual(b.closeDue(59_999), []);
    const closed = b.closeDue(60_000);
    assert.equal(closed.length, 1);
    assert.equal(closed[0].reason, 'max_age');
    assert.equal(closed[0].spans.length, 12);
    assert.equal(closed[0].truncated, false);
  });

  test('due traces close in order and only those due', () => {
    const b = buffer();
    b.add(0, T(1), [span(T(1), 1)], [], 0);
    b.add(0, T(2), [span(T(2), 1)], [], 1_000);
    b.add(0, T(3), [span(T(3), 1)], [], 2_000);
    b.add(0, T(1), [span(T(1), 2)], [], 2_500); // T(1) now has the latest span
    assert.deepEqual(
      b.closeDue(11_500).map((c) => c.traceId),
      [T(2)],
    );
    assert.deepEqual(
      b.closeDue(12_500).map((c) => c.traceId),
      [T(3), T(1)],
    );
  });

  test('spans of several traces in one millisecond (one batch), then more later: each closes gapMs after its own last span', () => {
    const b = buffer();
    b.add(0, T(1), [span(T(1), 1)], [], 1_000);
    b.add(0, T(2), [span(T(2), 1)], [], 1_000);
    b.addEncoded(0, T(1), { signal: 'traces', items: 2, value: Buffer.alloc(10) }, 1_000); // T(1) again, same ms
    b.add(0, T(3), [span(T(3), 1)], [], 1_000);
    b.add(0, T(2), [span(T(2), 2)], [], 3_000);
    b.add(0, T(4), [span(T(4), 1)], [], 3_000);
    b.add(0, T(4), [span(T(4), 2)], [], 3_000);
    assert.deepEqual(b.closeDue(10_999), []);
    assert.deepEqual(
      b.closeDue(11_000).map((c) => [c.traceId, c.spans.length + c.chunks.length]),
      [
        [T(1), 2],
        [T(3), 1],
      ],
    );
    assert.deepEqual(b.closeDue(12_999), []);
    assert.deepEqual(
      b.closeDue(13_000).map((c) => [c.traceId, c.spans.length]),
      [
        [T(2), 2],
        [T(4), 2],
      ],
    );
  });

  test('max_spans: exactly maxSpans stays open; one more closes it truncated and the extra spans are late', () => {
    const b = buffer({ maxSpans: 3 });
    assert.deepEqual(b.add(0, T(1), [span(T(1), 1), span(T(1), 2), span(T(1), 3)], [], 0).closed, []);
    assert.equal(b.openTraces, 1);
    const result = b.add(0, T(1), [span(T(1), 4), span(T(1), 5)], [log(T(1))], 10);
    assert.equal(result.closed.length, 1);
    assert.equal(result.closed[0].reason, 'max_spans');
    assert.equal(result.closed[0].truncated, true);
    assert.equal(result.closed[0].spans.length, 3);
    assert.equal(result.closed[0].logs.length, 1, 'the logs that came with the overflow stay with the trace');
    assert.equal(result.late, 2);
    assert.equal(b.add(0, T(1), [span(T(1), 6)], [], 20).late, 1, 'later spans of the cut trace are late');
  });

  test('max_spans within one record larger than the limit', () => {
    const b = buffer({ maxSpans: 2 });
    const result = b.add(0, T(1), [span(T(1), 1), span(T(1), 2), span(T(1), 3)], [], 0);
    assert.equal(result.closed[0].spans.length, 2);
    assert.equal(result.late, 1);
  });

  test('buffer bound: when all traces exceed maxBufferBytes the oldest close first, truncated', () => {
    const b = buffer({ maxBufferBytes: 350 });
    b.add(0, T(1), [span(T(1), 1)], [], 0);
    b.add(1, T(2), [span(T(2), 1)], [], 1);
    b.add(0, T(3), [span(T(3), 1)], [], 2);
    assert.equal(b.bufferedBytes, 300);
    const result = b.add(2, T(4), [span(T(4), 1)], [], 3);
    assert.deepEqual(
      result.closed.map((c) => [c.traceId, c.reason, c.truncated]),
      [[T(1), 'buffer', true]],
    );
    assert.equal(b.bufferedBytes, 300);
    // A burst closes as many of the oldest as needed.
    const burst = b.add(0, T(5), [span(T(5), 1), span(T(5), 2)], [], 4);
    assert.deepEqual(
      burst.closed.map((c) => c.traceId),
      [T(2), T(3)],
    );
    assert.equal(b.openTraces, 2);
    assert.equal(b.bufferedBytes, 300);
  });

  test('buffer bound: adding to an old trace still evicts the oldest, which may be that trace', () => {
    const b = buffer({ maxBufferBytes: 250 });
    b.add(0, T(1), [span(T(1), 1)], [], 0);
    b.add(0, T(2), [span(T(2), 1)], [], 1);
    const result = b.add(0, T(1), [span(T(1), 2)], [], 2);
    assert.deepEqual(
      result.closed.map((c) => [c.traceId, c.spans.length]),
      [[T(1), 2]],
    );
  });

  test('the default byte estimate grows with attributes, events and bodies', () => {
    const plain = span(T(1), 1);
    const rich: SpanRow = {
      ...plain,
      attrs: [['http.url', 'x'.repeat(1000)]],
      events: [{ tsNs: 1n, name: 'exception', attrs: [['exception.stacktrace', 'y'.repeat(500)]] }],
    };
    assert.ok(spanBytes(rich) >= spanBytes(plain) + 3000);
    assert.ok(logBytes(log(T(1), 'z'.repeat(2000))) >= logBytes(log(T(1), '')) + 4000);
  });

  test('closeAll closes every open trace, oldest first', () => {
    const b = buffer();
    b.add(0, T(2), [span(T(2), 1)], [], 0);
    b.add(0, T(1), [span(T(1), 1)], [], 1);
    const closed = b.closeAll();
    assert.deepEqual(
      closed.map((c) => [c.traceId, c.reason]),
      [
        [T(2), 'shutdown'],
        [T(1), 'shutdown'],
      ],
    );
    assert.equal(b.openTraces, 0);
  });
});

describe('logs-only traces', () => {
  test('a trace with logs and no spans produces nothing and is not remembered', () => {
    const b = buffer();
    b.add(0, T(1), [], [log(T(1)), log(T(1))], 0);
    assert.equal(b.openTraces, 1);
    assert.deepEqual(b.closeDue(10_000), []);
    assert.equal(b.openTraces, 0);
    assert.equal(b.bufferedBytes, 0);
    assert.equal(b.rememberedIn(0), 0);
    // Its spans arriving later open a trace normally instead of being late.
    assert.equal(b.add(0, T(1), [span(T(1), 1)], [], 11_000).late, 0);
    assert.equal(b.openTraces, 1);
  });

  test('logs that arrive before the spans join the trace', () => {
    const b = buffer();
    b.add(0, T(1), [], [log(T(1))], 0);
    b.add(0, T(1), [span(T(1), 1)], [], 3_000);
    const closed = b.closeDue(13_000);
    assert.equal(closed.length, 1);
    assert.equal(closed[0].logs.length, 1);
    assert.equal(closed[0].openedAtMs, 0);
  });

  test('a logs-only trace evicted by the byte bound produces nothing', () => {
    const b = buffer({ maxBufferBytes: 150 });
    b.add(0, T(1), [], [log(T(1))], 0);
    const result = b.add(0, T(2), [span(T(2), 1), span(T(2), 2)], [], 1);
    assert.deepEqual(
      result.closed.map((c) => c.traceId),
      [T(2)],
    );
  });
});

describe('late items and pieces', () => {
  test('spans and logs of a trace closed less than maxAgeMs after it opened are late, and not buffered', () => {
    const b = buffer();
    b.add(3, T(1), [span(T(1), 1)], [], 0);
    assert.equal(b.closeDue(10_000).length, 1);
    const result = b.add(3, T(1), [span(T(1), 2)], [log(T(1)), log(T(1))], 12_000);
    assert.equal(result.late, 3);
    assert.equal(result.newPieces, 0);
    assert.equal(b.openTraces, 0);
    assert.equal(b.add(3, T(1), [span(T(1), 3)], [], 59_999).late, 1);
  });

  test('a span maxAgeMs or more after the closed piece opened starts a new piece, analysed on its own', () => {
    const b = buffer();
    b.add(0, T(1), [span(T(1), 1)], [], 0);
    b.closeDue(10_000);
    const result = b.add(0, T(1), [span(T(1), 2)], [], 60_000);
    assert.equal(result.late, 0);
    assert.equal(result.newPieces, 1);
    const piece = b.closeDue(70_000);
    assert.equal(piece.length, 1);
    assert.deepEqual(
      piece[0].spans.map((s) => s.name),
      ['op2'],
    );
    // The new piece is remembered in turn: a straggler after it is late again.
    assert.equal(b.add(0, T(1), [span(T(1), 3)], [], 71_000).late, 1);
  });

  test('a trace closed by max_age is continued by a new piece at once', () => {
    const b = buffer();
    for (let t = 0; t < 60_000; t += 5_000) b.add(0, T(1), [span(T(1), t + 1)], [], t);
    assert.equal(b.closeDue(60_000)[0].reason, 'max_age');
    const result = b.add(0, T(1), [span(T(1), 99)], [], 60_001);
    assert.equal(result.newPieces, 1);
    assert.equal(b.openTraces, 1);
  });

  test('closed ids are remembered per partition, the last recentPerPartition of each', () => {
    const b = buffer({ recentPerPartition: 2 });
    for (const id of [1, 2, 3]) b.add(0, T(id), [span(T(id), 1)], [], 0);
    b.add(1, T(9), [span(T(9), 1)], [], 0);
    b.closeDue(10_000);
    assert.equal(b.rememberedIn(0), 2);
    assert.equal(b.rememberedIn(1), 1);
    // T(1) was forgotten (oldest of partition 0): its straggler opens a trace instead of being late.
    assert.equal(b.add(0, T(1), [span(T(1), 2)], [], 11_000).late, 0);
    assert.equal(b.add(0, T(2), [span(T(2), 2)], [], 11_000).late, 1);
    assert.equal(b.add(1, T(9), [span(T(9), 2)], [], 11_000).late, 1);
  });
});

describe('RecentClosed', () => {
  test('is a ring: the oldest id is forgotten past capacity; re-remembering moves an id to the newest', () => {
    const ring = new RecentClosed(3);
    ring.remember(T(1), 1);
    ring.remember(T(2), 2);
    ring.remember(T(3), 3);
    ring.remember(T(1), 4); // T(1) is now the newest; its old slot is empty
    ring.remember(T(4), 5);
    assert.equal(ring.openedAt(T(1)), 4);
    assert.equal(ring.openedAt(T(2)), undefined);
    assert.equal(ring.openedAt(T(3)), 3);
    assert.equal(ring.openedAt(T(4)), 5);
    assert.ok(ring.size <= 3);
    ring.remember(T(5), 6);
    ring.remember(T(6), 7);
    assert.equal(ring.size, 3);
    assert.equal(ring.openedAt(T(3)), undefined);
  });

  test('ids that are not 32 hex characters work too (hashed to 128 bits)', () => {
    const ring = new RecentClosed(2);
    ring.remember('not-hex', 1);
    ring.remember('ABCDEF', 2);
    assert.equal(ring.openedAt('not-hex'), 1);
    assert.equal(ring.openedAt('ABCDEF'), 2);
    assert.equal(ring.openedAt('abcdef'), undefined);
    ring.forget('not-hex');
    assert.equal(ring.openedAt('not-hex'), undefined);
    assert.equal(ring.size, 1);
  });

  test('matches a plain Map-and-queue model over many random operations (collisions, deletions, wrap-around)', () => {
    const capacity = 64;
    const ring = new RecentClosed(capacity);
    const model = new Map<string, number>();
    const order: string[] = [];
    let seed = 12345;
    const rand = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
    // Few distinct ids, all sharing their first words, so probe chains collide and wrap.
    const id = (n: number) => `00000000000000000000${n.toString(16).padStart(12, '0')}`;
    for (let step = 0; step < 20_000; step++) {
      const key = id(rand(200));
      const op = rand(10);
      if (op < 6) {
        ring.remember(key, step);
        if (model.has(key)) order.splice(order.indexOf(key), 1, '');
        model.set(key, step);
        order.push(key);
        // The ring evicts by slot: count slots, including emptied ones, like the ring does.
        while (order.length > capacity) {
          const evicted = order.shift()!;
          if (evicted !== '') model.delete(evicted);
        }
      } else if (op < 8) {
        ring.forget(key);
        if (model.has(key)) order.splice(order.indexOf(key), 1, '');
        model.delete(key);
      } else {
        assert.equal(ring.openedAt(key), model.get(key), `step ${step}`);
      }
      assert.equal(ring.size, model.size);
    }
  });

  test("reads a trace id's hex as parseInt of its four 8-character slices does, and refuses what is not 32 lowercase hex", () => {
    const words = new Uint32Array(4);
    let seed = 99;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const ids = ['0'.repeat(32), 'f'.repeat(32), '0123456789abcdef'.repeat(2), '80000000ffffffff7fffffff00000001'];
    for (let i = 0; i < 500; i++) ids.push([rand(), rand(), rand(), rand()].map((n) => n.toString(16).padStart(8, '0')).join(''));
    for (const id of ids) {
      assert.ok(readHex32(id, words), id);
      assert.deepEqual(
        [...words],
        [0, 1, 2, 3].map((i) => Number.parseInt(id.slice(i * 8, i * 8 + 8), 16)),
        id,
      );
    }
    for (const bad of [
      '',
      'a'.repeat(31),
      'a'.repeat(33),
      'A'.repeat(32),
      `${'a'.repeat(31)}g`,
      `${'a'.repeat(31)}/`,
      `:${'a'.repeat(31)}`,
      `${'a'.repeat(16)}\u00e9${'a'.repeat(15)}`,
    ]) {
      assert.equal(readHex32(bad, words), false, bad);
    }
  });

  test('refuses a capacity below 1', () => {
    assert.throws(() => new RecentClosed(0), RangeError);
  });
});

describe('encoded chunks', () => {
  const chunk = (signal: 'traces' | 'logs', items: number, bytes = 200) => ({ signal, items, value: Buffer.alloc(bytes) });

  test('are kept as bytes, keep the trace open like rows, and come back on close', () => {
    const b = buffer();
    assert.deepEqual(b.addEncoded(0, T(1), chunk('traces', 3), 0), { late: 0, newPieces: 0, closed: [] });
    b.add(0, T(1), [span(T(1), 9)], [], 1_000);
    b.addEncoded(0, T(1), chunk('logs', 2), 2_000);
    assert.ok(b.bufferedBytes >= 400 + 100, 'chunk bytes counted');
    assert.deepEqual(b.closeDue(10_999), [], 'the gap runs from the last span, not the log chunk');
    const [closed] = b.closeDue(11_000);
    assert.equal(closed.spans.length, 1);
    assert.deepEqual(
      closed.chunks.map((c) => [c.signal, c.items]),
      [
        ['traces', 3],
        ['logs', 2],
      ],
    );
    assert.equal(b.bufferedBytes, 0);
  });

  test('a logs-only trace of chunks closes to nothing; late chunks are counted by their items', () => {
    const b = buffer();
    b.addEncoded(0, T(2), chunk('logs', 4), 0);
    assert.deepEqual(b.closeDue(60_000), []);
    b.addEncoded(0, T(3), chunk('traces', 2), 0);
    assert.equal(b.closeDue(10_000).length, 1);
    assert.deepEqual(b.addEncoded(0, T(3), chunk('traces', 5), 20_000), { late: 5, newPieces: 0, closed: [] });
  });

  test('a chunk that would pass max_spans is refused unchanged, so the caller can cut exactly', () => {
    const b = buffer({ maxSpans: 4 });
    b.addEncoded(0, T(4), chunk('traces', 3), 0);
    assert.equal(b.addEncoded(0, T(4), chunk('traces', 2), 1), null);
    assert.equal(b.openTraces, 1);
    const result = b.add(0, T(4), [span(T(4), 1), span(T(4), 2)], [], 2);
    assert.equal(result.late, 1);
    assert.equal(result.closed[0].reason, 'max_spans');
    assert.equal(result.closed[0].spans.length + result.closed[0].chunks[0].items, 4);
  });

  test('chunks count against the byte bound, oldest trace closed first', () => {
    const b = buffer({ maxBufferBytes: 1_000 });
    b.addEncoded(0, T(5), chunk('traces', 1, 500), 0);
    const result = b.addEncoded(0, T(6), chunk('traces', 1, 500), 1)!;
    assert.deepEqual(
      result.closed.map((c) => [c.traceId, c.reason, c.truncated]),
      [[T(5), 'buffer', true]],
    );
  });
});
