import { TAG_ARRAY, TAG_BOOL, TAG_BYTES, TAG_DOUBLE, TAG_INT, TAG_KEY, TAG_KVLIST, TAG_STRING, TAG_VALUE, TAG_VALUES } from './any-value-tags.js';
import { OtlpDecodeError } from './errors.js';
import { MAX_NESTING_DEPTH } from './limits.js';
import { fieldMask, type ProtoReader } from './proto-reader.js';

// The same fields any-value.ts reads, so that a message one rejects the other rejects too.
const ANY_VALUE_FIELDS = fieldMask(1, 2, 3, 4, 5, 6, 7);
const KEY_VALUE_FIELDS = fieldMask(1, 2);
const VALUES_FIELDS = fieldMask(1);

/**
 * Walks the KeyValue message in [r.pos, end) with every check readKeyValue makes (wire types,
 * lengths, nesting depth) and builds nothing: for a reader that needs to know the message is
 * well-formed but not its values (ingest, whose consumers decode the records again).
 */
export function skipKeyValue(r: ProtoReader, end: number, depth: number): void {
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_KEY) r.pos = r.lengthEnd(end);
    else if (tag === TAG_VALUE) {
      const valueEnd = r.lengthEnd(end);
      // readKeyValue reads a lone short string without readAnyValue, so without its depth check.
      if (!isSimpleString(r, valueEnd)) skipAnyValue(r, valueEnd, depth);
      r.pos = valueEnd;
    } else r.skipUnknown(tag, end, KEY_VALUE_FIELDS);
  }
}

/** Walks the AnyValue message in [r.pos, end) with readAnyValue's checks, building nothing. */
export function skipAnyValue(r: ProtoReader, end: number, depth: number): void {
  if (depth > MAX_NESTING_DEPTH) throw new OtlpDecodeError('nesting too deep');
  while (r.pos < end) {
    const tag = r.varint32(end);
    switch (tag) {
      case TAG_STRING:
      case TAG_BYTES:
        r.pos = r.lengthEnd(end);
        break;
      case TAG_BOOL:
      case TAG_INT:
        r.varint64(end);
        break;
      case TAG_DOUBLE:
        r.double(end);
        break;
      case TAG_ARRAY: {
        const listEnd = r.lengthEnd(end);
        while (r.pos < listEnd) {
          const itemTag = r.varint32(listEnd);
          if (itemTag === TAG_VALUES) skipAnyValue(r, r.lengthEnd(listEnd), depth + 1);
          else r.skipUnknown(itemTag, listEnd, VALUES_FIELDS);
        }
        break;
      }
      case TAG_KVLIST: {
        const listEnd = r.lengthEnd(end);
        while (r.pos < listEnd) {
          const itemTag = r.varint32(listEnd);
          if (itemTag === TAG_VALUES) skipKeyValue(r, r.lengthEnd(listEnd), depth + 1);
          else r.skipUnknown(itemTag, listEnd, VALUES_FIELDS);
        }
        break;
      }
      default:
        r.skipUnknown(tag, end, ANY_VALUE_FIELDS);
    }
  }
}

/** any-value.ts's fast path: an AnyValue holding only a string_value of one-byte length. */
function isSimpleString(r: ProtoReader, end: number): boolean {
  const pos = r.pos;
  if (end - pos < 2 || r.buf[pos] !== TAG_STRING) return false;
  const length = r.buf[pos + 1] ?? 0xff;
  return length < 0x80 && pos + 2 + length === end;
}
