import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Logger } from '../util/log.js';
import type { Acceptor, AcceptResult } from './accept.js';
import type { DecodedExport, SignalCodec } from './codec.js';
import { BodyCutShort, declaredLength, HttpReject, HttpRetryLater, MAX_OTLP_MESSAGE_BYTES, readBodyWithin, UNKNOWN_LENGTH_FIRST_BYTES } from './http-body.js';
import type { InFlightBudget } from './in-flight-budget.js';
import { heldBytesFor } from './in-flight-estimate.js';
import type { IngestMetrics } from './metrics.js';
import { encodeExportResponse } from './partial-success.js';
import { BROKER_UNAVAILABLE_MESSAGE, RETRY_AFTER_SECS, retryMessage, type RetryReason } from './refusal.js';
import { encodeRpcStatus, GRPC_CODE } from './rpc-status.js';

export { MAX_OTLP_MESSAGE_BYTES } from './http-body.js';

type Encoding = 'protobuf' | 'json';

/** Every route of the OTLP/HTTP listener; anything else is 404 (HEAD /metrics is GET's). */
export const OTLP_HTTP_ROUTES = [
  { method: 'POST', url: '/v1/traces', signal: 'traces' },
  { method: 'POST', url: '/v1/logs', signal: 'logs' },
  { method: 'GET', url: '/metrics', signal: undefined },
] as const;

export interface OtlpHttpDeps {
  acceptor: Acceptor;
  codec: SignalCodec;
  metrics: IngestMetrics;
  registry: Registry;
  logger: Logger;
  budget: InFlightBudget;
}

/**
 * OTLP/HTTP: POST /v1/traces and /v1/logs (protobuf or JSON, gzip accepted), GET /metrics; anything
 * else 404. An export is admitted by the in-flight budget before its body is read; past the budget
 * it is answered 503 with Retry-After at once, and its body is discarded as it arrives (the
 * connection stays open for the client's next export).
 */
