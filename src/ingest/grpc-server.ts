import * as grpc from '@grpc/grpc-js';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Logger } from '../util/log.js';
import type { Acceptor, AcceptResult } from './accept.js';
import type { SignalCodec } from './codec.js';
import { MAX_OTLP_MESSAGE_BYTES } from './http-server.js';
import type { IngestMetrics } from './metrics.js';

export interface OtlpGrpcDeps {
  acceptor: Acceptor;
  codec: SignalCodec;
  metrics: IngestMetrics;
  logger: Logger;
}

// Messages pass through as raw bytes: decoding happens in the handler so a bad message becomes
// INVALID_ARGUMENT (and is counted) instead of a transport error.
const passThrough = (bytes: Buffer): Buffer => bytes;
const emptyResponse = (): Buffer => Buffer.alloc(0);

function exportMethod(path: string): grpc.MethodDefinition<Buffer, Buffer> {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: passThrough,
    requestDeserialize: passThrough,
    responseSerialize: emptyResponse,
    responseDeserialize: passThrough,
  };
}

const TRACE_SERVICE: grpc.ServiceDefinition = { Export: exportMethod('/opentelemetry.proto.collector.trace.v1.TraceService/Export') };
const LOGS_SERVICE: grpc.ServiceDefinition = { Export: exportMethod('/opentelemetry.proto.collector.logs.v1.LogsService/Export') };

/** OTLP/gRPC: TraceService/Export and LogsService/Export only (metrics are UNIMPLEMENTED), gzip accepted, 64 MiB messages. */
export function createOtlpGrpcServer(deps: OtlpGrpcDeps) {
  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_OTLP_MESSAGE_BYTES,
    'grpc.max_send_message_length': 4 * 1024 * 1024,
  });

  function handler(signal: 'traces' | 'logs'): grpc.handleUnaryCall<Buffer, Buffer> {
    return (call, callback) => {
      let rows: SpanRow[] | LogRow[];
      try {
        rows = signal === 'traces' ? deps.codec.decodeTracesProto(call.request) : deps.codec.decodeLogsProto(call.request);
      } catch (error) {
        deps.metrics.rejected.inc({ transport: 'grpc', reason: 'decode' });
        const detail = error instanceof Error ? error.message : String(error);
        callback({ code: grpc.status.INVALID_ARGUMENT, details: `invalid ${signal} request: ${detail}` });
        return;
      }
      const accepting = signal === 'traces' ? deps.acceptor.acceptSpans(rows as SpanRow[]) : deps.acceptor.acceptLogs(rows as LogRow[]);
      accepting.then(
        (result) => reply(result, callback),
        (error: unknown) => {
          deps.logger.error({ err: error }, 'otlp grpc export failed');
          callback({ code: grpc.status.INTERNAL, details: 'internal error' });
        },
      );
    };
  }

  function reply(result: AcceptResult, callback: grpc.sendUnaryData<Buffer>): void {
    if (result.kind === 'ok') {
      callback(null, Buffer.alloc(0));
      return;
    }
    if (result.kind === 'busy') deps.metrics.busy.inc({ transport: 'grpc' });
    // UNAVAILABLE is retryable for OTLP exporters without extra RetryInfo.
    const details = result.kind === 'busy' ? 'ingest is at capacity, retry later' : 'the message broker is unavailable, retry later';
    callback({ code: grpc.status.UNAVAILABLE, details });
  }

  server.addService(TRACE_SERVICE, { Export: handler('traces') });
  server.addService(LOGS_SERVICE, { Export: handler('logs') });

  return {
    async listen(host: string, port: number): Promise<number> {
      const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      return new Promise((resolve, reject) =>
        server.bindAsync(target, grpc.ServerCredentials.createInsecure(), (error, boundPort) => (error ? reject(error) : resolve(boundPort))),
      );
    },
    /** Stops accepting calls and lets calls in progress finish. */
    async close(): Promise<void> {
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}
