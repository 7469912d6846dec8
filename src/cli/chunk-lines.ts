import { fingerprintRange, type MaskOptions } from '../mining/masking.js';

/** The lines of a chunk of text that ends with `\n`, and each line's fingerprint. */
export interface ChunkLines {
  /** start, end (exclusive) of each line, two entries a line; an `\r` before the `\n` is left out. */
  ranges: Int32Array;
  /** The miner's fingerprint of each line (fingerprintRange under the given mask options). */
  fingerprints: Float64Array;
}

/** Ranges of the last chunk split (reused: one pass writes here, then the exact count is copied out). */
let scratch = new Int32Array(1 << 16);

/**
 * Where the lines of `text` (which ends with `\n`) start and end, two entries a line, in
 * `scratch[0, returned count)`; an `\r` before the `\n` is left out. One pass over the text.
 */
function scanLineRanges(text: string): number {
  let start = 0;
  let at = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    if (at + 2 > scratch.length) {
      const grown = new Int32Array(scratch.length * 2);
      grown.set(scratch);
      scratch = grown;
    }
    scratch[at++] = start;
    scratch[at++] = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    start = nl + 1;
  }
  return at;
}

/** Where the lines of `text` (which ends with `\n`) start and end: two entries a line. */
export function lineRanges(text: string): Int32Array {
  // The scan may replace `scratch` with a larger array: read it after.
  const entries = scanLineRanges(text);
  return scratch.slice(0, entries);
}

/** Lines each thread claims at a time: small enough that the thread that needs a chunk waits at most for one block of the other. */
export const BLOCK_LINES = 256;
/** Slots of the control array: the next block to claim, and how many blocks are done. */
const NEXT_BLOCK = 0;
const DONE_BLOCKS = 1;
const CONTROL_BYTES = 8;

/**
 * A chunk's lines in memory both threads see: the ranges (written before the chunk is shared), the
 * fingerprints, and the counters through which either thread claims the next block of lines to
 * fingerprint. Whoever needs the chunk first no longer waits for the other to finish it whole.
 */
export interface SharedLines extends ChunkLines {
  buffer: SharedArrayBuffer;
  lineCount: number;
  control: Int32Array;
  blocks: number;
}

/** Views of a shared chunk of `lineCount` lines in `buffer`. */
export function viewSharedLines(buffer: SharedArrayBuffer, lineCount: number): SharedLines {
  // Fingerprints first (8-byte aligned), then ranges, then the control counters.
  const fingerprints = new Float64Array(buffer, 0, lineCount);
  const ranges = new Int32Array(buffer, lineCount * 8, lineCount * 2);
  const control = new Int32Array(buffer, lineCount * 16, CONTROL_BYTES / 4);
  return { buffer, lineCount, fingerprints, ranges, control, blocks: Math.ceil(lineCount / BLOCK_LINES) };
}

/** Splits `text` (which ends with `\n`) into lines in shared memory, none fingerprinted yet. */
export function shareLines(text: string): SharedLines {
  const entries = scanLineRanges(text);
  const lineCount = entries / 2;
  const lines = viewSharedLines(new SharedArrayBuffer(lineCount * 16 + CONTROL_BYTES), lineCount);
  lines.ranges.set(scratch.subarray(0, entries));
  return lines;
}

/**
 * Claims blocks of lines of a shared chunk and fingerprints them until no block is left to claim.
 * Returns true when this call finished the chunk's last block (so the other thread, if it still
 * held blocks, has finished them before).
 */
export function fingerprintClaimedBlocks(text: string, lines: SharedLines, mask: MaskOptions): boolean {
  const { ranges, fingerprints, control, blocks, lineCount } = lines;
  let finishedLast = false;
  for (let block = Atomics.add(control, NEXT_BLOCK, 1); block < blocks; block = Atomics.add(control, NEXT_BLOCK, 1)) {
    const end = Math.min(lineCount, (block + 1) * BLOCK_LINES);
    for (let line = block * BLOCK_LINES; line < end; line++) {
      fingerprints[line] = fingerprintRange(text, ranges[2 * line] as number, ranges[2 * line + 1] as number, mask);
    }
    // The add publishes the fingerprints written above to a thread that reads the count.
    finishedLast = Atomics.add(control, DONE_BLOCKS, 1) + 1 === blocks;
  }
  return finishedLast;
}

/** Whether every block of a shared chunk is fingerprinted. */
export function allBlocksDone(lines: SharedLines): boolean {
  return Atomics.load(lines.control, DONE_BLOCKS) === lines.blocks;
}
