import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { Registry } from 'prom-client';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Logger } from '../util/log.js';
import type { Acceptor, AcceptResult } from './accept.js';
import type { SignalCodec } from './codec.js';
import type { IngestMetrics } from './metrics.js';
import { encodeRpcStatus, GRPC_CODE } from './rpc-status.js';

/** The same bound as gRPC messages: 64 MiB, on the wire and after gunzip. */
export const MAX_OTLP_MESSAGE_BYTES = 64 * 1024 * 1024;
const RETRY_AFTER_SECS = '1';

type Encoding = 'protobuf' | 'json';

class HttpReject extends Error {
  constructor(
    readonly status: number,
    readonly grpcCode: number,
    message: string,
    readonly reason: string,
  ) {
    super(message);
  }
}

export interface OtlpHttpDeps {
  acceptor: Acceptor;
  codec: SignalCodec;
  metrics: IngestMetrics;
  registry: Registry;
  logger: Logger;
}

/** OTLP/HTTP: POST /v1/traces and /v1/logs (protobuf or JSON, gzip accepted), GET /metrics; anything else 404. */
export function createOtlpHttpServer(deps: OtlpHttpDeps) {
  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      deps.logger.error({ err: error }, 'otlp http handler failed');
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  // Slow clients must not hold sockets forever; the export itself may take up to a writer flush.
  server.requestTimeout = 120_000;

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0];
    if ((request.method === 'GET' || request.method === 'HEAD') && path === '/metrics') {
      const text = await deps.registry.metrics();
      response.writeHead(200, { 'content-type': deps.registry.contentType }).end(request.method === 'HEAD' ? undefined : text);
      return;
    }
    const signal = path === '/v1/traces' ? 'traces' : path === '/v1/logs' ? 'logs' : undefined;
    if (signal === undefined || request.method !== 'POST') {
      request.resume();
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const encoding = encodingOf(request.headers['content-type']);
    try {
      if (encoding === undefined) {
        request.resume();
        throw new HttpReject(415, GRPC_CODE.INVALID_ARGUMENT, 'content type must be application/x-protobuf or application/json', 'content_type');
      }
      const body = await readBody(request);
      const result = signal === 'traces' ? await deps.acceptor.acceptSpans(decode(body, encoding, 'traces') as SpanRow[]) : await deps.acceptor.acceptLogs(decode(body, encoding, 'logs') as LogRow[]);
      answer(response, encoding, result);
    } catch (error) {
      if (!(error instanceof HttpReject)) throw error;
      deps.metrics.rejected.inc({ transport: 'http', reason: error.reason });
      sendStatus(response, encoding ?? 'json', error.status, error.grpcCode, error.message);
    }
  }

  function decode(body: Buffer, encoding: Encoding, signal: 'traces' | 'logs'): SpanRow[] | LogRow[] {
    try {
      if (encoding === 'protobuf') return signal === 'traces' ? deps.codec.decodeTracesProto(body) : deps.codec.decodeLogsProto(body);
      const value: unknown = JSON.parse(body.toString('utf8'));
      return signal === 'traces' ? deps.codec.decodeTracesJson(value) : deps.codec.decodeLogsJson(value);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new HttpReject(400, GRPC_CODE.INVALID_ARGUMENT, `invalid ${signal} request: ${detail}`, 'decode');
    }
  }

  function answer(response: http.ServerResponse, encoding: Encoding, result: AcceptResult): void {
    if (result.kind === 'ok') {
      // An empty Export*ServiceResponse: zero bytes in protobuf, {} in JSON.
      if (encoding === 'protobuf') response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    if (result.kind === 'busy') deps.metrics.busy.inc({ transport: 'http' });
    response.setHeader('retry-after', RETRY_AFTER_SECS);
    const message = result.kind === 'busy' ? 'ingest is at capacity, retry later' : 'the message broker is unavailable, retry later';
    sendStatus(response, encoding, 503, GRPC_CODE.UNAVAILABLE, message);
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
    /** Stops accepting connections and waits for requests in progress to be answered. */
    async close(): Promise<void> {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
    },
  };
}

function encodingOf(contentType: string | undefined): Encoding | undefined {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  return undefined;
}

async function readBody(request: http.IncomingMessage): Promise<Buffer> {
  const declared = Number(request.headers['content-length'] ?? '0');
  if (declared > MAX_OTLP_MESSAGE_BYTES) {
    request.resume();
    throw new HttpReject(413, GRPC_CODE.RESOURCE_EXHAUSTED, `message larger than ${MAX_OTLP_MESSAGE_BYTES} bytes`, 'too_large');
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > MAX_OTLP_MESSAGE_BYTES) {
      request.resume();
      throw new HttpReject(413, GRPC_CODE.RESOURCE_EXHAUSTED, `message larger than ${MAX_OTLP_MESSAGE_BYTES} bytes`, 'too_large');
    }
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks, total);
  const contentEncoding = String(request.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (contentEncoding === 'identity' || contentEncoding === '') return body;
  if (contentEncoding !== 'gzip') throw new HttpReject(415, GRPC_CODE.INVALID_ARGUMENT, `content encoding ${contentEncoding} is not supported (gzip is)`, 'content_encoding');
  try {
    return await new Promise<Buffer>((resolve, reject) =>
      zlib.gunzip(body, { maxOutputLength: MAX_OTLP_MESSAGE_BYTES }, (error, result) => (error ? reject(error) : resolve(result))),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw new HttpReject(413, GRPC_CODE.RESOURCE_EXHAUSTED, `message larger than ${MAX_OTLP_MESSAGE_BYTES} bytes after gunzip`, 'too_large');
    throw new HttpReject(400, GRPC_CODE.INVALID_ARGUMENT, 'invalid gzip body', 'decode');
  }
}

function sendStatus(response: http.ServerResponse, encoding: Encoding, status: number, grpcCode: number, message: string): void {
  if (encoding === 'protobuf') response.writeHead(status, { 'content-type': 'application/x-protobuf' }).end(encodeRpcStatus(grpcCode, message));
  else response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: grpcCode, message }));
}
