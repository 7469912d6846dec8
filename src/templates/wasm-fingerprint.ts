/**
 * The masking scanner's fingerprint compiled to WebAssembly (assembly/fingerprint.ts), over bytes as
 * read, without decoding them. For ASCII the number is fingerprintRange's over the same text. For
 * other UTF-8 it is another number with the same meaning: lines have equal numbers exactly when
 * their masked tokens are equal (the rules split and mask only on ASCII bytes, and a byte of a
 * multi-byte character is, as such a character is for the JavaScript scanner, a plain letter).
 * `svc templates` fingerprints its input with it, several times faster than the JavaScript scanner.
 */
import { compileWasm, instantiateWasm, WASM_PAGE_BYTES, type WasmMemory } from '../util/wasm-module.js';
import { CLASS, C_NONHEX } from '../mining/masking-rules.js';

interface ScannerExports {
  memory: WasmMemory;
  freeAddress(): number;
  fingerprint(from: number, to: number, keepStatus: boolean): number;
  fingerprintLines(text: number, length: number, from: number, maxLines: number, ranges: number, fingerprints: number, keepStatus: boolean): number;
  nextLineOffset(): number;
}

/** Class table entries the scanner reads: one per byte value. */
const CLASS_TABLE_BYTES = 256;
/**
 * Zero bytes after the text: the `HTTP/` look-ahead may read up to five bytes past a token's end
 * (the result then depends only on bytes inside it, as in masking-rules.ts), and those reads must
 * stay inside the memory.
 */
const LOOKAHEAD_BYTES = 8;
/** Lines fingerprinted per call of fingerprintLines: their ranges and fingerprints take 16 bytes each. */
export const BATCH_LINES = 4096;

let compiled: object | null = null;

/**
 * The compiled scanner (a few KiB; compiled once per thread, on first use). Throws a one-line
 * error naming the file when the build left it out (a build by `tsc` alone).
 */
export function scannerModule(): object {
  if (compiled === null) {
    compiled = compileWasm(new URL('./fingerprint.wasm', import.meta.url), 'scanner');
  }
  return compiled;
}

/**
 * One scanner instance with its own memory: load a chunk of bytes, then fingerprint its lines, a
 * batch at a time, or one line by its offsets.
 */
export class BytesFingerprinter {
  private readonly scanner: ScannerExports;
  private readonly rangesAddress: number;
  private readonly fingerprintsAddress: number;
  private readonly textAddress: number;
  private textLength = 0;
  /** Start and end offsets of the last batch's lines, two entries a line (valid until the next load or batch). */
  ranges: Int32Array;
  /** Fingerprints of the last batch's lines. */
  fingerprints: Float64Array;

  constructor(private readonly keepHttpStatus: boolean) {
    this.scanner = instantiateWasm(scannerModule()) as ScannerExports;
    this.rangesAddress = this.scanner.freeAddress();
    this.fingerprintsAddress = this.rangesAddress + BATCH_LINES * 8;
    this.textAddress = this.fingerprintsAddress + BATCH_LINES * 8;
    this.ensureBytes(this.textAddress + LOOKAHEAD_BYTES);
    const memory = new Uint8Array(this.scanner.memory.buffer);
    // Classes have one source: masking-rules.ts's table, every byte beyond ASCII a letter as there.
    memory.fill(C_NONHEX, 0, CLASS_TABLE_BYTES);
    memory.set(CLASS, 0);
    this.ranges = this.viewRanges();
    this.fingerprints = this.viewFingerprints();
  }

  /** Copies `bytes` into the scanner: the text whose lines are fingerprinted next. */
  load(bytes: Uint8Array): void {
    const endAddress = this.textAddress + bytes.length + LOOKAHEAD_BYTES;
    if (this.ensureBytes(endAddress)) {
      this.ranges = this.viewRanges();
      this.fingerprints = this.viewFingerprints();
    }
    const memory = new Uint8Array(this.scanner.memory.buffer);
    memory.set(bytes, this.textAddress);
    memory.fill(0, this.textAddress + bytes.length, endAddress);
    this.textLength = bytes.length;
  }

  /**
   * Fingerprints up to BATCH_LINES lines of the loaded text from offset `from` (lines end with
   * `\n`, an `\r` before it left out; bytes after the last `\n` are no line). Returns how many:
   * `ranges` and `fingerprints` hold them; nextLineOffset() tells where the next batch starts.
   */
  fingerprintLines(from: number): number {
    return this.scanner.fingerprintLines(
      this.textAddress,
      this.textLength,
      from,
      BATCH_LINES,
      this.rangesAddress,
      this.fingerprintsAddress,
      this.keepHttpStatus,
    );
  }

  /** The offset after the last batch's lines. */
  nextLineOffset(): number {
    return this.scanner.nextLineOffset();
  }

  /** The fingerprint of the loaded text's line [start, end) (offsets into the text). */
  fingerprint(start: number, end: number): number {
    return this.scanner.fingerprint(this.textAddress + start, this.textAddress + end, this.keepHttpStatus);
  }

  /** Grows the memory to at least `bytes`; true when it grew (views of it must then be made again). */
  private ensureBytes(bytes: number): boolean {
    const haveBytes = this.scanner.memory.buffer.byteLength;
    if (bytes <= haveBytes) return false;
    this.scanner.memory.grow(Math.ceil((bytes - haveBytes) / WASM_PAGE_BYTES));
    return true;
  }

  private viewRanges(): Int32Array {
    return new Int32Array(this.scanner.memory.buffer, this.rangesAddress, BATCH_LINES * 2);
  }

  private viewFingerprints(): Float64Array {
    return new Float64Array(this.scanner.memory.buffer, this.fingerprintsAddress, BATCH_LINES);
  }
}
