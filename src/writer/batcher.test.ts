import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Batcher, type BatcherOptions, type EncodedRows, type SignalSink } from './batcher.js';

/** Span rows by name, one name per line standing in for the insert payload. */
function spans(...names: string[]): EncodedRows {
  return { spans: Buffer.from(names.map((name) => `${name}\n`).join('')), spanRows: names.length, logs: new Uint8Array(0), logRows: 0 };
}

function recordingSink(failures = 0) {
  const inserts: string[][] = [];
  let left = failures;
  // Names one per line stand in for the insert payload, so an insert shows which rows it held.
  const sink: SignalSink = {
    format: 'JSONCompactEachRow',
    async writeSpans(payload) {
      if (left-- > 0) throw new Error('store down');
      inserts.push(
        payload
          .toString()
          .split('\n')
          .filter((name) => name !== ''),
      );
    },
    async writeLogs() {},
  };
  return { sink, inserts };
}

const options = (overrides: Partial<BatcherOptions> = {}): BatcherOptions => ({
  maxRows: 3,
  maxAgeMs: 30,
  backoff: { firstMs: 5, maxMs: 20 },
  nowMs: Date.now,
  onFlushed: () => {},
  onInsertFailure: () => {},
  ...overrides,
});

test('rows from several adds share one insert at max_rows, and each add resolves after it', async () => {
  const { sink, inserts } = recordingSink();
  const batcher = new Batcher(sink, options());
  const first = batcher.add(spans('a'));
  const second = batcher.add(spans('b', 'c'));
  await Promise.all([first, second]);
  assert.deepEqual(inserts, [['a', 'b', 'c']]);
});

test('a partial batch is inserted once its oldest row is max_age_ms old', async () => {
  const { sink, inserts } = recordingSink();
  const batcher = new Batcher(sink, options({ maxRows: 100, maxAgeMs: 40 }));
  const startedMs = Date.now();
  await batcher.add(spans('only'));
  assert.ok(Date.now() - startedMs >= 35, 'waited for the age bound');
  assert.deepEqual(inserts, [['only']]);
});

test('a failed insert is retried with the same rows; the add resolves only once stored', async () => {
  const { sink, inserts } = recordingSink(2);
  let failures = 0;
  const batcher = new Batcher(sink, options({ onInsertFailure: () => failures++ }));
  await batcher.add(spans('a', 'b', 'c'));
  assert.equal(failures, 2);
  assert.deepEqual(inserts, [['a', 'b', 'c']]);
});

test('close stores what is buffered', async () => {
  const { sink, inserts } = recordingSink();
  const batcher = new Batcher(sink, options({ maxRows: 100, maxAgeMs: 60_000 }));
  const pending = batcher.add(spans('late'));
  await batcher.close();
  await pending;
  assert.deepEqual(inserts, [['late']]);
});

test('close gives up on a store that stays down after the grace period, rejecting the add', async () => {
  const { sink } = recordingSink(Number.MAX_SAFE_INTEGER);
  const batcher = new Batcher(sink, options({ maxRows: 100, maxAgeMs: 60_000 }));
  const pending = batcher.add(spans('x'));
  await batcher.close(30);
  await assert.rejects(pending, /store down/);
});

test('rows piled up behind a running insert go in inserts of at most max_rows rows, oldest first, each add resolved with its own insert', async () => {
  const inserts: string[][] = [];
  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  const sink: SignalSink = {
    format: 'JSONCompactEachRow',
    async writeSpans(payload) {
      inserts.push(
        payload
          .toString()
          .split('\n')
          .filter((name) => name !== ''),
      );
      if (inserts.length === 1) await firstHeld;
    },
    async writeLogs() {},
  };
  const batcher = new Batcher(sink, options({ maxRows: 3, maxAgeMs: 60_000 }));
  const resolved: string[] = [];
  const track = (name: string, stored: Promise<void>) => stored.then(() => resolved.push(name));
  const first = track('a', batcher.add(spans('a1', 'a2', 'a3')));
  // The store is busy with a1..a3: these pile up, 8 rows in all.
  const piled = [
    track('b', batcher.add(spans('b1', 'b2'))),
    track('c', batcher.add(spans('c1'))),
    track('d', batcher.add(spans('d1', 'd2'))),
    track('e', batcher.add(spans('e1', 'e2', 'e3'))),
  ];
  assert.equal(batcher.bufferedRows, 8);
  releaseFirst();
  await Promise.all([first, ...piled]);
  assert.deepEqual(inserts, [
    ['a1', 'a2', 'a3'],
    ['b1', 'b2', 'c1'],
    ['d1', 'd2'],
    ['e1', 'e2', 'e3'],
  ]);
  assert.deepEqual(resolved, ['a', 'b', 'c', 'd', 'e']);
  assert.equal(batcher.bufferedRows, 0);
});

test('one add larger than max_rows is inserted whole, alone', async () => {
  const { sink, inserts } = recordingSink();
  const batcher = new Batcher(sink, options({ maxRows: 2, maxAgeMs: 60_000 }));
  const adds = [batcher.add(spans('a', 'b', 'c', 'd')), batcher.add(spans('e'))];
  await batcher.close();
  await Promise.all(adds);
  assert.deepEqual(inserts, [['a', 'b', 'c', 'd'], ['e']]);
});

