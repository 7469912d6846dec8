/**
 * Measured figures live in one place, the README's benchmark table; docs pages link to it. A copy
 * of a figure on another page goes stale the next time the benchmark is run, so a docs page that
 * states one fails here. Settings, defaults and limits (`assembler.gap_ms` 10000 ms, the 64 MiB
 * body limit) are not measurements and pass; see measured-figures.test-support.ts for the rule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { measuredFigures, type MeasuredFigure } from './measured-figures.test-support.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const DOCS_DIR = join(ROOT, 'docs');

/** Figures the rule takes for measurements that are not: each with the reason it may stay. */
const NOT_MEASUREMENTS: readonly { page: string; figure: string; why: string }[] = [
  { page: 'getting-started.md', figure: 'about 550 MB', why: "the embedded engine's npm package: what the install needs, not a run of svc" },
  { page: 'operations.md', figure: 'about 550 MB', why: "the embedded engine's npm package: what the install needs, not a run of svc" },
  { page: 'scale-out.md', figure: 'about 550 MB', why: "the embedded engine's npm package: what the install needs, not a run of svc" },
  { page: 'getting-started.md', figure: 'about 10 seconds', why: "`assembler.gap_ms`'s default: how long a story waits for more spans" },
  { page: 'stories.md', figure: 'about 10 seconds', why: "`assembler.gap_ms`'s default: how long a story waits for more spans" },
  { page: 'getting-started.md', figure: '4 requests a second', why: 'the rate `svc demo` sends at: a setting of the demo' },
];

/**
 * Pages whose figures are still to be moved to the README by the people editing them. Once a page
 * has none left, it must leave this list, so the exemption cannot outlive its reason.
 */
const PAGES_STILL_MOVING: readonly string[] = [];

function pages(): string[] {
  return readdirSync(DOCS_DIR)
    .filter((name) => name.endsWith('.md'))
    .sort();
}

function figuresOf(page: string): MeasuredFigure[] {
  return measuredFigures(readFileSync(join(DOCS_DIR, page), 'utf8'));
}

function isAllowed(page: string, found: MeasuredFigure): boolean {
  return NOT_MEASUREMENTS.some((entry) => entry.page === page && entry.figure === found.figure);
}

test('no docs page states a measured figure: they live in the README benchmark table, which the pages link to', () => {
  const stated = pages()
    .filter((page) => !PAGES_STILL_MOVING.includes(page))
    .flatMap((page) =>
      figuresOf(page)
        .filter((found) => !isAllowed(page, found))
        .map((found) => `docs/${page}:${found.line}: ${found.figure} (${found.because})`),
    );
  assert.deepEqual(
    stated,
    [],
    'move these figures to the README benchmark table and link to it (../README.md#benchmarks), or, for a setting or limit, add it to NOT_MEASUREMENTS with the reason',
  );
});

test('every entry of the allow-list and of the pages still moving is still needed', () => {
  const stale = NOT_MEASUREMENTS.filter((entry) => !figuresOf(entry.page).some((found) => found.figure === entry.figure)).map(
    (entry) => `${entry.page}: ${entry.figure}`,
  );
  assert.deepEqual(stale, [], 'NOT_MEASUREMENTS entries that match nothing any more: remove them');
  const moved = PAGES_STILL_MOVING.filter((page) => figuresOf(page).length === 0);
  assert.deepEqual(moved, [], 'pages with no measured figure left: remove them from PAGES_STILL_MOVING');
});

test('the rule finds the figures of the README benchmark table, the very figures it keeps out of docs/', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const lines = readme.split('\n');
  const start = lines.indexOf('## Benchmarks');
  const end = lines.indexOf('### Known gaps');
  assert.ok(start > 0 && end > start, 'the README has its benchmark section');
  const flagged = new Set(measuredFigures(readme).map((found) => found.line));
  // Every row of the table with a figure of time, size or speed: all but the header and accuracy.
  const rows = lines
    .map((text, index) => ({ text, line: index + 1 }))
    .slice(start, end)
    .filter((row) => row.text.startsWith('| ') && /\d\s?(?:ms|s|MiB|MB|KiB|GiB|\/s|%)\b/.test(row.text));
  assert.ok(rows.length >= 20, `${rows.length} benchmark rows with figures`);
  assert.deepEqual(
    rows.filter((row) => !flagged.has(row.line)).map((row) => row.text.slice(0, 80)),
    [],
    'benchmark rows whose figures the rule misses',
  );
});

test('a measured figure injected into a page is found; settings and limits beside it are not', () => {
  const page = readFileSync(join(DOCS_DIR, 'operations.md'), 'utf8');
  const measured: [string, string][] = [
    ['Ingest stored 26.8k spans/s on the 2 cores.', '26.8k spans/s'],
    ['Mining runs at 1.43M lines per CPU-second.', '1.43M lines per CPU-second'],
    ['A trace by id answers in p95 41 ms (load average 3.1).', '41 ms'],
    ['Measured on 2026-11-27: RSS 802–982 MiB at 10k+10k.', '982 MiB'],
    ['Start-up takes ~0.1 s of Node.', '~0.1 s'],
    ['The tool stayed under 153 MB in three runs.', '153 MB'],
    ['An insert of a span costs 15–20 µs of CPU.', '20 µs of CPU'],
    ['| From a file, median run | 1.17M lines | 142 MB |', '142 MB'],
  ];
  for (const [sentence, figure] of measured) {
    const found = measuredFigures(`${page}\n${sentence}\n`).map((entry) => entry.figure);
    assert.ok(found.includes(figure), `"${figure}" found in "${sentence}" (found: ${found.join(', ')})`);
  }
  const settings = [
    'Traces close after `assembler.gap_ms` (10000 ms) without a new span.',
    'A body up to 64 MiB is accepted; larger is answered 413.',
    'Records are split under `kafka.max_record_bytes` (900,000 bytes).',
    'A story is slow above 1.5 x p99 and p99 + 100 ms.',
    'Exports are retried for at most 300 s, and `query_timeout_secs` is 15 s by default.',
    'Run `npm run bench -- ingest` on 2026-11-27 and write `12 ms` into the table.',
  ];
  for (const sentence of settings) {
    assert.deepEqual(measuredFigures(`${sentence}\n`), [], `nothing measured in "${sentence}"`);
  }
  assert.deepEqual(
    measuredFigures(page).filter((found) => !isAllowed('operations.md', found)),
    [],
    'docs/operations.md itself states no measured figure',
  );
});
