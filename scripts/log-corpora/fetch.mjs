#!/usr/bin/env node
// Brings the source of each system in systems.mjs into SOURCES_DIR with the registry's ordinary
// client (apt-get source, pip download, npm pack, mvn dependency:get, go mod download, cargo
// fetch) and unpacks it where systems.mjs says (`root`). Debian needs deb-src entries in apt's
// sources and `apt-get update` first. Nothing is fetched into the repository.
//
//   node scripts/log-corpora/fetch.mjs SOURCES_DIR [system ...]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SYSTEMS } from './systems.mjs';

function run(argv, cwd, env = {}) {
  const r = spawnSync(argv[0], argv.slice(1), { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed in ${cwd}`);
}

function fetchOne(sys, dir) {
  const target = join(dir, sys.root);
  if (existsSync(target)) return;
  const work = join(dir, '.fetch', sys.registry);
  mkdirSync(work, { recursive: true });
  switch (sys.registry) {
    case 'debian': {
      run(sys.fetch, work);
      const orig = readdirSync(work).find((f) => f.startsWith(`${sys.package}_${sys.version}.orig.tar`) && !f.endsWith('.asc'));
      if (!orig) throw new Error(`${sys.name}: no upstream tarball in ${work}`);
      run(['tar', '-xf', join(work, orig), '-C', dir], dir);
      break;
    }
    case 'pypi': {
      run([...sys.fetch, '-d', work], work);
      const wheel = readdirSync(work).find(
        (f) => f.toLowerCase().startsWith(`${sys.package.toLowerCase().replace(/-/g, '_')}-${sys.version}`) && f.endsWith('.whl'),
      );
      if (!wheel) throw new Error(`${sys.name}: no wheel in ${work}`);
      mkdirSync(target, { recursive: true });
      run(['unzip', '-q', '-o', join(work, wheel)], target);
      break;
    }
    case 'npm': {
      run(sys.fetch, work);
      const tgz = readdirSync(work).find((f) => f === `${sys.package}-${sys.version}.tgz`);
      if (!tgz) throw new Error(`${sys.name}: no tarball in ${work}`);
      const unpackTo = join(target, '..');
      mkdirSync(unpackTo, { recursive: true });
      run(['tar', '-xzf', join(work, tgz)], unpackTo);
      break;
    }
    case 'maven': {
      run(sys.fetch, work);
      const [group, artifact, version] = sys.package.split(':').concat(sys.version);
      const jar = join(homedir(), '.m2', 'repository', ...group.split('.'), artifact, version, `${artifact}-${version}-sources.jar`);
      mkdirSync(target, { recursive: true });
      run(['unzip', '-q', '-o', jar], target);
      break;
    }
    case 'go':
      run(sys.fetch, work, { GOPATH: join(dir, 'gopath'), GOFLAGS: '-modcacherw' });
      break;
    case 'crates': {
      // One manifest naming every crate wanted, then cargo's own download and unpack.
      const crate = join(work, 'fetch');
      mkdirSync(join(crate, 'src'), { recursive: true });
      const deps = SYSTEMS.filter((s) => s.registry === 'crates').map((s) => `${s.package} = "=${s.version}"`);
      writeFileSync(join(crate, 'Cargo.toml'), `[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n${deps.join('\n')}\n`);
      writeFileSync(join(crate, 'src', 'lib.rs'), '');
      run(['cargo', 'fetch'], crate);
      const registry = join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'registry', 'src');
      const index = readdirSync(registry).find((d) => existsSync(join(registry, d, `${sys.package}-${sys.version}`)));
      if (!index) throw new Error(`${sys.name}: not in ${registry}`);
      if (!existsSync(join(dir, 'cargo'))) symlinkSync(join(registry, index), join(dir, 'cargo'));
      break;
    }
    default:
      throw new Error(`${sys.name}: unknown registry ${sys.registry}`);
  }
  if (!existsSync(target)) throw new Error(`${sys.name}: ${target} missing after fetch`);
}

const [dir, ...only] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/log-corpora/fetch.mjs SOURCES_DIR [system ...]');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
for (const sys of SYSTEMS) {
  if (only.length > 0 && !only.includes(sys.name)) continue;
  console.error(`${sys.name}: ${sys.fetch.join(' ')}`);
  fetchOne(sys, dir);
}
