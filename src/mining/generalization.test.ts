/**
 * Accuracy guard: the miner's grouping and parsing accuracy may not fall below the figures reached
 * (docs/log-mining.md), on the ten LogHub 2k sets beside the repository (`../shared/data`), under
 * leave-one-dataset-out, and on the project's own corpora for the failure classes. Mining is
 * deterministic, so the floors sit just under the measured figures.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evalCorpora } from './eval-corpora.test-support.js';
import { freshNumbers, leaveOneOut, normalizeTemplate, parsingAccuracy, replayTemplateCounts, scoreAll } from './evaluation.test-support.js';
import { LOGHUB_DATASETS, defaultLoghubDir, loadLoghubSets } from '../testing/loghub.js';

/** Floors: the figures reached, rounded down. */
const FLOOR = {
  loghubMeanGa: 0.98,
  loghubMeanPa: 0.867,
  leaveOneOutMeanGa: 0.99,
  corporaMeanGa: 0.87,
  corporaMeanPa: 0.924,
};

/** Per own corpus: GA floor (each class must keep what it gained). */
const CORPUS_GA_FLOOR: Record<string, number> = {
  'early-word': 0.908,
  'optional-part': 1,
  'glued-punctuation': 0.672,
  // Since lines with and without an optional part are labelled one event (as in optional-part),
  // the miner before optional remarks scores 0.26 here (0.38 under the earlier labels). Before
  // extra trailing fields and mid-line groups joined their event (optional-run.ts), 0.54; before
  // optional adverbs in the middle of a line joined theirs, 0.785 with those lines; before optional
  // articles and auxiliaries joined theirs, 0.825 with those lines.
  handwritten: 0.902,
};

const sets = loadLoghubSets();

test('the ten LogHub 2k sets are beside the repository', () => {
  assert.deepEqual(
    sets.map((s) => s.name),
    [...LOGHUB_DATASETS],
    `expected the LogHub 2k sets under ${defaultLoghubDir()}`,
  );
  for (const s of sets) assert.equal(s.content.length, 2000, s.name);
});

test('mean GA and parsing accuracy over the ten sets stay at the reached figures', () => {
  const all = scoreAll(sets);
  const detail = all.sets.map((s) => `${s.name} ${s.ga.toFixed(4)}/${s.pa.toFixed(4)}`).join(', ');
  assert.ok(all.meanGa >= FLOOR.loghubMeanGa, `mean GA ${all.meanGa.toFixed(4)} < ${FLOOR.loghubMeanGa} (${detail})`);
  assert.ok(all.meanGa >= 0.95, 'the contract bar');
  assert.ok(all.meanPa >= FLOOR.loghubMeanPa, `mean PA ${all.meanPa.toFixed(4)} < ${FLOOR.loghubMeanPa} (${detail})`);
});

test('leave-one-dataset-out mean GA stays at the reached figure', () => {
  const loo = leaveOneOut(sets);
  const detail = loo.folds.map((f) => `${f.heldOut} ${f.ga.toFixed(4)} (${f.chosen})`).join(', ');
  assert.equal(loo.folds.length, 10);
  assert.ok(loo.meanGa >= FLOOR.leaveOneOutMeanGa, `LOO mean GA ${loo.meanGa.toFixed(4)} < ${FLOOR.leaveOneOutMeanGa} (${detail})`);
  assert.ok(loo.meanGa >= 0.9, 'the contract bar');
});

test('the own corpora for the failure classes keep their GA and parsing accuracy', () => {
  const all = scoreAll(evalCorpora());
  const detail = all.sets.map((s) => `${s.name} ${s.ga.toFixed(4)}/${s.pa.toFixed(4)}`).join(', ');
  for (const s of all.sets) {
    const floor = CORPUS_GA_FLOOR[s.name];
    assert.notEqual(floor, undefined, `no floor for corpus ${s.name}`);
    assert.ok(s.ga >= floor, `${s.name} GA ${s.ga.toFixed(4)} < ${floor}`);
  }
  assert.ok(all.meanGa >= FLOOR.corporaMeanGa, `corpora mean GA ${all.meanGa.toFixed(4)} < ${FLOOR.corporaMeanGa} (${detail})`);
  assert.ok(all.meanPa >= FLOOR.corporaMeanPa, `corpora mean PA ${all.meanPa.toFixed(4)} < ${FLOOR.corporaMeanPa} (${detail})`);
});

test('20 replays of each set, with fresh numbers in every line each time, create no template', () => {
  const fresh = freshNumbers();
  for (const set of [...sets, ...evalCorpora()]) {
    const { plain, perPass } = replayTemplateCounts(set, 20, fresh);
    assert.deepEqual(
      perPass,
      perPass.map(() => plain),
      `${set.name}: templates per pass ${perPass.join(',')}`,
    );
  }
});

test('parsing accuracy compares templates after the usual normalisation', () => {
  assert.equal(normalizeTemplate('from <*>:<*>  at <*> <*>'), 'from <*> at <*>');
  assert.equal(normalizeTemplate('user=<*>, role <*>'), 'user=<*>, role <*>');
  assert.equal(parsingAccuracy(['a <*>:<*> b', 'a <*> c'], ['a <*> b', 'a <*> b']), 0.5);
});
