import { test } from 'node:test';
import assert from 'node:assert/strict';
import { templateText } from './drain.js';
import { DEFAULT_MINER_OPTIONS, LogMiner } from './miner.js';
import { ParallelMiner, workerForService } from './parallel.js';
import { corpus } from './corpus.test-support.js';

test('parallel mining gives the same templates and ids as scalar mining', async () => {
  const records = corpus(6000, 6).map((l, i) => ({ ...l, timeMs: i, severity: 9 }));
  const scalar = new LogMiner(DEFAULT_MINER_OPTIONS);
  const expected = records.map((r) => scalar.mine(r.service, r.line, r.timeMs, r.severity));
  const parallel = new ParallelMiner(DEFAULT_MINER_OPTIONS, 2);
  try {
    const first = await parallel.mineBatch(records.slice(0, 2500));
    const second = await parallel.mineBatch(records.slice(2500));
    const got = [...first, ...second];
    assert.deepEqual(
      got.map((g) => g.templateId),
      expected.map((c) => c.id),
    );
    // The texts of the last batch are the final ones.
    for (let i = 2500; i < records.length; i++) assert.equal(got[i].template, templateText(expected[i]));
    const sortById = <T extends { templateId: string }>(xs: T[]): T[] => [...xs].sort((a, b) => a.templateId.localeCompare(b.templateId));
    assert.deepEqual(sortById(await parallel.templates()), sortById(scalar.templates()));
    const snap = await parallel.snapshot();
    assert.equal(snap.templates.length, scalar.templateCount());
  } finally {
    await parallel.close();
  }
});

test('services are spread over workers by a stable hash', () => {
  assert.equal(workerForService('checkout', 2), workerForService('checkout', 2));
  const owners = new Set(Array.from({ length: 20 }, (_, i) => workerForService(`svc-${i}`, 2)));
  assert.equal(owners.size, 2);
});

test('createMiner picks the miner for each fingerprinter mode', async () => {
  const { createMiner } = await import('./create-miner.js');
  const base = { sim_threshold: 0.5, max_clusters_per_service: 5000, keep_http_status: true };
  const off = createMiner({ ...base, fingerprinter: 'off' });
  assert.equal(off.mode, 'scalar');
  assert.equal(off.mode === 'scalar' && off.miner.options.useCache, false);
  assert.equal(createMiner({ ...base, fingerprinter: 'scalar' }).mode, 'scalar');
  assert.throws(() => createMiner({ ...base, fingerprinter: 'gpu' }), /not supported/);
  const par = createMiner({ ...base, fingerprinter: 'parallel' });
  assert.equal(par.mode, 'parallel');
  if (par.mode === 'parallel') await par.miner.close();
});
