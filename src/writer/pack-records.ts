import { SIGNAL_HEADER, type BusRecord } from '../model/bus.js';
import type { PackedRecords } from './record-payloads.js';

/** Copies the values of `records` into one fresh buffer (one memcpy each) for the encoder thread. */
export function packRecords(records: readonly BusRecord[]): PackedRecords {
  let total = 0;
  for (const record of records) total += record.value.length;
  // A dedicated ArrayBuffer (never Buffer's shared pool), so it can be transferred, not copied;
  // left unzeroed, as every byte of it is written below.
  const bytes = Buffer.allocUnsafeSlow(total);
  const ends = new Uint32Array(records.length);
  const logs = new Uint8Array(records.length);
  let offset = 0;
  for (let i = 0; i < records.length; i++) {
    const record = records[i];
    bytes.set(record.value, offset);
    offset += record.value.length;
    ends[i] = offset;
    logs[i] = record.headers?.[SIGNAL_HEADER] === 'logs' ? 1 : 0;
  }
  return { bytes, ends, logs };
}
