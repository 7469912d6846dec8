#!/usr/bin/env node
// The svc command. The TypeScript sources compile to dist/ (`npm run build`, run by npm start/test).
import { existsSync } from 'node:fs';

// `svc templates` loads only the miner (src/cli/templates-main.ts says why).
const entry = new URL(process.argv[2] === 'templates' ? '../dist/src/cli/templates-main.js' : '../dist/src/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('svc: not built yet; run `npm run build` (npm start and npm test do it for you)\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2), process.env);
