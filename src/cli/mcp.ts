/**
 * `svc mcp`: the MCP tools over stdio for desktop clients, reading a running svc's API by URL
 * (`--url` or SVC_MCP_URL), signed in with SVC_MCP_USERNAME / SVC_MCP_PASSWORD when auth is on.
 * Standard output carries only MCP messages; messages for people go to standard error.
 */

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { httpCaller } from '../mcp/http-caller.js';
import { createMcpServer } from '../mcp/mcp-server.js';

export const DEFAULT_MCP_URL = 'http://127.0.0.1:8090';
/** Client bound per API read: past the API's own bound (query_timeout_secs + 5 s, 20 s by default). */
const CALL_TIMEOUT_MS = 60_000;

export class McpUsageError extends Error {}

/** The API URL from `--url URL` / `--url=URL`, else SVC_MCP_URL, else the default. */
export function mcpUrl(args: string[], env: NodeJS.ProcessEnv): string {
  let url = env.SVC_MCP_URL !== undefined && env.SVC_MCP_URL !== '' ? env.SVC_MCP_URL : DEFAULT_MCP_URL;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (arg === '--url' && next !== undefined) {
      url = next;
      i++;
    } else if (arg.startsWith('--url=')) url = arg.slice('--url='.length);
    else throw new McpUsageError(`unknown argument ${JSON.stringify(arg)} (usage: svc mcp [--url URL])`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpUsageError(`mcp url must be an http or https URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new McpUsageError(`mcp url must be an http or https URL: ${JSON.stringify(url)}`);
  return url;
}

/** Serves MCP on stdin/stdout until the client closes stdin (or a stop signal); returns the exit status. */
export async function runMcp(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let baseUrl: string;
  try {
    baseUrl = mcpUrl(args, env);
  } catch (error) {
    if (!(error instanceof McpUsageError)) throw error;
    process.stderr.write(`svc: ${error.message}\n`);
    return 2;
  }
  const caller = httpCaller({ baseUrl, username: env.SVC_MCP_USERNAME, password: env.SVC_MCP_PASSWORD, timeoutMs: CALL_TIMEOUT_MS });
  const server = createMcpServer(caller);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.connect(transport);
  process.stderr.write(`svc mcp: serving MCP on stdio for ${baseUrl}\n`);
  await closed;
  await server.close();
  return 0;
}
