/** The write buffer against a store double that records writes and fails on demand. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../model/store.js';
import { StorageError } from '../model/store.js';
import type { TemplateRow } from '../store/templates.js';
import { Flusher } from './flusher.js';
import { PermanentError } from '../util/retry.js';

/** Records raw inserts per table; `failures` makes the next inserts into a table throw. */
function recordingStore(failures: Record<string, number>): Store & { inserts: Record<string, number> } {
  const inserts: Record<string, number> = {};
  return {
    inserts,
    database: 'test',
    async query() {
      return [];
    },
    async exec() {},
    async insert() {},
    async insertRaw(table: string) {
      if ((failures[table] ?? 0) > 0) {
        failures[table]--;
        throw new StorageError('down');
      }
      inserts[table] = (inserts[table] ?? 0) + 1;
    },
    async close() {},
  };
}

const row = (id: string): TemplateRow => ({
  templateId: id,
  service: 's',
  template: 't',
  count: 1,
  firstSeenNs: 1n,
  lastSeenNs: 1n,
  maxSeverity: 0,
  sample: 't',
  maskingVersion: 1,
  signature: 't',
  overflow: false,
  createdSeq: 0n,
  updatedAtMs: 1,
});
const hit = (logId: string) => ({ tsNs: 60_000_000_000n, templateId: '7', service: 's', logId, traceId: '', spanId: '', severityNumber: 9 });

describe('Flusher', () => {
  it('retries a failed flush without writing the summed minute counts twice', async () => {
    const store = recordingStore({ templates: 2 });
    const failures: number[] = [];
    const flusher = new Flusher({
      store,
      maxBatch: 100,
      flushMs: 10,
      templateRows: (ids) => [...ids].map(row),
      onFailure: (_e, attempt) => failures.push(attempt),
      backoff: { firstMs: 1, maxMs: 1 },
    });
    flusher.addHit(hit('1'), 1);
    flusher.addHit(hit('2'), 1);
    await flusher.commitPoint();
    assert.deepEqual(failures, [1, 2]);
    assert.deepEqual(store.inserts, { template_hits: 1, templates: 1, template_minutes: 1 });
  });

  it('flushes at max_batch without waiting for flush_ms, and each commit point waits for its own rows', async () => {
    const store = recordingStore({});
    const flusher = new Flusher({ store, maxBatch: 2, flushMs: 60_000, templateRows: (ids) => [...ids].map(row), onFailure: () => undefined });
    flusher.addHit(hit('1'), 1);
    flusher.addHit(hit('2'), 1);
    const started = Date.now();
    await flusher.commitPoint();
    assert.ok(Date.now() - started < 1000);
    assert.equal(store.inserts.template_hits, 1);
    assert.equal(flusher.pendingHits, 0);
    await flusher.commitPoint(); // nothing queued: resolves at once
    await flusher.close();
  });

  it('rejects the waiters of rows that can never be encoded', async () => {
    const store = recordingStore({});
    const flusher = new Flusher({ store, maxBatch: 1, flushMs: 10, templateRows: () => [], onFailure: () => undefined });
    flusher.addHit({ ...hit('not-a-number') }, 1);
    await assert.rejects(flusher.commitPoint(), PermanentError);
  });
});
