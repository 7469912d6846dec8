/**
 * Worker thread of `svc templates`: fingerprints the lines of each chunk it is sent, a block of
 * lines at a time, in shared memory, while the main thread mines earlier chunks; blocks the main
 * thread has claimed meanwhile are left to it. Fingerprinting needs no template state, so it runs
 * ahead of the mining.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MaskOptions } from '../mining/masking.js';
import { warmUpMasking } from '../mining/masking-warmup.js';
import { fingerprintClaimedBlocks, viewSharedLines } from './chunk-lines.js';
import type { ChunkMessage } from './fingerprint-pipeline.js';

const port = parentPort;
if (port === null) throw new Error('fingerprint-thread must run in a worker thread');
const mask = workerData as MaskOptions;
warmUpMasking();
port.on('message', ({ seq, text, buffer, lineCount }: ChunkMessage) => {
  // Only the thread that finishes the last block tells: if it is this one, the main thread may be waiting.
  if (fingerprintClaimedBlocks(text, viewSharedLines(buffer, lineCount), mask)) port.postMessage(seq);
});
