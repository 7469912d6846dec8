/**
 * HTTP driver. The shared suite runs against a real ClickHouse server when
 * SVC_TEST_CLICKHOUSE_URL names one (no server package new enough exists in this machine's
 * registries, so none is started here); the failure paths below need no server.
 */

import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { StorageError } from '../model/store.js';
import { createStore } from './create-store.js';
import { HttpStore } from './http-store.js';
import { storeSuite } from './store-suite.js';

const serverUrl = process.env.SVC_TEST_CLICKHOUSE_URL ?? '';

if (serverUrl !== '') {
  const database = `svc_test_${process.pid}`;
  storeSuite('http', () => createStore({ clickhouse: { url: serverUrl, database }, embedded: { data_dir: '' } }));
} else {
  it('shared store suite over HTTP', { skip: 'SVC_TEST_CLICKHOUSE_URL not set' }, () => {});
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
  it('is chosen when clickhouse.url is set and reports an unreachable server as StorageError', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    await assert.rejects(
      createStore({ clickhouse: { url, database: 'svc' }, embedded: { data_dir: '' } }),
      (e: unknown) => e instanceof StorageError && e.message === 'storage exec failed',
    );
  });

  it('refuses credentials in the URL and bad database names', async () => {
    await assert.rejects(HttpStore.open('http://user:pw@127.0.0.1:1', 'svc'), /must not contain credentials/);
    await assert.rejects(HttpStore.open('http://127.0.0.1:1', 'a-b'), /plain identifier/);
    await assert.rejects(HttpStore.open('not a url', 'svc'), /not a valid URL/);
  });
});
