import { fingerprintRange, type MaskOptions } from '../mining/masking.js';

/** The lines of a chunk of text that ends with `\n`, and each line's fingerprint. */
export interface ChunkLines {
  /** start, end (exclusive) of each line, two entries a line; an `\r` before the `\n` is left out. */
  ranges: Int32Array;
  /** The miner's fingerprint of each line (fingerprintRange under the given mask options). */
  fingerprints: Float64Array;
}

/** Where the lines of `text` (which ends with `\n`) start and end: two entries a line. */
export function lineRanges(text: string): Int32Array {
  let count = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) count++;
  const ranges = new Int32Array(count * 2);
  let start = 0;
  let at = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
    ranges[at++] = start;
    ranges[at++] = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    start = nl + 1;
  }
  return ranges;
}

/** Splits `text` into lines and fingerprints each one: the part of mining that needs no template state. */
export function chunkLines(text: string, mask: MaskOptions): ChunkLines {
  const ranges = lineRanges(text);
  const fingerprints = new Float64Array(ranges.length / 2);
  for (let line = 0; line < fingerprints.length; line++) {
    fingerprints[line] = fingerprintRange(text, ranges[2 * line] as number, ranges[2 * line + 1] as number, mask);
  }
  return { ranges, fingerprints };
}
