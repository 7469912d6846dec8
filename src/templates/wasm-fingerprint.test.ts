/**
 * Parity of the two scanners: the WebAssembly one (assembly/fingerprint.ts) must give, for every
 * ASCII line, the number the JavaScript one (masking.ts) gives, and for UTF-8 lines numbers that
 * are equal exactly where the JavaScript ones are; or `svc templates` would group lines by another
 * masking than the miner's (a line taking another line's template from the cache). A rule changed
 * in one scanner and not the other fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAscii } from 'node:buffer';
import { prng } from '../mining/corpus.test-support.js';
import { evalCorpora } from '../mining/eval-corpora.test-support.js';
import { fingerprintRange } from '../mining/masking.js';
import { WARMUP_LINES } from '../mining/masking-warmup.js';
import { loadLoghubSets } from '../testing/loghub.js';
import { lineRanges } from './chunk-lines.js';
import { BATCH_LINES, BytesFingerprinter } from './wasm-fingerprint.js';

/** Pieces that reach every rule of the scanner, glued or spaced at random. */
const PIECES = [
  'user',
  'GET',
  'HTTP/1.1',
  'HTTP/1.1"',
  '"HTTP/1.0"',
  'HTTP/2',
  'HTTP/',
  'HTTP/x',
  '200',
  '404',
  '599',
  '600',
  '099',
  '42',
  '-3',
  '0.75',
  '12ms',
  '10.0.0.1',
  '10.0.0.1:8080',
  '/10.0.0.2',
  '/var/log/app.log',
  'C:\\dir\\file',
  'a\\b',
  'host.example.com',
  'a.b.c.de',
  'Host.Example.com',
  'a.b',
  'x.y.z',
  'Mon',
  'Jan',
  'Dec',
  'Sun',
  'mon',
  'MON',
  'B',
  'KB',
  'MiB',
  'TiB',
  'PB',
  'xB',
  'KiBs',
  'deadbeef',
  'deadbeefcafe',
  'abcdefab',
  'abcdefa',
  'DEADBEEF',
  '0x1f',
  'blk_-123',
  'node-7',
  'core.5',
  'jk2_init',
  'utf8_decode',
  'ab2_cd',
  'sha256_sum',
  'DFSClient_NONMAPREDUCE_-9_1',
  'attempt_1445_m_0',
  'a_1',
  'xy_z9',
  '=',
  ':',
  ',',
  ';',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  '@',
  '|',
  '<',
  '>',
  '<*>',
  ',,',
  ', ',
  '1,',
  '2;',
  '(4)',
  '[1, 2, 3]',
  '<5>',
  '\t',
  '  ',
  '\r',
  '\x0b',
  '\x0c',
  'a',
  'word',
  'Word',
  'WORD',
  '_',
  '-',
  '.',
  '/',
  '//',
  '\\',
  '123e4567-e89b-12d3-a456-426614174000',
];

/** Seeded random ASCII lines: pieces glued or spaced, now and then raw bytes, some of more than 64 tokens. */
function generatedLines(count: number, seed: number): string[] {
  const random = prng(seed);
  const asciiPieces = PIECES.filter((piece) => isAscii(Buffer.from(piece, 'utf8')));
  const lines: string[] = [];
  for (let n = 0; n < count; n++) {
    const pieces = random() < 0.05 ? 60 + Math.floor(random() * 30) : 1 + Math.floor(random() * 14);
    let line = '';
    for (let k = 0; k < pieces; k++) {
      if (random() < 0.08) line += String.fromCharCode(Math.floor(random() * 128));
      else line += asciiPieces[Math.floor(random() * asciiPieces.length)] as string;
      if (random() < 0.6) line += ' ';
    }
    lines.push(line.replace(/\n/g, ' '));
  }
  return lines;
}

/** Fingerprints every line both ways, the lines loaded as one chunk (text ending in a newline) as the tool loads them. */
function assertSameFingerprints(name: string, lines: readonly string[], scanner: BytesFingerprinter, keepHttpStatus: boolean): number {
  const ascii = lines.filter((line) => !line.includes('\n') && isAscii(Buffer.from(line, 'utf8')));
  const text = `${ascii.join('\n')}\n`;
  scanner.load(Buffer.from(text, 'latin1'));
  let at = 0;
  for (const line of ascii) {
    const expected = fingerprintRange(text, at, at + line.length, { keepHttpStatus });
    assert.equal(scanner.fingerprint(at, at + line.length), expected, `${name}, keepHttpStatus ${keepHttpStatus}: ${JSON.stringify(line)}`);
    at += line.length + 1;
  }
  return ascii.length;
}

