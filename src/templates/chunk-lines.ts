/** Ranges of the last chunk split (reused: one pass writes here, then the exact count is copied out). */
let scratch = new Int32Array(1 << 16);

/**
 * Where the lines of `text` (which ends with `\n`) start and end, two entries a line; an `\r`
 * before the `\n` is left out. One pass over the text.
 */
export function lineRanges(text: string): Int32Array {
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
  return scratch.slice(0, at);
}
