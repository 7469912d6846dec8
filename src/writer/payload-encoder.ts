import type { BusRecord } from '../model/bus.js';
import type { InsertFormat } from '../model/store.js';
import { WorkerRpc } from '../util/worker-rpc.js';
import type { EncodeReply, EncodeRequest } from './encoder-thread.js';
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
 * also runs ingest, the assembler and the logminer; one encoder thread takes that off it.
 * Re-measure: `SVC_BENCH_INGEST_RATE=10000 SVC_BENCH_SVC_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"
 * npm run bench -- ingest-e2e` writes one CPU profile per thread of the svc process; the encoder
 * thread's busy time against the main thread's total is the share this thread takes off it.
 * Requests are answered in order. The bytes in flight are bounded by the bus's per-group in-flight bound.
 */
export function createPayloadEncoder(options: { threaded: boolean; format: InsertFormat }): PayloadEncoder {
  if (!options.threaded) {
    return {
      encode: async (records, nowMs) => encodeRecordPayloads(packRecords(records), nowMs, options.format),
      close: async () => {},
    };
  }
  type EncoderThread = WorkerRpc<EncodeRequest, EncodeReply>;
  let thread: EncoderThread | undefined;

  // A dead thread fails what it held (the bus redelivers those batches) and is started afresh by
  // the next request.
  function running(): EncoderThread {
    if (thread !== undefined && thread.failed === null) return thread;
    // Never what keeps a process alive while idle: the writer's consumer and batcher are.
    thread = new WorkerRpc(new URL('./encoder-thread.js', import.meta.url), { name: "the writer's encoder thread", idleUnref: true });
    return thread;
  }

  return {
    encode(records, nowMs) {
      const packed = packRecords(records);
      return running()
        .request({ packed, nowMs, format: options.format }, [packed.bytes.buffer as ArrayBuffer])
        .then((reply) => reply.payloads);
    },
    async close() {
      const stopping = thread;
      thread = undefined;
      if (stopping !== undefined) await stopping.close();
    },
  };
}
