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
