import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable, Writable } from 'node:stream';
import { DEFAULT_MINER_OPTIONS } from '../mining/miner.js';
import { TemplateLines, templatesForLines } from '../mining/templates-tool.js';
import { FingerprintWorker, type FingerprintSource } from './fingerprint-worker.js';
import { MAX_LINE_BYTES, streamTemplates, type FingerprintPipeline } from './templates.js';

/** Runs the streaming loop over `bytes` cut into chunks of `chunkBytes`; returns output lines. */
async function stream(
  bytes: Buffer,
  chunkBytes: number,
  slowOutput = false,
  pipeline?: FingerprintPipeline,
): Promise<{ lines: number; out: string[]; writes: number }> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkBytes) chunks.push(bytes.subarray(i, i + chunkBytes));
  const received: Buffer[] = [];
  let writes = 0;
  const output = new Writable({
    highWaterMark: 64,
    write(chunk: Buffer, _encoding, done) {
      received.push(chunk);
      writes++;
      if (slowOutput) setImmediate(done);
      else done();
    },
  });
  const lines = await streamTemplates(Readable.from(chunks), output, new TemplateLines(DEFAULT_MINER_OPTIONS, 'f'), () => {}, pipeline);
  const text = Buffer.concat(received).toString('utf8');
  return { lines, out: text === '' ? [] : text.slice(0, -1).split('\n'), writes };
}

const INPUT = [
  'user 17 logged in from 10.0.0.1',
  '',
  'käse größe 42 ünïcödé ✓',
  'user 42 logged in from 10.0.0.9\r',
  'disk /dev/sda1 is 91% full',
  'user 7 logged in from 10.0.0.3',
];

test('streams one JSON line per input line, as templatesForLines gives them, whatever the chunking', async () => {
  const expected = templatesForLines(
    INPUT.map((l) => l.replace(/\r$/, '')),
    DEFAULT_MINER_OPTIONS,
    'f',
  ).map((t) => JSON.stringify(t));
  const bytes = Buffer.from(INPUT.join('\n') + '\n', 'utf8');
  // Chunk sizes that cut lines, CRLF pairs and multi-byte characters.
  for (const chunkBytes of [1, 2, 3, 7, 64, bytes.length]) {
    const { lines, out } = await stream(bytes, chunkBytes, chunkBytes === 3);
    assert.equal(lines, INPUT.length, `chunk ${chunkBytes}`);
    assert.deepEqual(out, expected, `chunk ${chunkBytes}`);
  }
  // A last line without newline still counts; an empty input has no lines.
  const noNewline = await stream(Buffer.from(INPUT.join('\n'), 'utf8'), 5);
  assert.deepEqual(noNewline.out, expected);
  assert.equal((await stream(Buffer.alloc(0), 5)).lines, 0);
});

test('an overlong line is mined by its head and the lines after it go on', async () => {
  const long = 'x'.repeat(3 * MAX_LINE_BYTES);
  const bytes = Buffer.from(`first 1 line\n${long}\nfirst 2 line\n`, 'utf8');
  const { lines, out } = await stream(bytes, 64 * 1024);
  assert.equal(lines, 3);
  const [first, overlong, third] = out.map((l) => JSON.parse(l) as { template_id: string; template: string });
  assert.ok(first !== undefined && overlong !== undefined && third !== undefined, `three templates out, got ${out.length}`);
  assert.equal(first.template_id, third.template_id);
  assert.equal(third.template, 'first <*> line');
  assert.equal(overlong.template.length, MAX_LINE_BYTES);
});

/** Lines of many shapes and values, so templates are created, widened and hit from the cache. */
function variedInput(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 7 === 0) lines.push(`user u${i % 13} logged in from 10.0.${i % 256}.${i % 100}`);
    else if (i % 7 === 1) lines.push(`GET /api/items/${i} HTTP/1.1" 200 ${i * 3}\r`);
    else if (i % 7 === 2) lines.push(`job ${['alpha', 'beta', 'gamma'][i % 3]} done in ${i % 50} ms (attempt ${i % 4})`);
    else if (i % 7 === 3) lines.push(`käse größe ${i} ünïcödé ✓`);
    else if (i % 7 === 4) lines.push('');
    else lines.push(`disk /dev/sd${String.fromCharCode(97 + (i % 4))} is ${i % 100}% full`);
  }
  return `${lines.join('\n')}\n`;
}

