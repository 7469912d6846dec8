import { Worker } from 'node:worker_threads';
import type { BusRecord } from '../model/bus.js';
import type { EncodeRequest } from './encoder-thread.js';
import { packRecords } from './pack-records.js';
import { encodeRecordPayloads, type RecordPayloads } from './record-payloads.js';

/** Turns bus records into insert payloads; on its own thread unless `threaded` is false. */
export interface PayloadEncoder {
  encode(records: readonly BusRecord[], nowMs: number): Promise<RecordPayloads>;
  close(): Promise<void>;
}

/**
 * Measured with the ingest bench at 10k spans/s + 10k logs/s: decoding the records and encoding
 * the insert payloads took ~15 % of the all-in-one main thread (and much of its garbage), which
 * also runs ingest, the assembler and the logminer; one encoder thread takes that off it. Requests
 * are answered in order. The bytes in flight are bounded by the bus's per-group in-flight bound.
 */
export function createPayloadEncoder(options: { threaded: boolean }): PayloadEncoder {
  if (!options.threaded) {
    return {
      encode: async (records, nowMs) => encodeRecordPayloads(packRecords(records), nowMs),
      close: async () => {},
    };
  }
  let worker: Worker | undefined;
  let seq = 0;
  const pending = new Map<number, { resolve: (payloads: RecordPayloads) => void; reject: (error: Error) => void }>();

  function failAll(error: Error): void {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  }

  function thread(): Worker {
    if (worker !== undefined) return worker;
    const started = new Worker(new URL('./encoder-thread.js', import.meta.url));
    // Never what keeps a process alive: the writer's consumer and batcher are.
    started.unref();
    started.on('message', (reply: { seq: number; payloads: RecordPayloads }) => {
      const waiter = pending.get(reply.seq);
      pending.delete(reply.seq);
      waiter?.resolve(reply.payloads);
    });
    // A dead thread fails what it held (the bus redelivers those batches) and is started afresh
    // by the next request.
    started.on('error', (error) => failAll(error));
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      failAll(new Error(`the writer's encoder thread exited with code ${code}`));
    });
    worker = started;
    return started;
  }

  return {
    encode(records, nowMs) {
      const packed = packRecords(records);
      const request: EncodeRequest = { seq: ++seq, packed, nowMs };
      return new Promise<RecordPayloads>((resolve, reject) => {
        pending.set(request.seq, { resolve, reject });
        thread().postMessage(request, [packed.bytes.buffer as ArrayBuffer]);
      });
    },
    async close() {
      const stopping = worker;
      worker = undefined;
      if (stopping !== undefined) await stopping.terminate();
    },
  };
}
