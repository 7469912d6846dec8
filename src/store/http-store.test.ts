/**
 * HTTP driver. The shared suite runs against a real ClickHouse server when
 * SVC_TEST_CLICKHOUSE_URL names one (no server package new enough exists in this machine's
 * registries, so none is started here); the failure paths below need no server.
 * This file opens chDB on one temp directory (one engine per process).
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ClickHouseClientConfigOptions } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import { StorageError } from '../model/store.js';
import { createStore } from './create-store.js';
import { ConfigError } from '../config/config-error.js';
import { HttpStore } from './http-store.js';
import { storeSuite } from './store-suite.test-support.js';

const serverUrl = process.env.SVC_TEST_CLICKHOUSE_URL ?? '';

if (serverUrl !== '') {
  const database = `svc_test_${process.pid}`;
  storeSuite('http', () => createStore({ clickhouse: { url: serverUrl, database }, embedded: { data_dir: '' } }));
} else {
  it('shared store suite over HTTP', { skip: 'SVC_TEST_CLICKHOUSE_URL not set' }, () => {});
  // Without a server, the same driver code (query, command, exec with a body, result parsing,
  // error mapping) runs through @clickhouse/client on chDB's in-process connection. That
  // transport ignores the client's `database` option and binds parameters itself, so the
  // server run above stays the real check of those two.
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-http-store-test-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  // chdb types its Connection against the older @clickhouse/client-common settings list; the
  // runtime contract is the one the client calls, so the type is bridged here.
  const inProcess = (): ClickHouseClientConfigOptions['connection'] =>
    createChdbConnection({ path: dataDir }) as unknown as ClickHouseClientConfigOptions['connection'];
  storeSuite('http driver, in-process transport', () => HttpStore.open('http://in-process.invalid', 'svc_test', inProcess));
}

/** A loopback port with nothing listening: bind port 0, note it, close. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('http driver without a server', () => {
  it('is chosen when clickhouse.url is set and reports an unreachable server as StorageError, at start-up naming clickhouse.url', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    await assert.rejects(HttpStore.open(url, 'svc'), (e: unknown) => e instanceof StorageError && e.message === 'storage exec failed');
    await assert.rejects(
      createStore({ clickhouse: { url, database: 'svc' }, embedded: { data_dir: '' } }),
      (e: unknown) =>
        e instanceof ConfigError &&
        /^clickhouse\.url: cannot open database svc on the ClickHouse server: storage exec failed: connect ECONNREFUSED /.test(e.message),
    );
  });

  it('refuses credentials in the URL and bad database names', async () => {
    await assert.rejects(HttpStore.open('http://user:pw@127.0.0.1:1', 'svc'), /must not contain credentials/);
    await assert.rejects(HttpStore.open('http://127.0.0.1:1', 'a-b'), /plain identifier/);
    await assert.rejects(HttpStore.open('not a url', 'svc'), /not a valid URL/);
  });
});
