import type { AttrMark, AttrPair, AttrValue } from '../model/signals.js';
import { TAG_ARRAY, TAG_BOOL, TAG_BYTES, TAG_DOUBLE, TAG_INT, TAG_KEY, TAG_KVLIST, TAG_STRING, TAG_VALUE, TAG_VALUES } from './any-value-tags.js';
import { OtlpDecodeError } from './errors.js';
import { MAX_NESTING_DEPTH } from './limits.js';
import { fieldMask, type ProtoReader } from './proto-reader.js';
import { readUtf8 } from './utf8.js';

// Fields read (tags in any-value-tags.ts): AnyValue 1-7, KeyValue key and value, ArrayValue and KeyValueList values.
const ANY_VALUE_FIELDS = fieldMask(1, 2, 3, 4, 5, 6, 7);
const KEY_VALUE_FIELDS = fieldMask(1, 2);
const VALUES_FIELDS = fieldMask(1);

/** Field number of the oneof case set by the last top-level readAnyValue (0 when empty). */
let lastAnyValueCase = 0;
/** The mark (signals.ts) of the value the last readAnyValue, readValues or readKvList returned. */
let lastMark: AttrMark | undefined;

/** Decodes the AnyValue message in [r.pos, end) to its JSON-like AttrValue (signals.ts). */
export function readAnyValue(r: ProtoReader, end: number, depth: number): AttrValue {
  if (depth > MAX_NESTING_DEPTH) throw new OtlpDecodeError('nesting too deep');
  let value: AttrValue = null;
  let valueCase = 0;
  let mark: AttrMark | undefined;
  while (r.pos < end) {
    const tag = r.varint32(end);
    mark = undefined;
    switch (tag) {
      case TAG_STRING:
        value = r.string(end);
        break;
      case TAG_BOOL:
        // Any non-zero varint is true, including one whose low 32 bits are all zero.
        r.varint64(end);
        value = (r.lo | r.hi) !== 0;
        break;
      case TAG_INT:
        value = r.int64(end);
        if (typeof value === 'string') mark = 'i';
        break;
      case TAG_DOUBLE:
        value = r.double(end);
        if (Number.isInteger(value)) mark = 'd';
        break;
      case TAG_ARRAY:
        value = readValues(r, r.lengthEnd(end), depth);
        mark = lastMark;
        break;
      case TAG_KVLIST:
        value = readKvList(r, r.lengthEnd(end), depth);
        mark = lastMark;
        break;
      case TAG_BYTES: {
        const bytesEnd = r.lengthEnd(end);
        value = r.buf.toString('base64', r.pos, bytesEnd);
        r.pos = bytesEnd;
        mark = 'b';
        break;
      }
      default:
        r.skipUnknown(tag, end, ANY_VALUE_FIELDS);
        continue;
    }
    valueCase = tag >>> 3;
  }
  lastAnyValueCase = valueCase;
  lastMark = mark;
  return value;
}

/**
 * A log body: a string AnyValue as is, an empty or absent one as '', any other as the JSON text of
 * its AttrValue (so a bytes body becomes a quoted base64 string).
 */
export function readBody(r: ProtoReader, end: number): string {
  const value = readAnyValue(r, end, 0);
  if (lastAnyValueCase === 1) return value as string;
  return value === null ? '' : JSON.stringify(value);
}

/**
 * Fast path for the most common attribute value, an AnyValue holding only a short string_value
 * (one-byte length): reads it without the general loop. Returns null, having read nothing, otherwise.
 */
function readSimpleString(r: ProtoReader, end: number): string | null {
  const pos = r.pos;
  const buf = r.buf;
  if (end - pos < 2 || buf[pos] !== TAG_STRING) return null;
  const length = buf[pos + 1];
  if (length >= 0x80 || pos + 2 + length !== end) return null;
  r.pos = end;
  return readUtf8(buf, pos + 2, end);
}

/** Decodes one KeyValue message in [r.pos, end) to a [key, value] pair, with its mark when it needs one. */
export function readKeyValue(r: ProtoReader, end: number, depth: number): AttrPair {
  let key = '';
  let value: AttrValue = null;
  let mark: AttrMark | undefined;
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_KEY) {
      key = r.string(end);
    } else if (tag === TAG_VALUE) {
      const valueEnd = r.lengthEnd(end);
      value = readSimpleString(r, valueEnd);
      mark = undefined;
      if (value === null) {
        value = readAnyValue(r, valueEnd, depth);
        mark = lastMark;
      }
    } else {
      r.skipUnknown(tag, end, KEY_VALUE_FIELDS);
    }
  }
  return mark === undefined ? [key, value] : [key, value, mark];
}

/** A list's items; leaves their marks by index in lastMark (undefined when no item has one). */
function readValues(r: ProtoReader, end: number, depth: number): AttrValue[] {
  const values: AttrValue[] = [];
  let marks: (AttrMark | null)[] | undefined;
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_VALUES) {
      values.push(readAnyValue(r, r.lengthEnd(end), depth + 1));
      marks = withItemMark(marks, values.length - 1, lastMark);
    } else {
      r.skipUnknown(tag, end, VALUES_FIELDS);
    }
  }
  lastMark = marks;
  return values;
}

/** Adds item `index`'s mark to a list's marks, starting the list (nulls before) at its first mark. */
export function withItemMark(marks: (AttrMark | null)[] | undefined, index: number, mark: AttrMark | undefined): (AttrMark | null)[] | undefined {
  if (marks === undefined) {
    if (mark === undefined) return undefined;
    marks = new Array<AttrMark | null>(index).fill(null);
  }
  marks.push(mark ?? null);
  return marks;
}

/** A key-value list as an object; leaves its marked keys' marks in lastMark (undefined when none). */
function readKvList(r: ProtoReader, end: number, depth: number): { [key: string]: AttrValue } {
  const object: { [key: string]: AttrValue } = {};
  let marks: { [key: string]: AttrMark } | undefined;
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_VALUES) {
      const [key, value, mark] = readKeyValue(r, r.lengthEnd(end), depth + 1);
      setOwn(object, key, value);
      marks = withKeyMark(marks, key, mark);
    } else {
      r.skipUnknown(tag, end, VALUES_FIELDS);
    }
  }
  lastMark = marks !== undefined && Object.keys(marks).length > 0 ? marks : undefined;
  return object;
}

/** Sets (or, for a repeated key, clears) `key`'s mark in a key-value list's marks. */
export function withKeyMark(marks: { [key: string]: AttrMark } | undefined, key: string, mark: AttrMark | undefined): { [key: string]: AttrMark } | undefined {
  if (mark === undefined) {
    if (marks !== undefined && Object.hasOwn(marks, key)) delete marks[key];
    return marks;
  }
  marks ??= {};
  setOwn(marks as { [key: string]: AttrValue }, key, mark as AttrValue);
  return marks;
}

/** Sets a key as an own data property; a plain assignment of '__proto__' would replace the prototype. */
export function setOwn(object: { [key: string]: AttrValue }, key: string, value: AttrValue): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    object[key] = value;
  }
}
