#!/usr/bin/env node
// Runs every compiled benchmark (dist/bench/*.js, each exporting main()) one after another and
// prints their figures, one per line. `npm run bench -- NAME` runs only benchmarks whose file
// name contains NAME. Benchmarks are never timed tests: they report, they do not assert.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import os from 'node:os';

const root = new URL('..', import.meta.url).pathname;
const filter = process.argv[2];
const dir = join(root, 'dist', 'bench');
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.js') && !name.endsWith('.test.js') && (!filter || name.includes(filter)))
  .sort();
console.log(
  `# svc benchmarks, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown cpu'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
);
for (const name of files) {
  const module = await import(pathToFileURL(join(dir, name)).href);
  if (typeof module.main !== 'function') continue;
  console.log(`## ${name.replace(/\.js$/, '')}`);
  await module.main([]);
}
