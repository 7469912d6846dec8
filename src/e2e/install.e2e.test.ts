/**
 * An install without a clone: the tarball `npm pack` makes installs with `npm install -g` into a
 * fresh prefix, puts `svc` on PATH, and runs from any directory with the web app and the
 * WebAssembly scanner it ships. Slow (it installs the dependencies, the embedded engine among
 * them, some 600 MB): npm's cache makes it an offline copy when `npm ci` already ran here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { startAllInOne } from '../testing/all-in-one.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const run = promisify(execFile);

test('npm pack makes a tarball that npm install -g installs with svc on PATH, runnable from any directory with its web app and scanner', async (t) => {
  // prepack runs the same preparation as npm start (install if needed, build what changed).
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> };
  assert.equal(manifest.scripts.prepack, 'node scripts/prepare.mjs');
  assert.deepEqual(manifest.bin, { svc: 'bin/svc.js' });

  const work = mkdtempSync(join(tmpdir(), 'svc-install-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const packDir = join(work, 'pack');
  const prefix = join(work, 'prefix');
  const elsewhere = join(work, 'elsewhere');
  for (const dir of [packDir, prefix, elsewhere]) mkdirSync(dir);

  // Scripts off: npm test's preparation has built dist/ and web/dist already, and a rebuild here
  // would rewrite files other test files are loading.
  await run('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const [tarball] = readdirSync(packDir).filter((name) => name.endsWith('.tgz'));
  assert.ok(tarball !== undefined, 'npm pack wrote a tarball');

  const installStartedMs = Date.now();
  await run('npm', ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', join(packDir, tarball)], {
    cwd: elsewhere,
    maxBuffer: 64 * 1024 * 1024,
  });
  t.diagnostic(`npm install -g took ${Date.now() - installStartedMs} ms`);

  // Nothing of this checkout on the way: PATH has the prefix's bin and node, the working directory is elsewhere.
  const env = { PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter), HOME: process.env.HOME ?? work };
  const help = await run('svc', ['--help'], { cwd: elsewhere, env });
  assert.match(help.stdout, /^usage: svc <command>/);

  // `svc templates` runs the WebAssembly scanner (a package without it stops naming the file).
  const templates = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
    const child = execFile('svc', ['templates', '-'], { cwd: elsewhere, env }, (error, stdout, stderr) =>
      error === null ? resolve({ stdout, stderr }) : reject(new Error(`svc templates failed: ${error.message}\n${stderr}`)),
    );
    child.stdin!.end('job 1 done in 5 ms\njob 2 done in 7 ms\n');
  });
  assert.deepEqual(
    templates.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { template: string }).template),
    ['job <*> done in <*> ms', 'job <*> done in <*> ms'],
  );

  const dataDir = join(elsewhere, 'svc-data');
  const svc = await startAllInOne({ command: 'svc', cwd: elsewhere, dataDir, env });
  try {
    const health = await fetch(`${svc.apiUrl}/healthz`);
    assert.equal(health.status, 200);
    const index = await fetch(`${svc.apiUrl}/`);
    assert.equal(index.status, 200);
    const html = await index.text();
    assert.match(html, /<title>svc<\/title>/);
    // The page's script is served from the installed package's web/dist/assets.
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script !== undefined, html);
    assert.equal((await fetch(`${svc.apiUrl}${script}`)).status, 200);
  } finally {
    assert.equal(await svc.stop(), 0);
  }
});
