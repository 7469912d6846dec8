/**
 * Errors answered before a request reaches a route, in the contract's `{"error": "<message>"}`
 * shape: Node's HTTP parser errors (too-large headers, a malformed request, a timeout), which
 * fastify otherwise answers with its own extra fields, and fastify's URL errors.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody, errorHeaders, sendError } from './errors.js';

/**
 * True for /api and /jaeger (the Jaeger query API) and everything under them: those paths belong to
 * the JSON APIs, never to the app, and take the API's credentials and time limits.
 */
export function isApiPath(url: string): boolean {
  const pathname = url.split('?', 1)[0] ?? '';
  return pathname === '/api' || pathname.startsWith('/api/') || pathname === '/jaeger' || pathname.startsWith('/jaeger/');
}

function parserError(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return new ApiError(431, 'request header fields too large');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ApiError(408, 'request timeout');
  return new ApiError(400, 'bad request');
}

/**
 * fastify's `clientErrorHandler`. The request line and headers are not parsed yet, so the path is
 * unknown: every such answer takes the API's shape. The connection is closed after it, as Node does.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = parserError(error.code);
  const body = JSON.stringify(errorBody(answer));
  const headers = Object.entries(errorHeaders(answer))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\n${headers}` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'invalid url',
  FST_ERR_MAX_PARAM_LENGTH: 'url too long',
};

/** fastify's `frameworkErrors`: a URL it cannot route (bad percent-encoding, a path parameter too long). */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void sendError(reply, new ApiError(status, FRAMEWORK_MESSAGES[error.code] ?? 'bad request'));
}
