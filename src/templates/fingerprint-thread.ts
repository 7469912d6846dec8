/**
 * Worker thread of `svc templates`: fingerprints the lines of each chunk of bytes it is sent with
 * its own WebAssembly scanner, while the main thread mines the chunks before it, and sends the
 * bytes back with the lines' ranges and fingerprints (all transferred, none copied or kept here).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BytesFingerprinter } from './wasm-fingerprint.js';
import type { ChunkReply, ChunkRequest } from './fingerprint-worker.js';

const port = parentPort;
if (port === null) throw new Error('fingerprint-thread must run in a worker thread');
const scanner = new BytesFingerprinter((workerData as { keepHttpStatus: boolean }).keepHttpStatus);
/** A guess of bytes per line to size the result arrays; they grow when lines are shorter. */
const GUESS_BYTES_PER_LINE = 48;

port.on('message', ({ seq, bytes }: ChunkRequest) => {
  const view = new Uint8Array(bytes);
  scanner.load(view);
  let ranges = new Int32Array(2 * Math.max(16, Math.ceil(view.length / GUESS_BYTES_PER_LINE)));
  let fingerprints = new Float64Array(ranges.length / 2);
  let lineCount = 0;
  for (let from = 0; from < view.length; from = scanner.nextLineOffset()) {
    const count = scanner.fingerprintLines(from);
    if (count === 0) break;
    if (lineCount + count > fingerprints.length) {
      const lines = Math.max(2 * fingerprints.length, lineCount + count);
      const grownRanges = new Int32Array(2 * lines);
      grownRanges.set(ranges.subarray(0, 2 * lineCount));
      ranges = grownRanges;
      const grownFingerprints = new Float64Array(lines);
      grownFingerprints.set(fingerprints.subarray(0, lineCount));
      fingerprints = grownFingerprints;
    }
    ranges.set(scanner.ranges.subarray(0, 2 * count), 2 * lineCount);
    fingerprints.set(scanner.fingerprints.subarray(0, count), lineCount);
    lineCount += count;
  }
  const reply: ChunkReply = { seq, bytes, lineCount, ranges: ranges.buffer, fingerprints: fingerprints.buffer };
  port.postMessage(reply, [bytes, ranges.buffer, fingerprints.buffer]);
});
// Chunks go to this thread only once it is ready; until then the main thread fingerprints them itself.
port.postMessage('ready');
