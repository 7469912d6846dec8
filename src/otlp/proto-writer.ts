import { OtlpEncodeError } from './errors.js';
import { writeHex } from './hex.js';
import { writeUtf8 } from './utf8.js';

const TWO_POW_32 = 4294967296;

/** Bytes of a varint holding the unsigned 32-bit value `value`. */
export function varintSize(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

/** Bytes of a length-delimited field with a one-byte tag and `contentBytes` of content. */
export function fieldSize(contentBytes: number): number {
  return 1 + varintSize(contentBytes) + contentBytes;
}

/** Bytes of the int64 varint of a safe integer (negatives take 10: two's complement, sign-extended). */
export function int64Size(value: number): number {
  if (value < 0) return 10;
  if (value < TWO_POW_32) return varintSize(value);
  const lo = value >>> 0;
  const hi = Math.floor(value / TWO_POW_32);
  const part1 = ((lo >>> 28) | (hi << 4)) >>> 0;
  const part2 = hi >>> 24;
  if (part2 !== 0) return part2 < 128 ? 9 : 10;
  return part1 < 0x4000 ? (part1 < 0x80 ? 5 : 6) : part1 < 0x200000 ? 7 : 8;
}

/** Bytes of the varint of any int64 (given exactly, as a bigint). */
export function bigInt64Size(value: bigint): number {
  let rest = BigInt.asUintN(64, value);
  let bytes = 1;
  while (rest > 0x7fn) {
    rest >>= 7n;
    bytes += 1;
  }
  return bytes;
}

/**
 * A two-pass protobuf writer. Pass one (sizing) records every nested message size and string byte
 * length with plan(); pass two writes into one exact-size Buffer and takes them back with next()
 * in the same order. No buffer growth, no copy of nested messages.
 */
export class ProtoWriter {
  /** Sizes recorded by the sizing pass, consumed in the same order by the writing pass. */
  private readonly plan: number[] = [];
  private planRead = 0;
  buf: Buffer = Buffer.alloc(0);
  private view = new DataView(this.buf.buffer);
  pos = 0;

  /** Starts a sizing pass. */
  resetPlan(): void {
    this.plan.length = 0;
    this.planRead = 0;
  }

  /** Reserves a slot for a size known only after the children are sized; fill it with setPlanned. */
  reserve(): number {
    this.plan.push(0);
    return this.plan.length - 1;
  }

  setPlanned(slot: number, bytes: number): void {
    this.plan[slot] = bytes;
  }

  /** Records a size now (string byte lengths). */
  record(bytes: number): void {
    this.plan.push(bytes);
  }

  /** Takes the next recorded size during the writing pass. */
  next(): number {
    return this.plan[this.planRead++];
  }

  /** The next recorded size, without taking it. */
  peek(): number {
    return this.plan[this.planRead];
  }

  /** Starts the writing pass into a fresh buffer of exactly `totalBytes`. */
  startWrite(totalBytes: number): void {
    this.buf = Buffer.allocUnsafe(totalBytes);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    this.pos = 0;
    this.planRead = 0;
  }

  /** Ends the writing pass and returns the buffer; a size mismatch is a bug in a sizer. */
  finish(): Buffer {
    if (this.pos !== this.buf.length || this.planRead !== this.plan.length) {
      throw new OtlpEncodeError(`encoder size mismatch: wrote ${this.pos} of ${this.buf.length} bytes`);
    }
    const out = this.buf;
    this.buf = Buffer.alloc(0);
    return out;
  }

  varint(value: number): void {
    const buf = this.buf;
    let pos = this.pos;
    while (value > 0x7f) {
      buf[pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buf[pos++] = value;
    this.pos = pos;
  }

  /** Writes a safe integer as an int64 varint. */
  int64(value: number): void {
    if (value >= 0 && value < TWO_POW_32) {
      this.varint(value);
      return;
    }
    const magnitude = Math.abs(value);
    let lo = magnitude >>> 0;
    let hi = Math.floor(magnitude / TWO_POW_32) >>> 0;
    if (value < 0) {
      // Two's complement of the 64-bit magnitude.
      lo = (~lo + 1) >>> 0;
      hi = (~hi + (lo === 0 ? 1 : 0)) >>> 0;
    }
    const buf = this.buf;
    let pos = this.pos;
    while (hi !== 0) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 0x7f) {
      buf[pos++] = (lo & 0x7f) | 0x80;
      lo >>>= 7;
    }
    buf[pos++] = lo;
    this.pos = pos;
  }

  /** Writes any int64 (given exactly, as a bigint) as its varint. */
  bigInt64(value: bigint): void {
    let rest = BigInt.asUintN(64, value);
    const buf = this.buf;
    let pos = this.pos;
    while (rest > 0x7fn) {
      buf[pos++] = Number(rest & 0x7fn) | 0x80;
      rest >>= 7n;
    }
    buf[pos++] = Number(rest);
    this.pos = pos;
  }

  /** Writes an int32 (a negative one sign-extended to 10 bytes, as protobuf requires). */
  int32(value: number): void {
    if (value >= 0) this.varint(value);
    else this.int64(value);
  }

  fixed64(value: bigint): void {
    this.view.setBigUint64(this.pos, value, true);
    this.pos += 8;
  }

  double(value: number): void {
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  /** Writes tag, length and UTF-8 bytes of a string whose byte length was recorded. */
  stringField(tag: number, text: string): void {
    const byteLength = this.next();
    this.buf[this.pos++] = tag;
    this.varint(byteLength);
    this.pos = writeUtf8(text, this.buf, this.pos, byteLength);
  }

  /** Writes tag, length and bytes of a hex id. */
  hexField(tag: number, hex: string): void {
    this.buf[this.pos++] = tag;
    this.buf[this.pos++] = hex.length >>> 1;
    writeHex(hex, this.buf, this.pos);
    this.pos += hex.length >>> 1;
  }

  /** Writes a one-byte tag followed by a message length. */
  messageHeader(tag: number, contentBytes: number): void {
    this.buf[this.pos++] = tag;
    this.varint(contentBytes);
  }
}
