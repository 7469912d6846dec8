/**
 * `/mcp` on the API address: MCP over Streamable HTTP, stateless (a fresh server and transport per
 * POST, answers as JSON, no MCP sessions), so any API replica can answer any request. Credentials
 * are checked by the API's auth hook like any /api/ route; the tools' reads carry them on.
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { RouteModule } from '../api/server.js';
import { ApiError, sendError } from '../api/errors.js';
import { createInjectCallers } from './inject-caller.js';
import { createMcpServer } from './mcp-server.js';

export const MCP_PATH = '/mcp';

/** Browsers send Origin; a page on another origin must not drive /mcp (DNS rebinding, per the MCP spec). */
function foreignOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined || origin === 'null') return origin === 'null';
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

function toWebRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(`http://${request.headers.host ?? 'localhost'}${MCP_PATH}`, { method: 'POST', headers });
}

async function handlePost(callers: ReturnType<typeof createInjectCallers>, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (foreignOrigin(request)) return sendError(reply, new ApiError(403, 'origin not allowed'));
  const caller = callers({ authorization: request.headers.authorization, cookie: request.headers.cookie, remoteAddress: request.socket.remoteAddress });
  const server = createMcpServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(toWebRequest(request), { parsedBody: request.body });
    response.headers.forEach((value, name) => void reply.header(name, value));
    return reply.code(response.status).send(await response.text());
  } finally {
    await server.close();
  }
}

/**
 * Registers POST /mcp. An MCP client's GET (asking for an event stream) and DELETE answer 405, as a
 * server without streams or sessions may; any other GET of /mcp is the app's, like every non-API GET.
 */
export function mcpRoutes(): RouteModule {
  return (app) => {
    const callers = createInjectCallers(app);
    app.post(MCP_PATH, (request, reply) => handlePost(callers, request, reply));
    app.delete(MCP_PATH, async (_request, reply) => notAllowed(reply));
    app.addHook('onRequest', async (request, reply) => {
      if (request.url.split('?')[0] !== MCP_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) return;
      if ((request.headers.accept ?? '').includes('text/event-stream')) return notAllowed(reply);
    });
    // MCP clients read the scheme from the challenge when /mcp refuses them.
    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode === 401 && request.url.split('?')[0] === MCP_PATH) void reply.header('www-authenticate', 'Basic realm="svc", charset="UTF-8"');
      return payload;
    });
  };
}

function notAllowed(reply: FastifyReply): FastifyReply {
  return sendError(reply.header('allow', 'POST'), new ApiError(405, 'method not allowed'));
}
