import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import * as grpc from '@grpc/grpc-js';
import type { SpanRow } from '../model/signals.js';
import { encodeTracesData } from '../otlp/encode-traces.js';

/** Load clients for the back-pressure and stop tests: raw OTLP exports over keep-alive HTTP and gRPC. */

export const TRACE_EXPORT_PATH = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';

export interface SentTrace {
  traceId: string;
  spanIds: string[];
}

/** An ExportTraceServiceRequest of `traces` traces of `spansPerTrace` spans each, with fresh ids, stamped now. */
export function buildTraceExport(service: string, traces: number, spansPerTrace: number, attrBytes = 0): { body: Buffer; traces: SentTrace[] } {
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const sent: SentTrace[] = [];
  const spans: SpanRow[] = [];
  const padding = 'x'.repeat(attrBytes);
  for (let t = 0; t < traces; t++) {
    const traceId = randomBytes(16).toString('hex');
    const spanIds = Array.from({ length: spansPerTrace }, () => randomBytes(8).toString('hex'));
    spanIds.forEach((spanId, s) => {
      const startNs = nowNs + BigInt(s * 1_000);
      spans.push({
        traceId,
        spanId,
        parentSpanId: s === 0 ? '' : spanIds[0],
        serviceName: service,
        name: s === 0 ? 'GET /load' : `step ${s}`,
        kind: s === 0 ? 'server' : 'internal',
        startNs,
        endNs: startNs + 500_000n,
        status: 'unset',
        statusMessage: '',
        attrs: attrBytes > 0 ? [['pad', padding]] : [],
        resource: [['service.name', service]],
        events: [],
        scopeName: 'load',
        scopeVersion: '',
      });
    });
    sent.push({ traceId, spanIds });
  }
  return { body: encodeTracesData(spans), traces: sent };
}

export interface HttpAnswer {
  status: number;
  retryAfter: string | undefined;
  connection: string | undefined;
  body: Buffer;
}

/** One POST of protobuf over the agent's keep-alive connection; rejects on a connection error. */
export function postExport(agent: http.Agent, port: number, path: string, body: Buffer): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/x-protobuf', 'content-length': body.length } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: response.headers['retry-after'],
            connection: response.headers.connection,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** A gRPC client on a connection of its own (no shared subchannel). */
export function grpcClient(port: number): grpc.Client {
  return new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { 'grpc.use_local_subchannel_pool': 1 });
}

export interface GrpcAnswer {
  code: grpc.status;
  /** grpc-status-details-bin, when the server sent one. */
  statusDetails: Buffer | undefined;
}

/** One unary export of raw bytes; resolves with the status (OK or the error's). */
export function grpcExport(client: grpc.Client, body: Buffer, deadlineMs = 30_000): Promise<GrpcAnswer> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      TRACE_EXPORT_PATH,
      (value: Buffer) => value,
      (value: Buffer) => value,
      body,
      new grpc.Metadata(),
      { deadline: Date.now() + deadlineMs },
      (error) => {
        if (!error) return resolve({ code: grpc.status.OK, statusDetails: undefined });
        const details = error.metadata?.get('grpc-status-details-bin')[0];
        resolve({ code: error.code, statusDetails: Buffer.isBuffer(details) ? details : undefined });
      },
    );
  });
}

/** Resident set size of a process, from /proc (Linux). */
export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}
