#!/usr/bin/env node
// `npm run lint`: installs this folder's packages when its manifests changed since the last
// install (they are the linter's own, kept out of the product's node_modules), then runs ESLint
// (type-aware, eslint.config.js), Prettier's check of the formatting (.prettierrc.json, line width 160)
// and the noUncheckedIndexedAccess ratchet. Exits 1 when any fails.
//   npm run lint              check
//   npm run lint -- --fix     apply ESLint's fixes, then check
//   npm run format            rewrite the files Prettier would change
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const stamp = join(here, 'node_modules', '.svc-lint-install.stamp');

function manifestHash() {
  const hash = createHash('sha256');
  for (const name of ['package.json', 'package-lock.json']) {
    const file = join(here, name);
    hash.update(name).update('\0').update(existsSync(file) ? readFileSync(file) : '').update('\0');
  }
  return hash.digest('hex');
}

function run(command, args, cwd = root) {
  return spawnSync(command, args, { cwd, stdio: 'inherit' }).status ?? 1;
}

const installed = existsSync(stamp) ? readFileSync(stamp, 'utf8') : '';
if (installed !== manifestHash()) {
  console.error('lint: npm install (tools/lint)');
  if (run(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error'], here) !== 0) process.exit(1);
  writeFileSync(stamp, manifestHash());
}

/** What the formatter keeps: the code under src, web, bench and scripts (fixtures and data aside, .prettierignore). */
export const FORMATTED = ['src/**/*.{ts,tsx,mjs}', 'web/src/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.{mjs,ts}'];

if (process.argv[2] === '--format') {
  process.exit(run(process.execPath, [join(here, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--write', '--log-level=warn', ...FORMATTED]));
}

const extra = process.argv.slice(2);
console.error('lint: eslint src bench scripts web/src');
const eslint = run(process.execPath, [join(here, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--config', join(here, 'eslint.config.js'), ...extra, 'src', 'bench', 'scripts', 'web/src']);
console.error('lint: prettier --check (the formatting; `npm run format` rewrites it)');
const prettier = run(process.execPath, [join(here, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--check', '--log-level=warn', ...FORMATTED]);
console.error('lint: noUncheckedIndexedAccess ratchet');
const ratchet = run(process.execPath, [join(here, 'indexed-access-ratchet.mjs')]);
console.error(`lint: eslint ${eslint === 0 ? 'passed' : 'FAILED'}, prettier ${prettier === 0 ? 'passed' : 'FAILED'}, ratchet ${ratchet === 0 ? 'passed' : 'FAILED'}`);
process.exit(eslint === 0 && prettier === 0 && ratchet === 0 ? 0 : 1);
