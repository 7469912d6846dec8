import * as grpc from '@grpc/grpc-js';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Logger } from '../util/log.js';
import type { Acceptor, AcceptResult } from './accept.js';
import { encodeExportResponse } from './partial-success.js';
import type { DecodedExport, SignalCodec } from './codec.js';
import { createGrpcAdmission, retryLaterStatus, unavailableWithRetryInfo } from './grpc-admission.js';
import { BROKER_UNAVAILABLE_MESSAGE } from './refusal.js';
import { widenConnectionWindows, widenStreamWindows } from './grpc-windows.js';
import { MAX_OTLP_MESSAGE_BYTES } from './http-body.js';
import type { InFlightBudget } from './in-flight-budget.js';
import type { IngestMetrics } from './metrics.js';

/**
 * grpc-js prints "E No address added ..." itself when a bind fails, before rejecting; the caller
 * turns that rejection into one start-up line naming grpc_addr, so that message is not printed.
 * Everything else grpc-js logs goes to standard error as grpc-js's own logger writes it.
 */
const BIND_FAILED = 'No address added';
grpc.setLogger({
  error: (message?: unknown, ...rest: unknown[]) => {
    if (!String(message).startsWith(BIND_FAILED)) console.error(`E ${String(message)}`, ...rest);
  },
  info: (message?: unknown, ...rest: unknown[]) => console.error(`I ${String(message)}`, ...rest),
  debug: (message?: unknown, ...rest: unknown[]) => console.error(`D ${String(message)}`, ...rest),
});

export interface OtlpGrpcDeps {
  acceptor: Acceptor;
  codec: SignalCodec;
  metrics: IngestMetrics;
  logger: Logger;
  budget: InFlightBudget;
}

/**
 * Streams one client connection may have open at once. Each holds at most its HTTP/2 flow-control
 * window (1 MiB) until admitted, and all of a connection's streams together at most the connection
 * window (4 MiB, grpc-windows.ts), which bounds what a connection can make grpc-js buffer; exporters
 * send a few exports at a time (OTel JS: up to 30), and more wait on the client side.
 */
const MAX_CONCURRENT_STREAMS = 64;

// Messages pass through as raw bytes: decoding happens in the handler so a bad message becomes
// INVALID_ARGUMENT (and is counted) instead of a transport error.
const passThrough = (bytes: Buffer): Buffer => bytes;

function exportMethod(path: string): grpc.MethodDefinition<Buffer, Buffer> {
  return {
    path,
    requestStream: false,
    responseStream: false,
    requestSerialize: passThrough,
    requestDeserialize: passThrough,
    responseSerialize: passThrough,
    responseDeserialize: passThrough,
  };
}

const TRACE_SERVICE: grpc.ServiceDefinition = { Export: exportMethod('/opentelemetry.proto.collector.trace.v1.TraceService/Export') };
const LOGS_SERVICE: grpc.ServiceDefinition = { Export: exportMethod('/opentelemetry.proto.collector.logs.v1.LogsService/Export') };

/**
 * OTLP/gRPC: TraceService/Export and LogsService/Export only (metrics are UNIMPLEMENTED), gzip
 * accepted, 64 MiB messages. Each call is admitted by the in-flight budget before its message is
 * read (grpc-admission.ts); past the budget it is answered UNAVAILABLE with RetryInfo at once.
 */
export function createOtlpGrpcServer(deps: OtlpGrpcDeps) {
  const admission = createGrpcAdmission(deps.budget, deps.metrics);
  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_OTLP_MESSAGE_BYTES,
    'grpc.max_send_message_length': 4 * 1024 * 1024,
    'grpc.max_concurrent_streams': MAX_CONCURRENT_STREAMS,
    interceptors: [admission.interceptor],
  });
  widenStreamWindows(server);

  function handler(signal: 'traces' | 'logs'): grpc.handleUnaryCall<Buffer, Buffer> {
    return (call, callback) => {
      // Claimed first thing: from here this handler releases it, once the export is answered.
      const lease = admission.claim(call.request);
      let decoded: DecodedExport<SpanRow> | DecodedExport<LogRow>;
      try {
        decoded = signal === 'traces' ? deps.codec.decodeTracesProto(call.request) : deps.codec.decodeLogsProto(call.request);
      } catch (error) {
        lease?.release();
        deps.metrics.rejected.inc({ transport: 'grpc', reason: 'decode' });
        const detail = error instanceof Error ? error.message : String(error);
        callback({ code: grpc.status.INVALID_ARGUMENT, details: `invalid ${signal} request: ${detail}` });
        return;
      }
      const accepting =
        signal === 'traces' ? deps.acceptor.acceptSpans(decoded as DecodedExport<SpanRow>) : deps.acceptor.acceptLogs(decoded as DecodedExport<LogRow>);
      accepting
        .then(
          (result) => reply(signal, result, callback),
          (error: unknown) => {
            deps.logger.error({ err: error }, 'otlp grpc export failed');
            callback({ code: grpc.status.INTERNAL, details: 'internal error' });
          },
        )
        .finally(() => lease?.release());
    };
  }

  function reply(signal: 'traces' | 'logs', result: AcceptResult, callback: grpc.sendUnaryData<Buffer>): void {
    if (result.kind === 'ok') {
      callback(null, encodeExportResponse(signal, 'protobuf', result.rejected, result.message) as Buffer);
      return;
    }
    if (result.kind === 'busy') {
      deps.metrics.busy.inc({ transport: 'grpc', reason: 'bus_full' });
      callback(retryLaterStatus('bus_full'));
      return;
    }
    // Retryable for OTLP exporters as it is; the RetryInfo says when, as for every other "retry later".
    callback(unavailableWithRetryInfo(BROKER_UNAVAILABLE_MESSAGE));
  }

  server.addService(TRACE_SERVICE, { Export: handler('traces') });
  server.addService(LOGS_SERVICE, { Export: handler('logs') });

  let shutDown: Promise<void> | undefined;

  return {
    async listen(host: string, port: number): Promise<number> {
      const target = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      const boundPort = await new Promise<number>((resolve, reject) =>
        server.bindAsync(target, grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
      );
      widenConnectionWindows(server);
      return boundPort;
    },
    /**
     * Stops accepting at once: the port closes and every connection is told to go away (HTTP/2
     * GOAWAY); calls in progress may finish, and new calls still arriving are refused by the closed
     * budget. After `forceAfterMs` the calls still open are cancelled.
     */
    stopAccepting(forceAfterMs: number): void {
      if (shutDown !== undefined) return;
      shutDown = new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, forceAfterMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    /** Resolves once the server is down (stopAccepting first, or now with the given deadline). */
    async close(forceAfterMs: number): Promise<void> {
      this.stopAccepting(forceAfterMs);
      await shutDown;
    },
  };
}
