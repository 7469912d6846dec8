/**
 * scripts/prepare.mjs (run before npm start/test/bench) on a small checkout of its own: the first
 * run installs and builds, a second run with nothing changed does neither, a changed source only
 * rebuilds, a changed package.json reinstalls. Real npm, a package without dependencies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

/** A checkout whose build:server writes the build's outputs (dist/src/cli.js, the scanner's and the hash's .wasm) and logs each build. */
function makeCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-prepare-'));
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(join(ROOT, 'scripts/prepare.mjs'), join(dir, 'scripts/prepare.mjs'));
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'tsconfig.json'), '{}\n');
  const build =
    "const fs=require('fs');fs.mkdirSync('dist/src/templates',{recursive:true});fs.mkdirSync('dist/src/util',{recursive:true});fs.writeFileSync('dist/src/cli.js','');fs.writeFileSync('dist/src/templates/fingerprint.wasm','');fs.writeFileSync('dist/src/util/xxh3.wasm','');fs.appendFileSync('builds.log','build\\n')";
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'prepare-fixture', version: '1.0.0', private: true, scripts: { 'build:server': `node -e "${build}"` } }, null, 2),
  );
  return dir;
}

let lastLogLength = 0;
function readSteps(dir: string): string[] {
  const log = join(dir, 'prepare-steps.log');
  const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
  const fresh = text.slice(lastLogLength);
  lastLogLength = text.length;
  return fresh.split('\n').filter(Boolean);
}

test('prepare installs and builds on a fresh checkout, then only what changed', () => {
  const dir = makeCheckout();
  try {
    // prepare writes its steps to standard error; capture them through a wrapper that appends them to a file.
    const run = (): string[] => {
      const result = execFileSync('bash', ['-c', `node scripts/prepare.mjs 2>&1 >/dev/null | grep '^prepare:' >> prepare-steps.log || true`], {
        cwd: dir,
        encoding: 'utf8',
      });
      void result;
      return readSteps(dir);
    };
    const first = run();
    assert.equal(first.length, 2, first.join('\n'));
    assert.match(first[0] ?? '', /^prepare: npm install /);
    assert.match(first[1] ?? '', /^prepare: npm run build:server/);
    assert.ok(existsSync(join(dir, 'dist/src/cli.js')));

    assert.deepEqual(run(), [], 'nothing changed: no install, no build');

    // A source edited (a later modification time) rebuilds, without reinstalling.
    const later = new Date(Date.now() + 5_000);
    writeFileSync(join(dir, 'src/a.ts'), 'export const a = 2;\n');
    utimesSync(join(dir, 'src/a.ts'), later, later);
    assert.deepEqual(
      run().map((line) => line.split(' ').slice(0, 4).join(' ')),
      ['prepare: npm run build:server'],
    );

    // A new source file also rebuilds.
    writeFileSync(join(dir, 'src/b.ts'), 'export const b = 1;\n');
    assert.equal(run().length, 1);

    // A changed package.json reinstalls, and rebuilds (dependencies may have changed).
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, description: 'changed' }, null, 2));
    const afterManifest = run();
    assert.equal(afterManifest.length, 2, afterManifest.join('\n'));
    assert.match(afterManifest[0] ?? '', /^prepare: npm install /);
    assert.match(afterManifest[1] ?? '', /^prepare: npm run build:server/);
    assert.deepEqual(run(), [], 'the install rewrote the lock with the same content: nothing more to do');

    // The build output removed: rebuilt even though no source changed.
    rmSync(join(dir, 'dist'), { recursive: true });
    assert.equal(run().length, 1);
    // Only the WebAssembly scanner missing (a build stopped after tsc): rebuilt as well.
    rmSync(join(dir, 'dist/src/templates/fingerprint.wasm'));
    assert.equal(run().length, 1);
    // Or the WebAssembly hash.
    rmSync(join(dir, 'dist/src/util/xxh3.wasm'));
    assert.equal(run().length, 1);
    assert.equal(readFileSync(join(dir, 'builds.log'), 'utf8').trim().split('\n').length, 7);

    assert.deepEqual(run(), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
