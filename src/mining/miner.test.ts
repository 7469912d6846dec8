import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MINER_OPTIONS, LogMiner, minerOptionsFrom } from './miner.js';
import { MASKING_VERSION } from './masking.js';
import { needsRemine, restoreMiner, snapshotMiner } from './snapshot.js';
import { remine } from './remine.js';
import { templatesForLines } from './templates-tool.js';
import { corpus } from './corpus.test-support.js';

const lines = corpus(20_000, 4);

function mineAll(miner: LogMiner, input = lines): string[] {
  return input.map((l, i) => miner.mine(l.service, l.line, i, 9).id);
}

test('replaying the input 20 times creates no templates', () => {
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  mineAll(miner);
  const once = miner.templateCount();
  for (let p = 1; p < 20; p++) mineAll(miner);
  assert.ok(miner.templateCount() <= once * 1.05);
  assert.equal(miner.templateCount(), once);
});

test('fingerprint cache on and off give identical templates and ids', () => {
  const on = new LogMiner(DEFAULT_MINER_OPTIONS);
  const off = new LogMiner({ ...DEFAULT_MINER_OPTIONS, useCache: false });
  for (let p = 0; p < 3; p++) assert.deepEqual(mineAll(on), mineAll(off));
  assert.deepEqual(on.templates(), off.templates());
});

test('template ids are deterministic for the same input order', () => {
  assert.deepEqual(mineAll(new LogMiner()), mineAll(new LogMiner()));
});

test('template info carries count, first/last seen (ms), max severity and a sample', () => {
  const miner = new LogMiner();
  miner.mine('a', 'user 1 logged in', 1000, 9);
  miner.mine('a', 'user 2 logged in', 3000, 17);
  miner.mine('a', 'user 3 logged in', 2000, 5);
  const [t] = miner.templates();
  assert.equal(t.template, 'user <*> logged in');
  assert.equal(t.count, 3);
  assert.equal(t.firstSeenMs, 1000);
  assert.equal(t.lastSeenMs, 3000);
  assert.equal(t.maxSeverity, 17);
  assert.equal(t.sample, 'user 1 logged in');
});

test('settings: gpu is refused, off disables the cache', () => {
  const base = { sim_threshold: 0.5, max_clusters_per_service: 5000, keep_http_status: true };
  assert.throws(() => minerOptionsFrom({ ...base, fingerprinter: 'gpu' }), /gpu/);
  assert.equal(minerOptionsFrom({ ...base, fingerprinter: 'off' }).useCache, false);
  assert.equal(minerOptionsFrom({ ...base, fingerprinter: 'scalar' }).useCache, true);
});

test('snapshot and restore keep templates and ids; mining goes on without new templates', () => {
  const miner = new LogMiner();
  const ids = mineAll(miner);
  const snap = JSON.parse(JSON.stringify(snapshotMiner(miner))) as ReturnType<typeof snapshotMiner>;
  assert.equal(snap.maskingVersion, MASKING_VERSION);
  const restored = restoreMiner(snap, DEFAULT_MINER_OPTIONS);
  assert.deepEqual(restored.templates(), miner.templates());
  assert.deepEqual(mineAll(restored), ids);
  assert.equal(restored.templateCount(), miner.templateCount());
});

test('a snapshot of another masking version or keep_http_status needs a re-mine', () => {
  const snap = snapshotMiner(new LogMiner());
  assert.equal(needsRemine(snap, DEFAULT_MINER_OPTIONS), false);
  assert.equal(needsRemine({ ...snap, maskingVersion: MASKING_VERSION - 1 }, DEFAULT_MINER_OPTIONS), true);
  assert.equal(needsRemine(snap, { ...DEFAULT_MINER_OPTIONS, keepHttpStatus: false }), true);
  assert.throws(() => restoreMiner({ ...snap, maskingVersion: 0 }, DEFAULT_MINER_OPTIONS), /re-mine/);
});

test('remine mines stored records under the current masking', () => {
  const records = lines.slice(0, 500).map((l, i) => ({ ...l, timeMs: i, severity: 9 }));
  const result = remine(records, DEFAULT_MINER_OPTIONS);
  assert.equal(result.maskingVersion, MASKING_VERSION);
  assert.deepEqual(result.templateIds, mineAll(new LogMiner(), lines.slice(0, 500)));
});

test('templatesForLines reports each line with its template as the line is mined', () => {
  const out = templatesForLines(['user 1 logged in', 'disk full', 'user 22 logged in']);
  assert.equal(out.length, 3);
  assert.equal(out[0].template_id, out[2].template_id);
  assert.equal(out[0].template, 'user <*> logged in');
  assert.equal(out[1].template, 'disk full');
  assert.match(out[1].template_id, /^\d+$/);
});

test('empty and whitespace-only lines share one empty template', () => {
  const miner = new LogMiner();
  const a = miner.mine('s', '');
  assert.equal(miner.mine('s', '   \t').id, a.id);
  assert.equal(miner.templates()[0].template, '');
});
