import { crc32 } from 'node:zlib';

/**
 * The checksums of the embedded bus's log frames (format in entry-codec.ts): u32 body length,
 * u32 CRC-32 of the body, body. A module of its own so that the bus's I/O threads, which fill the
 * checksums in, load nothing else of the codec.
 */

export const FRAME_HEADER_BYTES = 8;
/** A frame longer than this is corruption, not data: records are bounded by kafka.max_record_bytes. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Fills in the checksum of every frame in `frames`, whole frames back to back (as
 * writeRecordFrame writes them). Throws, having sealed none past it, at a length that does not fit.
 */
export function sealFrames(frames: Uint8Array): void {
  const view = new DataView(frames.buffer, frames.byteOffset, frames.byteLength);
  for (let at = 0; at < frames.byteLength;) {
    const bodyBytes = at + FRAME_HEADER_BYTES <= frames.byteLength ? view.getUint32(at, true) : 0;
    const end = at + FRAME_HEADER_BYTES + bodyBytes;
    if (bodyBytes < 1 || bodyBytes > MAX_BODY_BYTES || end > frames.byteLength) throw new Error(`no whole frame at byte ${at} of ${frames.byteLength}`);
    view.setUint32(at + 4, crc32(frames.subarray(at + FRAME_HEADER_BYTES, end)), true);
    at = end;
  }
}
