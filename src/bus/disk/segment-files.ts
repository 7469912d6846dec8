import { join } from 'node:path';
import type { DiskFs } from './disk-fs.js';
import { readFrame, type LogEntry } from './entry-codec.js';

/**
 * Segment files of the embedded bus's log. A segment is named after the global byte position of
 * its first frame (20 digits, so names sort like positions), and positions run on from one segment
 * into the next: a position names one frame in the whole log.
 */

const SEGMENT_SUFFIX = '.seg';
const NAME_DIGITS = 20;
/** How much a read takes from disk at once. */
export const READ_CHUNK_BYTES = 4 * 1024 * 1024;

export function segmentFileName(base: number): string {
  return `${String(base).padStart(NAME_DIGITS, '0')}${SEGMENT_SUFFIX}`;
}

/** Bases of the segment files in `dir`, oldest first. */
export async function listSegmentBases(fs: DiskFs, dir: string): Promise<number[]> {
  const names = await fs.readdir(dir);
  return names
    .filter((name) => name.endsWith(SEGMENT_SUFFIX) && /^\d+$/.test(name.slice(0, -SEGMENT_SUFFIX.length)))
    .map((name) => Number(name.slice(0, -SEGMENT_SUFFIX.length)))
    .sort((a, b) => a - b);
}

export interface PositionedEntry {
  /** Global position of the frame. */
  position: number;
  /** Global position just after it. */
  nextPosition: number;
  entry: LogEntry;
}

export interface SegmentScan {
  entries: PositionedEntry[];
  /** File bytes up to the end of the last whole frame read. */
  validBytes: number;
  /** Why reading stopped before `limitBytes`, when it did: a torn or corrupt frame, or zeroed space. */
  stoppedBy?: string;
  /** Reading stopped at a header of zeros: the start of zeroed space, if everything after it is zeros too (see `isZeroedFrom`). */
  zeroedAt?: number;
}

/**
 * Reads whole frames of the segment at `base` from file offset `fromBytes` up to `limitBytes`,
 * stopping after `maxBytes` of frames (at least one frame is returned when there is one).
 */
export async function readSegment(fs: DiskFs, dir: string, base: number, fromBytes: number, limitBytes: number, maxBytes: number): Promise<SegmentScan> {
  const handle = await fs.open(join(dir, segmentFileName(base)), 'r');
  try {
    const entries: PositionedEntry[] = [];
    let at = fromBytes;
    let chunk = Buffer.alloc(0);
    let chunkStart = at;
    while (at < limitBytes && at - fromBytes < maxBytes) {
      const inChunk = at - chunkStart;
      const frame = readFrame(chunk, inChunk);
      if (frame.kind === 'entry') {
        entries.push({ position: base + at, nextPosition: base + at + frame.frameBytes, entry: frame.entry });
        at += frame.frameBytes;
        continue;
      }
      if (frame.kind === 'corrupt') return { entries, validBytes: at, stoppedBy: frame.reason };
      if (frame.kind === 'zeroed') return { entries, validBytes: at, stoppedBy: 'a header of zeros', zeroedAt: at };
      // Partial: read on from `at`, at least the whole frame.
      const wanted = Math.min(Math.max(frame.neededBytes, READ_CHUNK_BYTES), limitBytes - at);
      if (wanted < frame.neededBytes && limitBytes - at < frame.neededBytes) {
        return { entries, validBytes: at, stoppedBy: 'torn frame at the end' };
      }
      chunk = Buffer.allocUnsafe(wanted);
      const { bytesRead } = await handle.read(chunk, 0, wanted, at);
      chunk = chunk.subarray(0, bytesRead);
      chunkStart = at;
      if (bytesRead < Math.min(frame.neededBytes, wanted) || bytesRead === 0) return { entries, validBytes: at, stoppedBy: 'torn frame at the end' };
    }
    return { entries, validBytes: at };
  } finally {
    await handle.close();
  }
}

/**
 * Whether the segment at `base` holds only zero bytes from `fromBytes` up to `toBytes`: space zeroed
 * in advance that no write reached. Anything else there is what a torn write left (its first bytes
 * lost, later ones on disk), to be cut like any torn tail.
 */
export async function isZeroedFrom(fs: DiskFs, dir: string, base: number, fromBytes: number, toBytes: number): Promise<boolean> {
  const handle = await fs.open(join(dir, segmentFileName(base)), 'r');
  try {
    const chunkBytes = Math.min(READ_CHUNK_BYTES, Math.max(0, toBytes - fromBytes));
    const chunk = Buffer.allocUnsafe(chunkBytes);
    const zeros = Buffer.alloc(chunkBytes);
    for (let at = fromBytes; at < toBytes;) {
      const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, toBytes - at), at);
      if (bytesRead === 0) return false;
      if (!chunk.subarray(0, bytesRead).equals(zeros.subarray(0, bytesRead))) return false;
      at += bytesRead;
    }
    return true;
  } finally {
    await handle.close();
  }
}
