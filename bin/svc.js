#!/usr/bin/env node
// The svc command. The TypeScript sources compile to dist/ (`npm run build`, run by npm start/test).
import { existsSync } from 'node:fs';

// `svc templates` loads only the miner (src/cli/templates-main.ts says why).
const entry = new URL(process.argv[2] === 'templates' ? '../dist/src/cli/templates-main.js' : '../dist/src/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('svc: not built yet; run `npm run build` (npm start and npm test do it for you)\n');
  process.exit(2);
}
const args = process.argv.slice(2);
let status;
if (args[0] === 'mcp') {
  // Desktop clients start `svc mcp` on demand: load only the MCP code, not every component's (the
  // storage engine alone takes seconds to load).
  const { runMcp } = await import(new URL('../dist/src/cli/mcp.js', import.meta.url).href);
  status = await runMcp(args.slice(1), process.env);
} else {
  const { main } = await import(entry.href);
  status = await main(args, process.env);
}
// A failed start has closed what it opened; exit now even if a client library still holds a timer or socket.
if (status !== 0) process.exit(status);
process.exitCode = status;
