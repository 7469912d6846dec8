/**
 * What ships is the product alone: the build that ships (tsconfig.build.json) compiles every
 * product source and no test or test support, and `npm pack` lists no test file or test support
 * even from a dist/ that the test build filled (package.json `files` filters it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTestCode } from './testing/test-code.js';

/** The repository root: this file runs from dist/src/. */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

/** Every .ts under src/ as a posix path under src/. */
function sources(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(relative(SRC, path).split(/[\\/]/).join('/'));
    }
  };
  walk(SRC);
  return found.sort();
}

const productSources = () => sources().filter((file) => !isTestCode(file));

test('the build that ships compiles every product source and nothing else from src/', () => {
  const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
  const listed = execFileSync(tsc, ['-p', 'tsconfig.build.json', '--listFilesOnly'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const compiled = listed
    .split('\n')
    .map((line) => line.trim())
    .filter((path) => path.startsWith(SRC + '/') || path.startsWith(SRC + '\\'))
    .map((path) => relative(SRC, path).split(/[\\/]/).join('/'))
    .sort();
  assert.ok(compiled.includes('cli.ts'), `the CLI is compiled (listed ${compiled.length} sources)`);
  assert.deepEqual(compiled.filter(isTestCode), [], 'tsconfig.build.json compiles tests or test support');
  assert.deepEqual(
    productSources().filter((file) => !compiled.includes(file)),
    [],
    'tsconfig.build.json leaves out product sources',
  );
});

test('npm pack ships the compiled product and no test file or test support', () => {
  const report = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const [pack] = JSON.parse(report) as { files: { path: string }[] }[];
  assert.ok(pack !== undefined, 'npm pack reported a package');
  const shipped = pack.files.map((file) => file.path);
  const compiledUnderSrc = shipped.filter((path) => path.startsWith('dist/src/')).map((path) => path.slice('dist/src/'.length).replace(/\.js(\.map)?$/, '.ts'));
  assert.deepEqual(compiledUnderSrc.filter(isTestCode), [], 'test files or test support in the package');
  assert.deepEqual(
    shipped.filter((path) => !path.startsWith('dist/src/') && !path.startsWith('bin/') && !path.startsWith('web/dist/') && !/^[^/]+$/.test(path)),
    [],
    'only dist/src/, bin/, web/dist/ and top-level files ship',
  );
  // Run from dist/, so the test build has filled it: every product module is there to ship.
  assert.deepEqual(
    productSources().filter((file) => !compiledUnderSrc.includes(file)),
    [],
    'product modules missing from the package',
  );
  // Not compiled by tsc but by build:wasm: `svc templates` loads the scanner at run time, every log id the hash.
  assert.ok(shipped.includes('dist/src/templates/fingerprint.wasm'), 'the WebAssembly scanner is in the package');
  assert.ok(shipped.includes('dist/src/util/xxh3.wasm'), 'the WebAssembly hash is in the package');
  assert.ok(shipped.includes('bin/svc.js'), 'the svc command ships');
  // npm test's preparation built the web app; web/.npmignore keeps web/.gitignore (which ignores dist/) from hiding it.
  assert.ok(shipped.includes('web/dist/index.html'), 'the built web app ships');
});
