/**
 * What the assembler's open traces cost the JavaScript heap, and the time to buffer and close them,
 * on one core without storage. The all-in-one at 10k spans/s + 10k logs/s holds `gap_ms` (10 s) of
 * the stream open: tens of thousands of traces of one or two bus records each, kept encoded. Each
 * round runs in a fresh node process (`--expose-gc`), so heaps do not mix; with a base build the
 * rounds alternate between it and this one.
 *   SVC_BENCH_OPEN_TRACES        open traces per round (default 60000)
 *   SVC_BENCH_OPEN_TRACES_ROUNDS rounds (default 3; with a base, each round runs both)
 *   SVC_BENCH_OPEN_TRACES_BASE   a checkout of an older build (its dist/ is imported, never built)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import type * as TraceBufferModule from '../src/assembler/trace-buffer.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** Bus records are views of the bus's batch reads: several records share one allocation. */
const SHARED_READ_BYTES = 8192;
/** The e2e load's records: one trace's items of one export, a few hundred bytes each. */
const RECORD_BYTES = 600;
const CYCLES = 5;

interface Figures {
  heapBytesPerTrace: number;
  addNsPerTrace: number;
  closeNsPerTrace: number;
}

async function child(root: string, traces: number): Promise<Figures> {
  const { TraceBuffer } = (await import(pathToFileURL(join(root, 'dist/src/assembler/trace-buffer.js')).href)) as typeof TraceBufferModule;
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  // Ids and record bytes are made before the first heap reading: they exist in svc too (the bus's reads, the record keys).
  const ids = Array.from({ length: traces }, (_, i) => i.toString(16).padStart(32, '0'));
  const values: Buffer[] = [];
  let shared = Buffer.allocUnsafe(SHARED_READ_BYTES);
  let used = 0;
  for (let i = 0; i < traces * 1.25; i++) {
    if (used + RECORD_BYTES > SHARED_READ_BYTES) {
      shared = Buffer.allocUnsafe(SHARED_READ_BYTES);
      used = 0;
    }
    values.push(shared.subarray(used, used + RECORD_BYTES));
    used += RECORD_BYTES;
  }
  // A wall-clock time as svc passes it (Date.now(): not a small integer, so V8 boxes it in a field).
  const nowMs = 1_765_000_000_000;
  // Several cycles, each on a fresh buffer: the times are the fastest cycle's (the first includes compiling),
  // the heap is the last cycle's.
  let addNs = Infinity;
  let closeNs = Infinity;
  let heapBytes = 0;
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const buffer = new TraceBuffer({ gapMs: 10_000, maxAgeMs: 60_000, maxSpans: 10_000, maxBufferBytes: 2 ** 40, recentPerPartition: 100_000 });
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const addStart = process.hrtime.bigint();
    let next = 0;
    for (let i = 0; i < traces; i++) {
      // Half the traces hold spans, half logs (the e2e load's logs carry trace ids of their own); every fourth gets a second
      // record a millisecond later (which moves it among the traces whose gap runs out last).
      const signal = i % 2 === 0 ? 'traces' : 'logs';
      const partition = i % 12;
      buffer.addEncoded(partition, ids[i]!, { signal, items: 2, value: values[next++]! }, nowMs);
      if (i % 4 === 0) buffer.addEncoded(partition, ids[i]!, { signal, items: 1, value: values[next++]! }, nowMs + 1);
    }
    addNs = Math.min(addNs, Number(process.hrtime.bigint() - addStart));
    gc();
    heapBytes = process.memoryUsage().heapUsed - heapBefore;
    const closeStart = process.hrtime.bigint();
    const closed = buffer.closeDue(nowMs + 1 + 10_000).length;
    closeNs = Math.min(closeNs, Number(process.hrtime.bigint() - closeStart));
    if (buffer.openTraces !== 0 || closed !== traces / 2) throw new Error(`expected every trace closed, ${buffer.openTraces} open, ${closed} with spans`);
  }
  return { heapBytesPerTrace: heapBytes / traces, addNsPerTrace: addNs / traces, closeNsPerTrace: closeNs / traces };
}

function runChild(root: string, traces: number): Figures {
  const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), 'child', root, String(traces)], { encoding: 'utf8' });
  return JSON.parse(out) as Figures;
}

export async function main(): Promise<void> {
  const traces = Number(process.env.SVC_BENCH_OPEN_TRACES ?? 60_000);
  const rounds = Number(process.env.SVC_BENCH_OPEN_TRACES_ROUNDS ?? 3);
  const base = process.env.SVC_BENCH_OPEN_TRACES_BASE;
  for (let round = 0; round < rounds; round++) {
    const order = base === undefined ? [ROOT] : round % 2 === 0 ? [ROOT, base] : [base, ROOT];
    for (const root of order) {
      const f = runChild(root, traces);
      console.log(
        `assembler open traces [${root === ROOT ? 'this build' : `base ${root}`}]: ${f.heapBytesPerTrace.toFixed(0)} bytes of JS heap per open trace (${traces} open), ${f.addNsPerTrace.toFixed(0)} ns to buffer and ${f.closeNsPerTrace.toFixed(0)} ns to close each; load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
    }
  }
}

if (process.argv[2] === 'child') process.stdout.write(JSON.stringify(await child(process.argv[3]!, Number(process.argv[4]))));
else if (import.meta.url === `file://${process.argv[1]}`) await main();
