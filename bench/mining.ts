/**
 * Log-mining benchmark: throughput with and without the fingerprint cache, parallel mining,
 * template growth under replay (also with fresh numbers in every line), and on the LogHub 2k sets
 * grouping accuracy (GA), parsing accuracy (PA) and leave-one-dataset-out GA, plus GA/PA on the
 * project's own corpora for the failure classes of unseen logs. One figure a line.
 * `table` prints GA, PA, FGA and FTA per system on the corpora from real software's log statements
 * (testdata/log-corpora) and on the ten LogHub sets, as Markdown tables.
 * Usage: node dist/bench/mining.js [all|ga|speed|table] [data_dir]
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupingAccuracy } from '../src/mining/accuracy.test-support.js';
import { evalCorpora } from '../src/mining/eval-corpora.test-support.js';
import { leaveOneOut, scoreAll, scoreTable } from '../src/mining/evaluation.test-support.js';
import { loadCorpora } from '../src/testing/log-corpora.js';
import { defaultLoghubDir, loadLoghubSets, type LabelledSet } from '../src/testing/loghub.js';
import { DEFAULT_MINER_OPTIONS, LogMiner, type MinerOptions } from '../src/mining/miner.js';
import { ParallelMiner } from '../src/mining/parallel.js';

type Dataset = LabelledSet;

/** GA of one dataset mined as one service with the given options. */
export function datasetAccuracy(data: Dataset, options: MinerOptions = DEFAULT_MINER_OPTIONS): number {
  const miner = new LogMiner(options);
  const predicted = data.content.map((line) => miner.mine(data.name, line).id);
  return groupingAccuracy(predicted, data.eventIds);
}

interface Rate {
  /** Lines per second of wall time. */
  wall: number;
  /** Lines per second of process CPU time: the figure without other processes' load. */
  cpu: number;
}

function linesPerSecond(all: Dataset[], options: MinerOptions, minSeconds: number): Rate {
  // Warm up on one pass, then time whole passes (templates already learned: steady state, the
  // common case in production where most lines match known templates).
  const miner = new LogMiner(options);
  const pass = (): number => {
    let n = 0;
    for (const d of all)
      for (const line of d.content) {
        miner.mine(d.name, line);
        n++;
      }
    return n;
  };
  pass();
  let lines = 0;
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  let elapsedS = 0;
  while (elapsedS < minSeconds) {
    lines += pass();
    elapsedS = Number(process.hrtime.bigint() - start) / 1e9;
  }
  const cpu = process.cpuUsage(cpuStart);
  return { wall: lines / elapsedS, cpu: lines / ((cpu.user + cpu.system) / 1e6) };
}

async function parallelLinesPerSecond(all: Dataset[], minSeconds: number): Promise<number> {
  const miner = new ParallelMiner(DEFAULT_MINER_OPTIONS, 2);
  try {
    const batch: { service: string; line: string; timeMs: number; severity: number }[] = [];
    for (const d of all) for (const line of d.content) batch.push({ service: d.name, line, timeMs: 0, severity: 0 });
    await miner.mineBatch(batch);
    let lines = 0;
    const start = process.hrtime.bigint();
    let elapsedS = 0;
    while (elapsedS < minSeconds) {
      await miner.mineBatch(batch);
      lines += batch.length;
      elapsedS = Number(process.hrtime.bigint() - start) / 1e9;
    }
    return lines / elapsedS;
  } finally {
    await miner.close();
  }
}

/** 1 when mining with the cache off gives the same template per line as with it, over 3 passes. */
function cacheIdentical(all: Dataset[]): number {
  const on = new LogMiner(DEFAULT_MINER_OPTIONS);
  const off = new LogMiner({ ...DEFAULT_MINER_OPTIONS, useCache: false });
  for (let p = 0; p < 3; p++) {
    for (const d of all) for (const line of d.content) if (on.mine(d.name, line).id !== off.mine(d.name, line).id) return 0;
  }
  return JSON.stringify(on.templates()) === JSON.stringify(off.templates()) ? 1 : 0;
}

/**
 * Lines per second of a first pass over every set (templates being learned), measured on a fresh
 * miner after a warm-up miner has run the same code (JIT), under other service names.
 */
function firstPassLinesPerSecond(all: Dataset[]): number {
  const run = (suffix: string): number => {
    const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
    let n = 0;
    const start = process.hrtime.bigint();
    for (const d of all)
      for (const line of d.content) {
        miner.mine(d.name + suffix, line);
        n++;
      }
    return n / (Number(process.hrtime.bigint() - start) / 1e9);
  };
  run('-warmup');
  return run('');
}

