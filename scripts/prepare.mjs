#!/usr/bin/env node
// Run before `npm start`, `npm test` and `npm run bench`: installs the packages and builds, but only
// what changed since the last time, so a restart of an installed and built checkout costs well
// under a second here while a fresh clone still installs and builds everything first.
//   node scripts/prepare.mjs            server and web app (the server as it ships: tsconfig.build.json)
//   node scripts/prepare.mjs --bench    the server with its tests, test support and benchmarks (tsconfig.json)
//   node scripts/prepare.mjs --tests    as --bench, and the web app's unit tests
// An install is redone when package.json or package-lock.json changed (by content) since the last
// one; a build when a file it reads was added, removed or modified since the last build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const web = join(root, 'web');
const withTests = process.argv.includes('--tests');
const withBench = withTests || process.argv.includes('--bench');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Stamps live under node_modules: absent on a fresh clone, never committed, never served. */
const stampDir = join(root, 'node_modules', '.svc-prepare');

function stampPath(name) {
  return join(stampDir, `${name}.stamp`);
}

function readStamp(name) {
  try {
    return readFileSync(stampPath(name), 'utf8');
  } catch {
    return undefined;
  }
}

function writeStamp(name, value) {
  mkdirSync(stampDir, { recursive: true });
  writeFileSync(stampPath(name), value);
}

function run(args, cwd = root) {
  console.error(`prepare: npm ${args.join(' ')}${cwd === root ? '' : ` (in ${relative(root, cwd)})`}`);
  const result = spawnSync(npm, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Content hash of the files that decide what an install puts in node_modules. */
function manifestHash(dir) {
  const hash = createHash('sha256');
  for (const name of ['package.json', 'package-lock.json']) {
    const file = join(dir, name);
    hash
      .update(name)
      .update('\0')
      .update(existsSync(file) ? readFileSync(file) : '')
      .update('\0');
  }
  return hash.digest('hex');
}

/**
 * Paths, sizes and modification times of every file under `paths` (files or directories): any
 * edit, addition or removal changes it; reading it is a directory walk, no file contents.
 */
function treeFingerprint(paths) {
  const entries = [];
  const walk = (path) => {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules' && name !== 'dist' && name !== '.test-dist') walk(join(path, name));
    } else {
      entries.push(`${relative(root, path)}\0${stat.size}\0${stat.mtimeMs}`);
    }
  };
  for (const path of paths) walk(path);
  return createHash('sha256').update(entries.sort().join('\n')).digest('hex');
}

/** npm rewrites node_modules/.package-lock.json on every install: newer than both manifests means an install (e.g. CI's own) already ran. */
function installedByNpmSince(dir) {
  try {
    const installedMs = statSync(join(dir, 'node_modules', '.package-lock.json')).mtimeMs;
    return ['package.json', 'package-lock.json'].every((name) => statSync(join(dir, name)).mtimeMs < installedMs);
  } catch {
    return false;
  }
}

function install(name, dir) {
  if (!existsSync(join(dir, 'package.json'))) return;
  const before = manifestHash(dir);
  if (existsSync(join(dir, 'node_modules')) && (readStamp(name) === before || installedByNpmSince(dir))) {
    writeStamp(name, before);
    return;
  }
  run(['install', '--no-audit', '--no-fund', '--loglevel=error'], dir);
  // npm may rewrite the lock; the stamp is what the next run will compare against.
  writeStamp(name, manifestHash(dir));
}

/**
 * Runs `npmArgs` when the inputs' fingerprint differs from the last successful build's, or one of
 * `outputs` is missing. The package's manifests count by content (an install rewrites the lock unchanged).
 */
function build(name, inputs, outputs, npmArgs, cwd = root) {
  const fingerprint = `${treeFingerprint(inputs)}:${manifestHash(cwd)}`;
  if (outputs.every((output) => existsSync(output)) && readStamp(name) === fingerprint) return;
  run(npmArgs, cwd);
  writeStamp(name, fingerprint);
}

install('install-root', root);
install('install-web', web);

const serverInputs = ['src', 'assembly', 'bench', 'scripts', 'tsconfig.json', 'tsconfig.build.json'].map((path) => join(root, path));
// The full build compiles the product too (same options, same dist/), so it stands in for build:server.
// The TypeScript, and the WebAssembly scanner and hash (assembly/, built by build:wasm after tsc).
const serverOutputs = [
  join(root, 'dist', 'src', 'cli.js'),
  join(root, 'dist', 'src', 'templates', 'fingerprint.wasm'),
  join(root, 'dist', 'src', 'util', 'xxh3.wasm'),
];
if (withBench) build('build-tests', serverInputs, serverOutputs, ['run', 'build:tests', '--silent']);
else build('build-server', serverInputs, serverOutputs, ['run', 'build:server', '--silent']);

if (existsSync(join(web, 'package.json'))) {
  const webInputs = ['src', 'index.html', 'vite.config.ts', 'tsconfig.json'].map((path) => join(web, path));
  build('build-web', webInputs, [join(web, 'dist', 'index.html')], ['run', 'build', '--silent'], web);
  if (withTests) {
    build('build-web-tests', [...webInputs, join(web, 'tsconfig.test.json')], [join(web, '.test-dist')], ['run', 'build:tests', '--silent'], web);
  }
}
