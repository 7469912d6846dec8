/** The MCP server of svc: the read-only tools over an API caller, for either transport. */

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiCaller } from './api-caller.js';
import { TOOLS } from './tools.js';

export const SERVER_INFO = { name: 'svc', version: '0.1.0' };

const INSTRUCTIONS =
  'svc explains failing and slow requests as stories (root cause, path, critical path, baseline difference, logs), grouped by fingerprint, and mines log templates with alerts. ' +
  'Start with whats_wrong, then get_story on a sample_story_id; narrow with the list and search tools. All tools are read-only. ' +
  '*_ns values are exact decimal strings (Unix ns or ns durations); *_ms values are numbers.';

/** A server with every tool registered; each call reads the API through `caller`. */
export function createMcpServer(caller: ApiCaller): McpServer {
  const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { title: tool.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      (args: Record<string, unknown>) => tool.run(caller, args),
    );
  }
  return server;
}
