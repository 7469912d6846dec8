import assert from 'node:assert/strict';
import * as http2 from 'node:http2';
import { test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { CONNECTION_WINDOW_BYTES, STREAM_WINDOW_BYTES, widenConnectionWindows, widenStreamWindows } from './grpc-windows.js';

/**
 * The OTLP/gRPC server's flow-control windows, as a client sees them: the stream window in the
 * server's SETTINGS and the connection window it opens with WINDOW_UPDATE. Set through grpc-js's
 * private fields: this test fails when an upgrade of grpc-js moves them.
 */

test('a client of the gRPC server is granted a 1 MiB stream window and a 4 MiB connection window', async () => {
  const server = new grpc.Server();
  widenStreamWindows(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  widenConnectionWindows(server);
  const client = http2.connect(`http://127.0.0.1:${port}`);
  try {
    const settings = await new Promise<http2.Settings>((resolve) => client.once('remoteSettings', resolve));
    assert.equal(settings.initialWindowSize, STREAM_WINDOW_BYTES);
    const deadline = Date.now() + 10_000;
    while ((client.state.remoteWindowSize ?? 0) < CONNECTION_WINDOW_BYTES && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.equal(client.state.remoteWindowSize, CONNECTION_WINDOW_BYTES);
  } finally {
    await new Promise<void>((resolve) => client.close(resolve));
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  }
});

test('widening fails loudly on a server without the private fields it relies on', () => {
  const notGrpcJs = {} as unknown as grpc.Server;
  assert.throws(() => widenStreamWindows(notGrpcJs), /commonServerOptions/);
  assert.throws(() => widenConnectionWindows(notGrpcJs), /http2Servers/);
});
