import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BusFullError } from '../../model/bus.js';
import { PublishQueue } from './publish-queue.js';

/** A send that waits for the test to settle it, recording what it was given. */
function manualSend() {
  const sends: { messages: string[]; settle: (error?: Error) => void }[] = [];
  const send = (messages: string[]) => new Promise<void>((resolve, reject) => sends.push({ messages, settle: (error) => (error ? reject(error) : resolve()) }));
  return { sends, send };
}

const entries = (...names: string[]) => names.map((message) => ({ message, bytes: 10 }));
const tick = () => new Promise((resolve) => setImmediate(resolve));

test('one send at a time; publishes waiting meanwhile are coalesced in order and each resolves with its last send', async () => {
  const { sends, send } = manualSend();
  const queue = new PublishQueue<string>({ send, maxQueuedBytes: 1_000, maxSendBytes: 1_000 });
  const resolved: string[] = [];
  const first = queue.enqueue(entries('a1')).then(() => resolved.push('a'));
  const second = queue.enqueue(entries('b1', 'b2')).then(() => resolved.push('b'));
  const third = queue.enqueue(entries('c1')).then(() => resolved.push('c'));
  await tick();
  assert.deepEqual(
    sends.map((s) => s.messages),
    [['a1']],
    'only one send in flight',
  );
  sends[0].settle();
  await first;
  await tick();
  assert.deepEqual(
    sends.map((s) => s.messages),
    [['a1'], ['b1', 'b2', 'c1']],
  );
  assert.deepEqual(resolved, ['a']);
  sends[1].settle();
  await Promise.all([second, third]);
  assert.deepEqual(resolved, ['a', 'b', 'c']);
});

test('a send holds at most maxSendBytes, except a single larger message, and a publish split over sends waits for all', async () => {
  const { sends, send } = manualSend();
  const queue = new PublishQueue<string>({ send, maxQueuedBytes: 1_000, maxSendBytes: 25 });
  let done = false;
  const publish = queue.enqueue([{ message: 'big', bytes: 40 }, ...entries('x', 'y', 'z')]).then(() => (done = true));
  await tick();
  sends[0].settle();
  await tick();
  sends[1].settle();
  await tick();
  assert.equal(done, false, 'z is not sent yet');
  sends[2].settle();
  await publish;
  assert.deepEqual(
    sends.map((s) => s.messages),
    [['big'], ['x', 'y'], ['z']],
  );
});

test('a failed send rejects its publishes; past the byte bound publish fails with BusFullError', async () => {
  const { sends, send } = manualSend();
  const queue = new PublishQueue<string>({ send, maxQueuedBytes: 25, maxSendBytes: 10 });
  const failing = queue.enqueue(entries('a'));
  const waiting = queue.enqueue(entries('b', 'c'));
  await assert.rejects(queue.enqueue(entries('d')), BusFullError);
  await tick();
  sends[0].settle(new Error('broker down'));
  await assert.rejects(failing, /broker down/);
  await tick();
  sends[1].settle();
  await tick();
  sends[2].settle();
  await waiting;
});