test("the WebAssembly scanner gives the JavaScript scanner's fingerprint for every ASCII line of the LogHub sets, the own corpora and generated lines", () => {
  const sets = loadLoghubSets();
  assert.equal(sets.length, 10, 'the ten LogHub 2k sets');
  for (const keepHttpStatus of [true, false]) {
    const scanner = new BytesFingerprinter(keepHttpStatus);
    let compared = 0;
    for (const set of sets) compared += assertSameFingerprints(set.name, set.content, scanner, keepHttpStatus);
    for (const corpus of evalCorpora()) compared += assertSameFingerprints(corpus.name, corpus.content, scanner, keepHttpStatus);
    compared += assertSameFingerprints('warm-up lines', WARMUP_LINES, scanner, keepHttpStatus);
    compared += assertSameFingerprints('generated', generatedLines(30_000, keepHttpStatus ? 1 : 2), scanner, keepHttpStatus);
    // Nearly every line compared: the sets are ASCII but for a few lines.
    assert.ok(compared > 49_000, `${compared} lines compared`);
  }
});

test("a load larger than the scanner's memory grows it, and lines far into it come out right", () => {
  const scanner = new BytesFingerprinter(true);
  const line = 'GET /api/items/17 HTTP/1.1" 200 5123 took 12ms';
  const text = `${Array.from({ length: 100_000 }, (_, i) => line.replace('17', String(i))).join('\n')}\n`;
  assert.ok(text.length > 4 << 20);
  scanner.load(Buffer.from(text, 'latin1'));
  // The last line: `17` there is `99999`.
  const end = text.length - 1;
  const start = end - (line.length + 3);
  assert.equal(text.slice(start, end), line.replace('17', '99999'));
  assert.equal(scanner.fingerprint(start, end), fingerprintRange(text, start, end, { keepHttpStatus: true }));
  assert.equal(scanner.fingerprint(0, line.length), scanner.fingerprint(start, end), 'one template, whatever the number');
});

/** Pieces beyond ASCII: letters of two, three and four bytes, a no-break space, a replacement character. */
const UTF8_PIECES = ['é', 'käse', 'größe', '日本', '✓', '😀', '\u00a0', '\ufffd', 'Ünïcödé', 'Mäy', 'tëst.example.com', 'blk_é', 'HTTP/1.1é'];

test('for UTF-8 lines the numbers of the WebAssembly scanner are equal exactly where those of the JavaScript scanner are', () => {
  const random = prng(7);
  const ascii = generatedLines(3000, 3);
  const lines = ascii.map((line) => {
    const words = line.split(' ');
    for (let k = 0; k < 3; k++) words.splice(Math.floor(random() * (words.length + 1)), 0, UTF8_PIECES[Math.floor(random() * UTF8_PIECES.length)] as string);
    return words.join(random() < 0.5 ? ' ' : '');
  });
  // Repeats with other numbers, so many lines share a masking.
  const all = [...lines, ...lines.map((line) => line.replace(/[0-9]/g, (d) => String((Number(d) + 3) % 10)))];
  for (const keepHttpStatus of [true, false]) {
    const scanner = new BytesFingerprinter(keepHttpStatus);
    const byJs = new Map<number, number>();
    const byWasm = new Map<number, number>();
    for (let k = 0; k < all.length; k++) {
      const line = all[k] as string;
      const bytes = Buffer.from(line, 'utf8');
      scanner.load(bytes);
      const wasmFingerprint = scanner.fingerprint(0, bytes.length);
      const jsFingerprint = fingerprintRange(line, 0, line.length, { keepHttpStatus });
      // The first line of each group under either numbering must be the same line.
      if (!byJs.has(jsFingerprint)) byJs.set(jsFingerprint, k);
      if (!byWasm.has(wasmFingerprint)) byWasm.set(wasmFingerprint, k);
      assert.equal(
        byWasm.get(wasmFingerprint),
        byJs.get(jsFingerprint),
        `keepHttpStatus ${keepHttpStatus}: ${JSON.stringify(line)} and ${JSON.stringify(all[byJs.get(jsFingerprint) as number])}`,
      );
    }
    assert.ok(byJs.size < all.length * 0.9, 'lines share fingerprints');
  }
});

test('fingerprintLines splits a chunk into lines as lineRanges does, a batch at a time, and fingerprints each', () => {
  const lines = generatedLines(2 * BATCH_LINES + 100, 5).map((line, i) => (i % 3 === 0 ? `${line}\r` : line));
  // A tail without newline is no line.
  const text = `${lines.join('\n')}\nno newline after 42`;
  const scanner = new BytesFingerprinter(true);
  scanner.load(Buffer.from(text, 'latin1'));
  const expected = lineRanges(text.slice(0, text.lastIndexOf('\n') + 1));
  const ranges: number[] = [];
  const fingerprints: number[] = [];
  let batches = 0;
  for (let from = 0; from < text.length; from = scanner.nextLineOffset()) {
    const count = scanner.fingerprintLines(from);
    if (count === 0) break;
    batches++;
    ranges.push(...scanner.ranges.subarray(0, 2 * count));
    fingerprints.push(...scanner.fingerprints.subarray(0, count));
  }
  assert.equal(batches, 3);
  assert.deepEqual(ranges, [...expected]);
  for (let line = 0; line < fingerprints.length; line++) {
    assert.equal(
      fingerprints[line],
      fingerprintRange(text, expected[2 * line] as number, expected[2 * line + 1] as number, { keepHttpStatus: true }),
      `line ${line}`,
    );
  }
});
