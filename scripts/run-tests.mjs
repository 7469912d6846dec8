#!/usr/bin/env node
// Runs the compiled test files with node's test runner and ends with the plain line
// `N passed, N failed, N skipped` that CI reads.
//   node scripts/run-tests.mjs            every test
//   node scripts/run-tests.mjs --e2e      only end-to-end tests (*.e2e.test.js)
//   SVC_TEST_NODE=/path/to/node ...       run the tests on another Node binary
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const onlyE2e = process.argv.includes('--e2e');
const nodeBin = process.env.SVC_TEST_NODE || process.execPath;

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.js')) found.push(path);
  }
  return found;
}

// The server's compiled tests, and the web app's own unit tests (compiled by `npm --prefix web run build:tests`).
const webTests = join(root, 'web', '.test-dist');
const files = [...findTests(join(root, 'dist')), ...(existsSync(webTests) ? findTests(webTests) : [])]
  .filter((file) => !onlyE2e || file.endsWith('.e2e.test.js'))
  .sort();
if (files.length === 0) {
  console.log('no test files found under dist/ (run npm run build first)');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const tapDir = mkdtempSync(join(tmpdir(), 'svc-tests-'));
const tapFile = join(tapDir, 'results.tap');
const args = [
  '--test',
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  '--test-reporter=tap',
  `--test-reporter-destination=${tapFile}`,
  ...files.map((file) => relative(root, file)),
];
console.log(`running ${files.length} test files on ${nodeBin === process.execPath ? `node ${process.version}` : nodeBin}`);
const child = spawn(nodeBin, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, SVC_TEST_ROOT: root } });
const exitCode = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));

let tap = '';
try {
  tap = readFileSync(tapFile, 'utf8');
} catch {
  // no report: counted as a failure below
}
rmSync(tapDir, { recursive: true, force: true });
const count = (label) => {
  const matches = [...tap.matchAll(new RegExp(`^# ${label} (\\d+)$`, 'gm'))];
  return matches.length === 0 ? 0 : Number(matches[matches.length - 1][1]);
};
const passed = count('pass');
const failed = count('fail') + count('cancelled') + (tap === '' || (exitCode !== 0 && count('fail') + count('cancelled') === 0) ? 1 : 0);
const skipped = count('skipped') + count('todo');
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
if (process.env.SVC_TEST_SUMMARY) {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(process.env.SVC_TEST_SUMMARY, JSON.stringify({ passed, failed, skipped }));
}
process.exit(failed > 0 ? 1 : 0);
