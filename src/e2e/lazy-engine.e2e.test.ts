/**
 * A component started with clickhouse.url never loads the embedded engine (npm package chdb, a
 * ~550 MB native library): checked from outside, in the mapped files of the real `svc` process
 * (/proc/<pid>/maps), once it has gone past choosing its store and waits on the ClickHouse server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';

const ROOT = new URL('../../../', import.meta.url).pathname;
const DEADLINE_MS = 120_000;

function mapsMentionChdb(pid: number): boolean {
  return /chdb/i.test(readFileSync(`/proc/${pid}/maps`, 'utf8'));
}

/** A "ClickHouse server" on loopback that accepts connections and never answers, so the component stays in its start. */
async function silentServer(): Promise<{ url: string; connected: Promise<void>; close: () => void }> {
  const sockets: Socket[] = [];
  let onConnection!: () => void;
  const connected = new Promise<void>((resolve) => (onConnection = resolve));
  const server = createServer((socket) => {
    sockets.push(socket);
    onConnection();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connected,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

function withDeadline<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} not within ${DEADLINE_MS} ms`)), DEADLINE_MS)));
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

test('the detection works: a process that imports chdb has it in its maps', async () => {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', "await import('chdb'); process.stdout.write('loaded\\n'); setInterval(() => {}, 1000);"],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await withDeadline(new Promise<void>((resolve) => child.stdout.on('data', () => resolve())), 'chdb import');
    assert.equal(mapsMentionChdb(child.pid!), true);
  } finally {
    child.kill('SIGKILL');
  }
});

for (const component of ['writer', 'api']) {
  test(`svc ${component} with clickhouse.url does not load the embedded engine`, async () => {
    const clickhouse = await silentServer();
    const child = spawn(process.env.SVC_TEST_NODE ?? process.execPath, [join(ROOT, 'bin/svc.js'), component], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        SVC__KAFKA__BROKERS: '127.0.0.1:9',
        SVC__CLICKHOUSE__URL: clickhouse.url,
        SVC__HTTP_ADDR: '127.0.0.1:0',
        SVC__WRITER__METRICS_ADDR: '127.0.0.1:0',
      },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      // The component has chosen its store and is opening it against the server: every module it loads at start-up is loaded.
      await withDeadline(
        Promise.race([clickhouse.connected, exited.then(() => Promise.reject(new Error(`svc ${component} exited: ${stderr}`)))]),
        'connection to clickhouse.url',
      );
      assert.equal(mapsMentionChdb(child.pid!), false, `svc ${component} mapped chdb`);
    } finally {
      child.kill('SIGKILL');
      clickhouse.close();
    }
  });
}
