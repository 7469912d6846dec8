import type * as http2 from 'node:http2';
import type * as grpc from '@grpc/grpc-js';

/**
 * HTTP/2 flow-control windows of the OTLP/gRPC server. With HTTP/2's default 64 KiB windows an
 * exporter sends a large export (a 512-span export is ~100-300 KiB) in window-sized pieces, each
 * waiting for a WINDOW_UPDATE that the main thread sends between its other work: under load that
 * wait adds up to a large share of the answer time of one export in flight. A stream window of
 * 1 MiB lets such an export arrive at once; the connection window (4 MiB) bounds what one
 * connection may have in flight across its streams.
 *
 * grpc-js (1.14) has no server option for either: its `grpc-node.flow_control_window` is read by
 * the client only, and its server builds HTTP/2's settings itself. So the windows are set through
 * two of its private fields, checked here: if a grpc-js upgrade removes them, start-up fails with
 * this message rather than silently falling back to the small windows (and a test guards it).
 */
export const STREAM_WINDOW_BYTES = 1024 * 1024;
export const CONNECTION_WINDOW_BYTES = 4 * 1024 * 1024;

interface GrpcServerInternals {
  commonServerOptions?: http2.ServerOptions;
  http2Servers?: Map<http2.Http2Server, unknown>;
}

function internals(server: grpc.Server): GrpcServerInternals {
  return server as unknown as GrpcServerInternals;
}

/** Sets the stream window every new connection announces; call before the server binds. */
export function widenStreamWindows(server: grpc.Server): void {
  const options = internals(server).commonServerOptions;
  if (options === undefined || typeof options !== 'object') {
    throw new Error('@grpc/grpc-js no longer has Server.commonServerOptions: the OTLP/gRPC flow-control windows cannot be set (src/ingest/grpc-windows.ts)');
  }
  options.settings = { ...options.settings, initialWindowSize: STREAM_WINDOW_BYTES };
}

/** Widens the connection window of every connection the server accepts; call once it is bound. */
export function widenConnectionWindows(server: grpc.Server): void {
  const servers = internals(server).http2Servers;
  if (!(servers instanceof Map) || servers.size === 0) {
    throw new Error('@grpc/grpc-js no longer has Server.http2Servers: the OTLP/gRPC flow-control windows cannot be set (src/ingest/grpc-windows.ts)');
  }
  for (const http2Server of servers.keys()) {
    http2Server.on('session', (session: http2.ServerHttp2Session) => {
      try {
        session.setLocalWindowSize(CONNECTION_WINDOW_BYTES);
      } catch {
        // the session closed before its window could be set: nothing to widen
      }
    });
  }
}