/** The fingerprint thread, started before the run so that every chunk can go there; counts the chunks it is given. */
async function startedWorker(): Promise<{ pipeline: FingerprintPipeline; handedOver: () => number; closed: () => boolean }> {
  const worker = new FingerprintWorker(DEFAULT_MINER_OPTIONS.keepHttpStatus);
  await worker.whenStarted;
  let handed = 0;
  let closed = false;
  const source: FingerprintSource = {
    ready: () => worker.ready(),
    fingerprint: (bytes) => {
      handed++;
      return worker.fingerprint(bytes);
    },
    close: async () => {
      closed = true;
      await worker.close();
    },
  };
  return { pipeline: { start: () => source, afterBytes: 0 }, handedOver: () => handed, closed: () => closed };
}

test('with the fingerprint thread the output is the same line for line, whatever the chunking, an overlong line included', async () => {
  // Longer than MAX_LINE_BYTES whatever the chunking, so every run mines the same head.
  const long = 'y'.repeat(3 * MAX_LINE_BYTES);
  const bytes = Buffer.from(`${variedInput(3000)}${long}\n${variedInput(3000)}`, 'utf8');
  const inline = await stream(bytes, 64 * 1024);
  assert.equal(inline.lines, 6001);
  for (const chunkBytes of [1000, 4096, 64 * 1024]) {
    const { pipeline, handedOver, closed } = await startedWorker();
    const piped = await stream(bytes, chunkBytes, false, pipeline);
    assert.ok(handedOver() > 0, 'chunks went to the thread');
    assert.equal(closed(), true, 'the thread is closed at the end');
    assert.equal(piped.lines, inline.lines, `chunk ${chunkBytes}`);
    assert.deepEqual(piped.out, inline.out, `chunk ${chunkBytes}`);
  }
});

test('lines fingerprinted from their bytes, ASCII or UTF-8, on either thread, get the templates the miner gives them line by line', async () => {
  const lines = variedInput(6000).split('\n').slice(0, -1);
  const expected = templatesForLines(
    lines.map((l) => l.replace(/\r$/, '')),
    DEFAULT_MINER_OPTIONS,
    'f',
  ).map((t) => JSON.stringify(t));
  const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  const inline = await stream(bytes, 64 * 1024);
  assert.deepEqual(inline.out, expected);
  const { pipeline, handedOver } = await startedWorker();
  const piped = await stream(bytes, 16 * 1024, false, pipeline);
  assert.ok(handedOver() > 0, 'chunks went to the thread');
  assert.deepEqual(piped.out, expected);
  // Only ASCII chunks, and only UTF-8 ones.
  for (const ascii of [true, false]) {
    const some = lines.filter((line) => /^[\x00-\x7f]*$/.test(line) === ascii);
    const want = templatesForLines(
      some.map((l) => l.replace(/\r$/, '')),
      DEFAULT_MINER_OPTIONS,
      'f',
    ).map((t) => JSON.stringify(t));
    const worker = await startedWorker();
    assert.deepEqual((await stream(Buffer.from(`${some.join('\n')}\n`, 'utf8'), 8 * 1024, false, worker.pipeline)).out, want, ascii ? 'ASCII' : 'UTF-8');
  }
});

test('a word with a digit a template shows is checked in lines read as bytes, cached or not, on either thread', async () => {
  const lines: string[] = [];
  for (let i = 0; i < 4; i++) lines.push(`Accepted publickey for root from 10.0.0.${i} port ${40000 + i} ssh2`);
  // Cached (the same masked tokens), yet another word: the template shows the wildcard from here on.
  lines.push('Accepted publickey for root from 10.0.0.9 port 40009 ssh3', 'Accepted publickey for root from 10.0.0.8 port 40008 ssh2');
  const expected = templatesForLines(lines, DEFAULT_MINER_OPTIONS, 'f').map((t) => JSON.stringify(t));
  assert.equal((JSON.parse(expected[3]!) as { template: string }).template, 'Accepted publickey for root from <*> port <*> ssh2');
  assert.equal((JSON.parse(expected[5]!) as { template: string }).template, 'Accepted publickey for root from <*> port <*>');
  const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  assert.deepEqual((await stream(bytes, 7)).out, expected);
  const { pipeline } = await startedWorker();
  assert.deepEqual((await stream(bytes, 64, false, pipeline)).out, expected);
});

test('a failure of the fingerprint thread fails the run, and the thread is closed', async () => {
  let closed = false;
  const failing: FingerprintSource = {
    ready: () => true,
    fingerprint: () => Promise.reject(new Error('thread gone')),
    close: async () => {
      closed = true;
    },
  };
  await assert.rejects(stream(Buffer.from(variedInput(500), 'utf8'), 1024, false, { start: () => failing, afterBytes: 0 }), /thread gone/);
  assert.equal(closed, true);
});