/** Template count after one pass and after `passes`; with `freshNumbers`, every digit run of every line is a number never seen before. */
function replayGrowth(all: Dataset[], passes: number, freshNumbers = false): { once: number; after: number } {
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  let next = 0;
  const fresh = (line: string): string => line.replace(/\d+/g, () => String(++next));
  let once = 0;
  for (let p = 0; p < passes; p++) {
    for (const d of all) for (const line of d.content) miner.mine(d.name, freshNumbers ? fresh(line) : line);
    if (p === 0) once = miner.templateCount();
  }
  return { once, after: miner.templateCount() };
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const mode = argv[0] ?? 'all';
  const dir = resolve(argv[1] ?? defaultLoghubDir());
  const all = loadLoghubSets(dir);
  if (all.length === 0) throw new Error(`no LogHub 2k datasets under ${dir}`);
  if (mode === 'all' || mode === 'table') {
    const corpora = loadCorpora();
    const language = new Map(corpora.map((c) => [c.name, c.language]));
    console.log(scoreTable('System (real log statements)', scoreAll(corpora).sets, language));
    console.log('');
    console.log(scoreTable('LogHub 2k set', scoreAll(all).sets));
  }
  if (mode === 'all' || mode === 'ga') {
    let sum = 0;
    for (const d of all) {
      const ga = datasetAccuracy(d);
      sum += ga;
      console.log(`mining_ga_${d.name.toLowerCase()} ${ga.toFixed(4)}`);
    }
    console.log(`mining_ga_mean ${(sum / all.length).toFixed(4)}`);
    const scored = scoreAll(all);
    for (const d of scored.sets) console.log(`mining_pa_${d.name.toLowerCase()} ${d.pa.toFixed(4)}`);
    console.log(`mining_pa_mean ${scored.meanPa.toFixed(4)}`);
    // Develop on nine, judge the tenth: the option grid point chosen on the others, per set.
    const loo = leaveOneOut(all);
    for (const f of loo.folds) console.log(`mining_loo_ga_${f.heldOut.toLowerCase()} ${f.ga.toFixed(4)} (${f.chosen})`);
    console.log(`mining_loo_ga_mean ${loo.meanGa.toFixed(4)}`);
    console.log(`mining_loo_pa_mean ${loo.meanPa.toFixed(4)}`);
    const corpora = evalCorpora();
    const own = scoreAll(corpora);
    for (const d of own.sets) console.log(`mining_corpus_${d.name} ga ${d.ga.toFixed(4)} pa ${d.pa.toFixed(4)} templates ${d.templates}`);
    console.log(`mining_corpora_ga_mean ${own.meanGa.toFixed(4)}`);
    console.log(`mining_corpora_pa_mean ${own.meanPa.toFixed(4)}`);
    // The same selection over the ten and the own corpora together (each judged unseen).
    const wide = leaveOneOut([...all, ...corpora]);
    console.log(`mining_loo_ga_mean_ten_and_corpora ${wide.meanGa.toFixed(4)}`);
  }
  if (mode === 'all' || mode === 'speed') {
    console.log(`mining_lines_per_sec_first_pass ${Math.round(firstPassLinesPerSecond(all))}`);
    const cached = linesPerSecond(all, DEFAULT_MINER_OPTIONS, 3);
    console.log(`mining_lines_per_sec_cache ${Math.round(cached.wall)}`);
    console.log(`mining_lines_per_cpu_sec_cache ${Math.round(cached.cpu)}`);
    const uncached = linesPerSecond(all, { ...DEFAULT_MINER_OPTIONS, useCache: false }, 3);
    console.log(`mining_lines_per_sec_no_cache ${Math.round(uncached.wall)}`);
    console.log(`mining_lines_per_cpu_sec_no_cache ${Math.round(uncached.cpu)}`);
    const parallel = await parallelLinesPerSecond(all, 3);
    console.log(`mining_lines_per_sec_parallel_2 ${Math.round(parallel)}`);
    const growth = replayGrowth(all, 20);
    console.log(`mining_templates_after_1_pass ${growth.once}`);
    console.log(`mining_templates_after_20_passes ${growth.after}`);
    const freshGrowth = replayGrowth(all, 20, true);
    console.log(`mining_templates_after_1_pass_fresh_numbers ${freshGrowth.once}`);
    console.log(`mining_templates_after_20_passes_fresh_numbers ${freshGrowth.after}`);
    console.log(`mining_cache_off_equals_on ${cacheIdentical(all)}`);
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