test('span and log rows are capped each at max_rows in one insert', async () => {
  const spanInserts: number[] = [];
  const logInserts: number[] = [];
  let releaseFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
  const lines = (payload: Buffer) => payload.toString().split('\n').length - 1;
  const sink: SignalSink = {
    format: 'JSONCompactEachRow',
    async writeSpans(payload) {
      spanInserts.push(lines(payload));
      if (spanInserts.length === 1) await firstHeld;
    },
    async writeLogs(payload) {
      logInserts.push(lines(payload));
    },
  };
  const both = (spanRows: number, logRows: number): EncodedRows => ({
    spans: Buffer.from('s\n'.repeat(spanRows)),
    spanRows,
    logs: Buffer.from('l\n'.repeat(logRows)),
    logRows,
  });
  const batcher = new Batcher(sink, options({ maxRows: 4, maxAgeMs: 60_000 }));
  const adds = [batcher.add(both(4, 0)), batcher.add(both(2, 3)), batcher.add(both(2, 1)), batcher.add(both(0, 2))];
  releaseFirst();
  // The last add (2 rows) is below max_rows and would wait max_age_ms: close stores it now.
  await batcher.close();
  await Promise.all(adds);
  assert.deepEqual(spanInserts, [4, 4]);
  assert.deepEqual(logInserts, [4, 2]);
});

test('max_rows counts each table apart: span and log rows below it each wait, together past it', async () => {
  const spanInserts: number[] = [];
  const logInserts: number[] = [];
  const lines = (payload: Buffer) => payload.toString().split('\n').length - 1;
  const sink: SignalSink = {
    format: 'JSONCompactEachRow',
    async writeSpans(payload) {
      spanInserts.push(lines(payload));
    },
    async writeLogs(payload) {
      logInserts.push(lines(payload));
    },
  };
  const both = (spanRows: number, logRows: number): EncodedRows => ({
    spans: Buffer.from('s\n'.repeat(spanRows)),
    spanRows,
    logs: Buffer.from('l\n'.repeat(logRows)),
    logRows,
  });
  const batcher = new Batcher(sink, options({ maxRows: 4, maxAgeMs: 60_000 }));
  // 3 spans and 3 logs: 6 rows, but neither table has 4, so nothing is inserted yet.
  const waiting = [batcher.add(both(3, 0)), batcher.add(both(0, 3))];
  assert.equal(batcher.bufferedRows, 6);
  // The fourth span fills the spans' batch: one insert takes every add, the logs too.
  await Promise.all([...waiting, batcher.add(both(1, 0))]);
  assert.deepEqual(spanInserts, [4]);
  assert.deepEqual(logInserts, [3]);
  await batcher.close();
});

test('a log insert that fails after the spans were stored is retried alone: the spans are inserted once', async () => {
  const spanInserts: string[] = [];
  const logInserts: string[] = [];
  let logFailures = 2;
  const sink: SignalSink = {
    format: 'JSONCompactEachRow',
    async writeSpans(payload) {
      spanInserts.push(payload.toString());
    },
    async writeLogs(payload) {
      if (logFailures-- > 0) throw new Error('store down');
      logInserts.push(payload.toString());
    },
  };
  let failures = 0;
  const batcher = new Batcher(sink, options({ maxRows: 2, onInsertFailure: () => failures++ }));
  await Promise.all([
    batcher.add({ spans: Buffer.from('s1\n'), spanRows: 1, logs: Buffer.from('l1\n'), logRows: 1 }),
    batcher.add({ spans: Buffer.from('s2\n'), spanRows: 1, logs: Buffer.from('l2\n'), logRows: 1 }),
  ]);
  assert.equal(failures, 2);
  assert.deepEqual(spanInserts, ['s1\ns2\n']);
  assert.deepEqual(logInserts, ['l1\nl2\n']);
});

test("an insert's payload bytes and the adds' own buffers are released once stored", async () => {
  // Payloads of a few KiB each, in buffers of their own as the encoder thread hands them over
  // (smaller ones, and their concatenation, would be views of Buffer's shared pool, never released).
  const aLines = 'a\n'.repeat(1500);
  const bLines = 'b\n'.repeat(1500);
  const logLines = 'l\n'.repeat(1500);
  const seen: Buffer[] = [];
  const sink: SignalSink = {
    format: 'JSONCompactEachRow',
    async writeSpans(payload) {
      assert.equal(payload.toString(), aLines + bLines);
      seen.push(payload);
    },
    async writeLogs(payload) {
      assert.equal(payload.toString(), logLines);
      seen.push(payload);
    },
  };
  const own = (text: string): Buffer => {
    const bytes = Buffer.allocUnsafeSlow(text.length);
    bytes.write(text);
    return bytes;
  };
  const first = { spans: own(aLines), spanRows: 1500, logs: own(logLines), logRows: 1500 };
  const second = { spans: own(bLines), spanRows: 1500, logs: new Uint8Array(0), logRows: 0 };
  const batcher = new Batcher(sink, options({ maxRows: 3000 }));
  await Promise.all([batcher.add(first), batcher.add(second)]);
  const [spanPayload, logPayload] = seen;
  assert.ok(spanPayload !== undefined && logPayload !== undefined && seen.length === 2);
  // Two span payloads were joined into a copy: both parts and the copy are released.
  assert.deepEqual([first.spans.byteLength, second.spans.byteLength, spanPayload.byteLength], [0, 0, 0]);
  // One log payload went to the insert as it was, and was released after it.
  assert.deepEqual([first.logs.byteLength, logPayload.byteLength], [0, 0]);
});
