import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Registry } from 'prom-client';
import { createLogger } from '../util/log.js';
import type { TraceRepo } from './repo.js';
import { createApi, type Api } from './server.js';

const emptyRepo: TraceRepo = { traceSpans: async () => [], traceLogs: async () => [], traceStoryId: async () => null, services: async () => [] };

let api: Api;
before(async () => {
  // No password check happens here: every request below is refused before one would be.
  const auth = { enabled: true, username: 'admin', password_hash: 'unused', session_ttl_secs: 3600, session_key: Buffer.alloc(32, 7), secure_cookie: false };
  api = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15, auth },
    { traces: emptyRepo, registry: new Registry(), metricRegistries: [], logger: createLogger('silent') },
  );
  await api.start();
});
after(async () => {
  await api?.close();
});

/** Sends raw bytes (a client fetch would refuse to send most of these) and reads the whole answer. */
function rawRequest(text: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(api.port(), '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      // Keep-alive answers leave the socket open: stop once the declared body is in.
      const split = answer.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(answer.slice(0, split));
      if (split >= 0 && length !== null && Buffer.byteLength(answer.slice(split + 4)) >= Number(length[1])) socket.destroy();
    });
    socket.on('close', () => {
      const split = answer.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no answer: ${JSON.stringify(answer)}`));
      resolve({ status: Number(answer.split(' ')[1]), headers: answer.slice(0, split), body: answer.slice(split + 4) });
    });
    socket.on('error', () => undefined); // the server may close first; 'close' still follows
  });
}

test('with authentication on, /api itself is refused like every /api/ path', async () => {
  for (const path of ['/api', '/api?x=1', '/api/']) {
    const answer = await rawRequest(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.equal(answer.status, 401, path);
    assert.deepEqual(JSON.parse(answer.body), { error: 'unauthorized' }, path);
    assert.match(answer.headers, /\r\nsvc-error-code: unauthorized\r\n/i, path);
  }
});

test('errors answered before routing keep the {"error": "<message>"} shape', async () => {
  const cases: [string, string, number, string, string][] = [
    [
      'headers too large',
      `GET /api/v1/services HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'request header fields too large',
      'header_too_large',
    ],
    ['malformed request line', 'NOT HTTP\r\n\r\n', 400, 'bad request', 'bad_request'],
    ['unreadable content-length', 'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, 'bad request', 'bad_request'],
    ['bad percent-encoding', 'GET /api/v1/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400, 'invalid url', 'bad_request'],
    ['path parameter too long', `GET /api/v1/traces/${'a'.repeat(3000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 414, 'url too long', 'url_too_long'],
  ];
  for (const [name, request, status, message, code] of cases) {
    const answer = await rawRequest(request);
    assert.equal(answer.status, status, name);
    assert.match(answer.headers, /content-type: application\/json/i, name);
    assert.deepEqual(JSON.parse(answer.body), { error: message }, name);
    assert.match(answer.headers, new RegExp(`\\r\\nsvc-error-code: ${code}\\r\\n`, 'i'), name);
  }
});
