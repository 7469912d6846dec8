import { OtlpDecodeError } from './errors.js';
import { MAX_NESTING_DEPTH } from './limits.js';
import { readUtf8 } from './utf8.js';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

/** 2^32 as a double, to join two 32-bit halves. */
const TWO_POW_32 = 4294967296;

/**
 * A bounds-checked cursor over protobuf bytes. Every read takes the end of the enclosing message,
 * so no length can reach past its parent, and every failure is an OtlpDecodeError.
 */
export class ProtoReader {
  readonly buf: Buffer;
  private readonly view: DataView;
  pos = 0;
  /** Halves of the last 64-bit varint read by varint64(); fields instead of an object to avoid allocation. */
  lo = 0;
  hi = 0;

  constructor(bytes: Uint8Array) {
    this.buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  /** Reads a varint and returns its low 32 bits as an unsigned number (tags, lengths, uint32). */
  varint32(end: number): number {
    const buf = this.buf;
    let pos = this.pos;
    if (pos >= end) throw new OtlpDecodeError('truncated varint');
    let byte = buf[pos++];
    if (byte < 0x80) {
      this.pos = pos;
      return byte;
    }
    let value = byte & 0x7f;
    for (let shift = 7; shift < 35; shift += 7) {
      if (pos >= end) throw new OtlpDecodeError('truncated varint');
      byte = buf[pos++];
      value |= (byte & 0x7f) << shift;
      if (byte < 0x80) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    // Bytes 6..10 carry bits above 32: ignored for uint32, but they must end in time.
    for (let i = 5; i < 10; i++) {
      if (pos >= end) throw new OtlpDecodeError('truncated varint');
      if (buf[pos++] < 0x80) {
        this.pos = pos;
        return value >>> 0;
      }
    }
    throw new OtlpDecodeError('varint longer than 10 bytes');
  }

  /** Reads a varint into this.lo (unsigned) and this.hi (signed 32-bit), for int64 values. */
  varint64(end: number): void {
    const buf = this.buf;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    let byte = 0;
    for (let shift = 0; shift < 28; shift += 7) {
      if (pos >= end) throw new OtlpDecodeError('truncated varint');
      byte = buf[pos++];
      lo |= (byte & 0x7f) << shift;
      if (byte < 0x80) return this.setVarint64(pos, lo, hi);
    }
    if (pos >= end) throw new OtlpDecodeError('truncated varint');
    byte = buf[pos++];
    lo |= (byte & 0x7f) << 28;
    hi = (byte & 0x7f) >> 4;
    if (byte < 0x80) return this.setVarint64(pos, lo, hi);
    for (let shift = 3; shift < 32; shift += 7) {
      if (pos >= end) throw new OtlpDecodeError('truncated varint');
      byte = buf[pos++];
      hi |= (byte & 0x7f) << shift;
      if (byte < 0x80) return this.setVarint64(pos, lo, hi);
    }
    throw new OtlpDecodeError('varint longer than 10 bytes');
  }

  private setVarint64(pos: number, lo: number, hi: number): void {
    this.pos = pos;
    this.lo = lo >>> 0;
    this.hi = hi | 0;
  }

  /** An int32 or enum field (negative values arrive sign-extended to 10 bytes). */
  int32(end: number): number {
    return this.varint32(end) | 0;
  }

  /** An int64 as a number when it is a safe integer, else as its exact decimal string. */
  int64(end: number): number | string {
    this.varint64(end);
    const value = this.hi * TWO_POW_32 + this.lo;
    // Rounding is monotonic, so a result inside the safe range was computed exactly.
    if (Number.isSafeInteger(value)) return value;
    return BigInt.asIntN(64, (BigInt(this.hi >>> 0) << 32n) | BigInt(this.lo)).toString();
  }

  /** Reads a length prefix and returns the end offset of the field's bytes, checked against `end`. */
  lengthEnd(end: number): number {
    const length = this.varint32(end);
    if (length > end - this.pos) throw new OtlpDecodeError('length past end');
    return this.pos + length;
  }

  /** A fixed64 as an exact unsigned bigint. */
  fixed64(end: number): bigint {
    const pos = this.pos;
    if (end - pos < 8) throw new OtlpDecodeError('truncated fixed64');
    this.pos = pos + 8;
    return this.view.getBigUint64(pos, true);
  }

  double(end: number): number {
    const pos = this.pos;
    if (end - pos < 8) throw new OtlpDecodeError('truncated double');
    this.pos = pos + 8;
    return this.view.getFloat64(pos, true);
  }

  /** A length-delimited UTF-8 string. */
  string(end: number): string {
    const stringEnd = this.lengthEnd(end);
    const start = this.pos;
    this.pos = stringEnd;
    return readUtf8(this.buf, start, stringEnd);
  }

  /**
   * Skips a field that this decoder does not read, by its wire type (forward compatibility).
   * `knownMask` has bit N set for each field number N < 32 the message reads: such a field with
   * another wire type is malformed, not unknown.
   */
  skipUnknown(tag: number, end: number, knownMask: number): void {
    const field = tag >>> 3;
    if (field === 0) throw new OtlpDecodeError('field number 0');
    if (field < 32 && ((knownMask >>> field) & 1) !== 0) {
      throw new OtlpDecodeError(`wrong wire type ${tag & 7} for field ${field}`);
    }
    this.skip(tag, end, 0);
  }

  private skip(tag: number, end: number, depth: number): void {
    switch (tag & 7) {
      case WIRE_VARINT:
        this.varint64(end);
        return;
      case WIRE_FIXED64:
        if (end - this.pos < 8) throw new OtlpDecodeError('truncated fixed64');
        this.pos += 8;
        return;
      case WIRE_LEN:
        this.pos = this.lengthEnd(end);
        return;
      case WIRE_FIXED32:
        if (end - this.pos < 4) throw new OtlpDecodeError('truncated fixed32');
        this.pos += 4;
        return;
      case WIRE_START_GROUP:
        this.skipGroup(tag >>> 3, end, depth + 1);
        return;
      case WIRE_END_GROUP:
        throw new OtlpDecodeError('unexpected end group');
      default:
        throw new OtlpDecodeError(`bad wire type ${tag & 7}`);
    }
  }

  private skipGroup(field: number, end: number, depth: number): void {
    if (depth > MAX_NESTING_DEPTH) throw new OtlpDecodeError('nesting too deep');
    for (;;) {
      if (this.pos >= end) throw new OtlpDecodeError('truncated group');
      const tag = this.varint32(end);
      if (tag >>> 3 === 0) throw new OtlpDecodeError('field number 0');
      if ((tag & 7) === WIRE_END_GROUP) {
        if (tag >>> 3 !== field) throw new OtlpDecodeError('mismatched end group');
        return;
      }
      this.skip(tag, end, depth);
    }
  }
}

/** Bit mask with bit N set for each listed field number (all below 32). */
export function fieldMask(...fields: number[]): number {
  let mask = 0;
  for (const field of fields) mask |= 1 << field;
  return mask;
}