/** How long an idle keep-alive connection stays open (advertised to clients in `Keep-Alive: timeout=`). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export function createOtlpHttpServer(deps: OtlpHttpDeps) {
  let stopping = false;
  /** Settles once the server stopped and its last connection ended. */
  let closed: Promise<void> | undefined;
  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      deps.logger.error({ err: error }, 'otlp http handler failed');
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  // Slow clients must not hold sockets forever.
  server.requestTimeout = 120_000;
  // OpenTelemetry SDKs export every 5 s by default, which is exactly Node's default keep-alive
  // timeout: the server then closed connections as the next export arrived on them, and clients
  // saw "other side closed" (seen in the ingest bench on a busy machine). A minute's idle keeps an
  // exporter's connection open between exports; headers must be allowed longer than that.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if ((request.method === 'GET' || request.method === 'HEAD') && path === OTLP_HTTP_ROUTES[2].url) {
      const text = await deps.registry.metrics();
      send(response, 200, deps.registry.contentType, request.method === 'HEAD' ? undefined : text);
      return;
    }
    const signal = OTLP_HTTP_ROUTES.find((route) => route.signal !== undefined && route.url === path)?.signal;
    if (signal === undefined || request.method !== 'POST') {
      request.resume();
      send(response, 404, 'text/plain', 'not found');
      return;
    }
    const encoding = encodingOf(request.headers['content-type']);
    try {
      if (encoding === undefined)
        throw new HttpReject(415, GRPC_CODE.INVALID_ARGUMENT, 'content type must be application/x-protobuf or application/json', 'content_type');
      await handleExport(request, response, signal, encoding);
    } catch (error) {
      if (error instanceof BodyCutShort) return; // the client went away: nobody to answer
      if (!(error instanceof HttpReject)) throw error;
      request.resume();
      deps.metrics.rejected.inc({ transport: 'http', reason: error.reason });
      sendStatus(response, encoding ?? 'json', error.status, error.grpcCode, error.message);
    }
  }

  async function handleExport(request: http.IncomingMessage, response: http.ServerResponse, signal: 'traces' | 'logs', encoding: Encoding): Promise<void> {
    const declared = declaredLength(request);
    if (declared !== undefined && declared > MAX_OTLP_MESSAGE_BYTES)
      throw new HttpReject(413, GRPC_CODE.RESOURCE_EXHAUSTED, `message larger than ${MAX_OTLP_MESSAGE_BYTES} bytes`, 'too_large');
    // Reserved before a byte of the body is read; a chunked body starts small and grows its reservation.
    const lease = await deps.budget.acquire(heldBytesFor(declared ?? UNKNOWN_LENGTH_FIRST_BYTES));
    if (typeof lease === 'string') {
      // Answered before the body is read; Node discards the body as it arrives, so the connection stays usable.
      retryLater(response, encoding, lease, false);
      return;
    }
    try {
      let body: Buffer | undefined;
      try {
        body = await readBodyWithin(request, lease);
      } catch (error) {
        if (!(error instanceof HttpRetryLater)) throw error;
        // The body was cut short: the rest of it is not read, so the connection cannot be reused.
        retryLater(response, encoding, error.reason, true);
        return;
      }
      const accepting =
        signal === 'traces'
          ? deps.acceptor.acceptSpans(decode(body, encoding, 'traces') as DecodedExport<SpanRow>)
          : deps.acceptor.acceptLogs(decode(body, encoding, 'logs') as DecodedExport<LogRow>);
      // Dropped before the wait for the bus: an async function keeps its locals while it waits,
      // and the request's bytes would outlive their use (see acceptor's settle()).
      body = undefined;
      answer(response, encoding, signal, await accepting);
    } finally {
      lease.release();
    }
  }

  function decode(body: Buffer, encoding: Encoding, signal: 'traces' | 'logs'): DecodedExport<SpanRow> | DecodedExport<LogRow> {
    try {
      if (encoding === 'protobuf') return signal === 'traces' ? deps.codec.decodeTracesProto(body) : deps.codec.decodeLogsProto(body);
      const value: unknown = JSON.parse(body.toString('utf8'));
      return signal === 'traces' ? { rows: deps.codec.decodeTracesJson(value) } : { rows: deps.codec.decodeLogsJson(value) };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new HttpReject(400, GRPC_CODE.INVALID_ARGUMENT, `invalid ${signal} request: ${detail}`, 'decode');
    }
  }

  function answer(response: http.ServerResponse, encoding: Encoding, signal: 'traces' | 'logs', result: AcceptResult): void {
    if (result.kind === 'ok') {
      const body = encodeExportResponse(signal, encoding, result.rejected, result.message);
      send(
        response,
        200,
        encoding === 'protobuf' ? 'application/x-protobuf' : 'application/json',
        typeof body === 'string' || body.length > 0 ? body : undefined,
      );
      return;
    }
    if (result.kind === 'busy') {
      retryLater(response, encoding, 'bus_full', false);
      return;
    }
    response.setHeader('retry-after', String(RETRY_AFTER_SECS));
    sendStatus(response, encoding, 503, GRPC_CODE.UNAVAILABLE, BROKER_UNAVAILABLE_MESSAGE);
  }

  /** OTLP's throttling answer: 503 with Retry-After, counted. */
  function retryLater(response: http.ServerResponse, encoding: Encoding, reason: RetryReason, closeConnection: boolean): void {
    deps.metrics.busy.inc({ transport: 'http', reason });
    response.setHeader('retry-after', String(RETRY_AFTER_SECS));
    if (closeConnection) response.setHeader('connection', 'close');
    sendStatus(response, encoding, 503, GRPC_CODE.UNAVAILABLE, retryMessage(reason));
  }

  function sendStatus(response: http.ServerResponse, encoding: Encoding, status: number, grpcCode: number, message: string): void {
    if (encoding === 'protobuf') send(response, status, 'application/x-protobuf', encodeRpcStatus(grpcCode, message));
    else send(response, status, 'application/json', JSON.stringify({ code: grpcCode, message }));
  }

  /** Every answer goes out here: once stopping, each one closes its connection. */
  function send(response: http.ServerResponse, status: number, contentType: string, body: string | Buffer | undefined): void {
    if (stopping) response.setHeader('connection', 'close');
    response.writeHead(status, { 'content-type': contentType }).end(body);
  }

  return {
    async listen(host: string, port: number): Promise<AddressInfo> {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return server.address() as AddressInfo;
    },
    /**
     * Stops accepting at once: no new connections, idle keep-alive connections closed, and every
     * answer from now on (a new export on an open connection is refused by the budget, closed) closes
     * its connection. Exports in flight go on; `close()` waits for their connections.
     */
    stopAccepting(): void {
      if (closed !== undefined) return;
      stopping = true;
      closed = new Promise((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
    },
    /** Resolves once every connection is gone; `forceAfterMs` later, the stragglers (a client still sending a body) are cut. */
    async close(forceAfterMs: number): Promise<void> {
      this.stopAccepting();
      const timer = setTimeout(() => server.closeAllConnections(), forceAfterMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

function encodingOf(contentType: string | undefined): Encoding | undefined {
  const type = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  return undefined;
}
