import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WorkerRpc } from './worker-rpc.js';

/** A worker from source text: it says "ready", doubles `n`, and exits when `n` is negative. */
const DOUBLER = new URL(
  'data:text/javascript,' +
    encodeURIComponent(
      "import { parentPort } from 'node:worker_threads';" +
        "parentPort.postMessage('ready');" +
        "parentPort.on('message', (m) => { if (m.n < 0) process.exit(3); parentPort.postMessage({ seq: m.seq, n: m.n * 2 }); });",
    ),
);

interface Request {
  seq: number;
  n: number;
}
interface Reply {
  seq: number;
  n: number;
}

test('each reply resolves its own request, in flight together; other messages are signals', async () => {
  const signals: unknown[] = [];
  const rpc = new WorkerRpc<Request, Reply>(DOUBLER, { name: 'doubler', onSignal: (message) => signals.push(message) });
  try {
    const replies = await Promise.all([1, 2, 3].map((n) => rpc.request({ n })));
    assert.deepEqual(
      replies.map((reply) => reply.n),
      [2, 4, 6],
    );
    assert.deepEqual(signals, ['ready']);
    assert.equal(rpc.failed, null);
  } finally {
    await rpc.close();
  }
});

test('a thread that exits fails what it holds and every later request, once', async () => {
  const failures: Error[] = [];
  const rpc = new WorkerRpc<Request, Reply>(DOUBLER, { name: 'doubler', onFailure: (error) => failures.push(error) });
  await assert.rejects(rpc.request({ n: -1 }), /doubler exited with code 3/);
  await assert.rejects(rpc.request({ n: 1 }), /doubler exited with code 3/);
  assert.equal(failures.length, 1);
  assert.match(String(rpc.failed?.message), /exited with code 3/);
  await rpc.close();
});

test('an idle thread does not keep the process alive, one with a request waiting does', async () => {
  const rpc = new WorkerRpc<Request, Reply>(DOUBLER, { name: 'doubler', idleUnref: true });
  try {
    // Were the thread unreferenced while the request waits, the test runner would end before the reply.
    assert.equal((await rpc.request({ n: 5 })).n, 10);
  } finally {
    await rpc.close();
  }
});

test('a closed thread refuses later requests', async () => {
  const rpc = new WorkerRpc<Request, Reply>(DOUBLER, { name: 'doubler' });
  await rpc.request({ n: 1 });
  await rpc.close();
  await assert.rejects(rpc.request({ n: 1 }), /doubler was closed/);
});
