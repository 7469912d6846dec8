#!/usr/bin/env node
// The noUncheckedIndexedAccess ratchet. The flag is brought in folder by folder: this compiles the
// project with it, and the web app (web/tsconfig.json) with it, counts the errors in each top-level
// folder (src/<room>, src for files directly under it, bench, scripts, web/src/<folder>) and
// compares them with indexed-access-baseline.json beside this file.
//   a count above its baseline (a folder absent from it counts as 0)  fails: fix the new ones
//   a count below its baseline                                        fails: lower the baseline
//   node tools/lint/indexed-access-ratchet.mjs --lower                lowers the baseline to the counts (never raises it)
// so a folder once clean stays clean and the total only goes down.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');
const baselineFile = join(here, 'indexed-access-baseline.json');
const tscIn = (dir) => join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'tsc.cmd' : 'tsc');
/** The server's project and the web app's, each with its own compiler; `prefix` makes the web's paths relative to the root. */
const projects = [
  { tsc: tscIn(root), cwd: root, prefix: '' },
  { tsc: tscIn(join(root, 'web')), cwd: join(root, 'web'), prefix: 'web/' },
];
const lower = process.argv.includes('--lower');

/** The compilers' error lines (`path(line,col): error TSnnnn: ...`, paths from the root) with or without the flag. */
function compileErrors(flags) {
  return projects.flatMap(({ tsc, cwd, prefix }) => {
    const result = spawnSync(tsc, ['-p', 'tsconfig.json', '--noEmit', '--pretty', 'false', ...flags], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.error) throw result.error;
    return result.stdout
      .split('\n')
      .filter((line) => /^[^\s(]+\(\d+,\d+\): error TS\d+/.test(line))
      .map((line) => `${prefix}${line}`);
  });
}

/** src/api/routes/x.ts → src/api; src/cli.ts → src; bench/x.ts → bench; web/src/pages/x.tsx → web/src/pages. */
function folderOf(path) {
  const parts = path.split(/[\\/]/);
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : 'src';
  if (parts[0] === 'web' && parts[1] === 'src') return parts.length > 3 ? `web/src/${parts[2]}` : 'web/src';
  return parts[0];
}

// Errors that are there without the flag are the type checker's to report, not the ratchet's.
const plain = compileErrors([]);
if (plain.length > 0) {
  console.error(plain.slice(0, 20).join('\n'));
  console.error(`ratchet: the project does not type-check (${plain.length} errors above, without noUncheckedIndexedAccess); fix those first`);
  process.exit(1);
}

const counts = {};
for (const line of compileErrors(['--noUncheckedIndexedAccess'])) {
  const folder = folderOf(line.slice(0, line.indexOf('(')));
  counts[folder] = (counts[folder] ?? 0) + 1;
}
const baseline = JSON.parse(readFileSync(baselineFile, 'utf8'));
const folders = [...new Set([...Object.keys(baseline), ...Object.keys(counts)])].sort();

if (lower) {
  const lowered = Object.fromEntries(folders.map((folder) => [folder, Math.min(baseline[folder] ?? 0, counts[folder] ?? 0)]));
  writeFileSync(baselineFile, `${JSON.stringify(lowered, null, 2)}\n`);
  console.log(`ratchet: baseline lowered to ${Object.values(lowered).reduce((a, b) => a + b, 0)} errors`);
}

const rose = folders.filter((folder) => (counts[folder] ?? 0) > (baseline[folder] ?? 0));
const fell = lower ? [] : folders.filter((folder) => (counts[folder] ?? 0) < (baseline[folder] ?? 0));
for (const folder of rose) console.error(`ratchet: ${folder} has ${counts[folder]} noUncheckedIndexedAccess errors, baseline ${baseline[folder] ?? 0}: check the new index reads (npx tsc -p tsconfig.json --noEmit --noUncheckedIndexedAccess)`);
for (const folder of fell) console.error(`ratchet: ${folder} is down to ${counts[folder] ?? 0} from ${baseline[folder]}: lower the baseline (node tools/lint/indexed-access-ratchet.mjs --lower) and commit it`);
const total = Object.values(counts).reduce((a, b) => a + b, 0);
const clean = folders.filter((folder) => (counts[folder] ?? 0) === 0);
console.log(`ratchet: ${total} noUncheckedIndexedAccess errors in ${folders.length - clean.length} folders; clean: ${clean.join(', ') || 'none'}`);
process.exit(rose.length > 0 || fell.length > 0 ? 1 : 0);
