/**
 * Worker thread of `svc templates`: splits each chunk of text it is sent into lines and
 * fingerprints them, so the main thread only looks lines up and mines the misses. Fingerprinting
 * needs no template state, so it runs a chunk ahead of the mining.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MaskOptions } from '../mining/masking.js';
import { chunkLines } from './chunk-lines.js';

const port = parentPort;
if (port === null) throw new Error('fingerprint-thread must run in a worker thread');
const mask = workerData as MaskOptions;
port.on('message', (text: string) => {
  const { ranges, fingerprints } = chunkLines(text, mask);
  port.postMessage({ ranges, fingerprints }, [ranges.buffer as ArrayBuffer, fingerprints.buffer as ArrayBuffer]);
});
