import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isProgramName } from './program-name.js';
import { DrainTree } from './drain.js';
import { maskLine } from './masking.js';

test('a program name is a plain or path-like word before a colon', () => {
  for (const t of ['raft:', 'plugin/geoip:', 'ciod:', 'Kombu:']) assert.equal(isProgramName(t), true, t);
  for (const t of ['a:', 'raft', '<*>:', 'worker-3:', 'search-index:', 'app.tasks.send_email:', 'status', '"x":', 'term=1:'])
    assert.equal(isProgramName(t), false, t);
});

test("after a program's name the tree keys on the next word too, so the program's events do not crowd one leaf", () => {
  const tree = new DrainTree('raft', { simThreshold: 0.5, maxClusters: 100 });
  const tokens = (text: string): string[] => maskLine(text, { keepHttpStatus: true }).tokens;
  const starting = tree.leafFor(tokens('raft: starting snapshot up to: index=1'));
  assert.notEqual(tree.leafFor(tokens('raft: compacting logs up to: index=2')), starting);
  assert.equal(tree.leafFor(tokens('raft: starting snapshot up to: index=3')), starting);
  // A short line after a label keys on the label alone: the word after it is as often a value.
  assert.equal(tree.leafFor(tokens('status: stopped -> READY')), tree.leafFor(tokens('status: leader -> READY')));
  // A compound first name varies: it keys as a value.
  assert.equal(tree.leafFor(tokens('worker-3: starting snapshot up to: index=1')), tree.leafFor(tokens('search-index: starting compaction up to: index=2')));
});
