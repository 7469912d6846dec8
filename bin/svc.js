#!/usr/bin/env node
// The svc command. The TypeScript sources compile to dist/ (`npm run build`, run by npm start/test).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('svc: not built yet; run `npm run build` (npm start and npm test do it for you)\n');
  process.exit(2);
}
const { main } = await import(entry.href);
const status = await main(process.argv.slice(2), process.env);
// A failed start has closed what it opened; exit now even if a client library still holds a timer or socket.
if (status !== 0) process.exit(status);
process.exitCode = status;
