/**
 * UTF-8 <-> string helpers for the codec's hot paths. Attribute keys and many values repeat across
 * spans, so short strings are interned through a small direct-mapped cache: a hit costs a byte
 * compare and allocates nothing, where a fresh decode costs a native call and later GC work.
 */

/** Node's native slice/write methods, present on Buffer since Node 0.x but absent from @types/node. */
interface NativeBufferMethods {
  utf8Slice(start: number, end: number): string;
  utf8Write(text: string, offset: number, length: number): number;
  latin1Write(text: string, offset: number, length: number): number;
}

/**
 * The native methods skip the argument checks of toString/write (measured ~2x faster on short
 * strings). They are undocumented, so fall back to the public API should a Node release drop them.
 */
const proto = Buffer.prototype as unknown as Partial<NativeBufferMethods>;
const HAS_NATIVE_METHODS = typeof proto.utf8Slice === 'function' && typeof proto.utf8Write === 'function' && typeof proto.latin1Write === 'function';

const CACHE_SLOTS = 8192;
/** Longer strings are usually unique (URLs, statements) and cheaper to decode than to compare. */
const CACHE_MAX_BYTES = 24;
const cacheBytes = new Uint8Array(CACHE_SLOTS * CACHE_MAX_BYTES);
const cacheLengths = new Int32Array(CACHE_SLOTS).fill(-1);
const cacheStrings: string[] = new Array<string>(CACHE_SLOTS).fill('');

function sliceUtf8(bytes: Buffer, start: number, end: number): string {
  if (HAS_NATIVE_METHODS) return (bytes as unknown as NativeBufferMethods).utf8Slice(start, end);
  return bytes.toString('utf8', start, end);
}

/** Decodes bytes[start, end) as UTF-8 (invalid sequences become U+FFFD, as in Buffer#toString). */
export function readUtf8(bytes: Buffer, start: number, end: number): string {
  const byteLength = end - start;
  if (byteLength === 0) return '';
  if (byteLength > CACHE_MAX_BYTES) return sliceUtf8(bytes, start, end);
  // Sampled hash: the full compare below makes a weak hash safe, and sampling keeps it cheap.
  const last = end - 1;
  const quarter = byteLength >> 2;
  let hash = Math.imul(byteLength ^ bytes[start], 0x01000193);
  hash = Math.imul(hash ^ bytes[last], 0x01000193);
  hash = Math.imul(hash ^ bytes[start + (byteLength >> 1)], 0x01000193);
  hash = Math.imul(hash ^ bytes[start + quarter], 0x01000193);
  hash = Math.imul(hash ^ bytes[last - quarter], 0x01000193);
  const slot = (hash ^ (hash >>> 13)) & (CACHE_SLOTS - 1);
  const base = slot * CACHE_MAX_BYTES;
  if (cacheLengths[slot] === byteLength) {
    let i = 0;
    while (i < byteLength && cacheBytes[base + i] === bytes[start + i]) i++;
    if (i === byteLength) return cacheStrings[slot];
  }
  const text = sliceUtf8(bytes, start, end);
  for (let i = 0; i < byteLength; i++) cacheBytes[base + i] = bytes[start + i];
  cacheLengths[slot] = byteLength;
  cacheStrings[slot] = text;
  return text;
}

/** Number of bytes `text` takes in UTF-8, counting a lone surrogate as U+FFFD (3 bytes) like Buffer does. */
export function utf8Length(text: string): number {
  const length = text.length;
  let bytes = length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) {
      bytes += 1;
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // the pair's two UTF-16 units already counted 2 of its 4 bytes
      i++;
    } else {
      bytes += 2;
    }
  }
  return bytes;
}

/** Below these lengths a JS loop beats the native call (measured on Node 20). */
const MANUAL_ASCII_MAX_CHARS = 24;
const MANUAL_UTF8_MAX_CHARS = 48;

/** Writes `text` as UTF-8 at `pos`, which must have `byteLength` (from utf8Length) bytes free; returns the end. */
export function writeUtf8(text: string, out: Buffer, pos: number, byteLength: number): number {
  const length = text.length;
  if (byteLength === length) {
    // One byte per UTF-16 unit means all ASCII: latin1 bytes are the UTF-8 bytes.
    if (length <= MANUAL_ASCII_MAX_CHARS) {
      for (let i = 0; i < length; i++) out[pos + i] = text.charCodeAt(i);
      return pos + length;
    }
    if (HAS_NATIVE_METHODS) return pos + (out as unknown as NativeBufferMethods).latin1Write(text, pos, length);
    return pos + out.write(text, pos, length, 'latin1');
  }
  if (length > MANUAL_UTF8_MAX_CHARS) {
    if (HAS_NATIVE_METHODS) return pos + (out as unknown as NativeBufferMethods).utf8Write(text, pos, byteLength);
    return pos + out.write(text, pos, byteLength, 'utf8');
  }
  for (let i = 0; i < length; i++) {
    let code = text.charCodeAt(i);
    if (code < 0x80) {
      out[pos++] = code;
    } else if (code < 0x800) {
      out[pos++] = 0xc0 | (code >> 6);
      out[pos++] = 0x80 | (code & 0x3f);
    } else if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < length ? text.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && (next & 0xfc00) === 0xdc00) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
        out[pos++] = 0xf0 | (code >> 18);
        out[pos++] = 0x80 | ((code >> 12) & 0x3f);
        out[pos++] = 0x80 | ((code >> 6) & 0x3f);
        out[pos++] = 0x80 | (code & 0x3f);
      } else {
        // Lone surrogate: U+FFFD, as Buffer#write does, so sizes agree with utf8Length.
        out[pos++] = 0xef;
        out[pos++] = 0xbf;
        out[pos++] = 0xbd;
      }
    } else {
      out[pos++] = 0xe0 | (code >> 12);
      out[pos++] = 0x80 | ((code >> 6) & 0x3f);
      out[pos++] = 0x80 | (code & 0x3f);
    }
  }
  return pos;
}
