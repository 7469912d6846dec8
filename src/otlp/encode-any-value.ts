import type { AttrMark, AttrPair, AttrValue } from '../model/signals.js';
import { itemMark } from '../model/attr-marks.js';
import { TAG_ARRAY, TAG_BOOL, TAG_BYTES, TAG_DOUBLE, TAG_INT, TAG_KEY, TAG_KVLIST, TAG_STRING, TAG_VALUE, TAG_VALUES } from './any-value-tags.js';
import { OtlpEncodeError } from './errors.js';
import { MAX_NESTING_DEPTH } from './limits.js';
import { bigInt64Size, fieldSize, int64Size, type ProtoWriter } from './proto-writer.js';
import { utf8Length } from './utf8.js';

/**
 * Integers go out as int_value so they read back as the same number; -0 and unsafe integers stay
 * doubles, which also read back as the same number. A value marked 'd' (signals.ts) was a double
 * and goes out as one.
 */
function isInt64(value: number, mark: AttrMark | undefined): boolean {
  return mark !== 'd' && Number.isSafeInteger(value) && !Object.is(value, -0);
}

/** A string marked 'b' goes back out as bytes, one marked 'i' as the int64 it spells. */
function stringKind(value: string, mark: AttrMark | undefined): 'bytes' | 'int' | 'string' {
  if (mark === 'b') return 'bytes';
  if (mark === 'i' && /^-?[0-9]+$/.test(value)) return 'int';
  return 'string';
}

/** Bytes of a string field (tag, length, UTF-8), recording the byte length for the writing pass. */
export function sizeStringField(w: ProtoWriter, text: string): number {
  const byteLength = utf8Length(text);
  w.record(byteLength);
  return fieldSize(byteLength);
}

/** Content bytes of the AnyValue for `value`, recording nested sizes. */
function sizeAnyValue(w: ProtoWriter, value: AttrValue, depth: number, mark: AttrMark | undefined): number {
  if (depth > MAX_NESTING_DEPTH) throw new OtlpEncodeError('attribute value nested too deep');
  switch (typeof value) {
    case 'string': {
      const kind = stringKind(value, mark);
      if (kind === 'int') return 1 + bigInt64Size(BigInt(value));
      if (kind === 'string') return sizeStringField(w, value);
      const byteLength = Buffer.byteLength(value, 'base64');
      w.record(byteLength);
      return fieldSize(byteLength);
    }
    case 'boolean':
      return 2;
    case 'number':
      return isInt64(value, mark) ? 1 + int64Size(value) : 9;
    case 'object': {
      if (value === null) return 0;
      const slot = w.reserve();
      let content = 0;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) content += fieldSize(sizeAnyValueContent(w, value[i]!, depth + 1, itemMark(mark, i)));
      } else {
        for (const key of Object.keys(value)) content += fieldSize(sizeKeyValue(w, key, value[key]!, depth + 1, itemMark(mark, key)));
      }
      w.setPlanned(slot, content);
      return fieldSize(content);
    }
    default:
      throw new OtlpEncodeError(`attribute value of type ${typeof value}`);
  }
}

function writeAnyValue(w: ProtoWriter, value: AttrValue, mark: AttrMark | undefined): void {
  switch (typeof value) {
    case 'string': {
      const kind = stringKind(value, mark);
      if (kind === 'string') {
        w.stringField(TAG_STRING, value);
      } else if (kind === 'int') {
        w.buf[w.pos++] = TAG_INT;
        w.bigInt64(BigInt(value));
      } else {
        const byteLength = w.next();
        w.messageHeader(TAG_BYTES, byteLength);
        w.buf.write(value, w.pos, byteLength, 'base64');
        w.pos += byteLength;
      }
      return;
    }
    case 'boolean':
      w.buf[w.pos++] = TAG_BOOL;
      w.buf[w.pos++] = value ? 1 : 0;
      return;
    case 'number':
      if (isInt64(value, mark)) {
        w.buf[w.pos++] = TAG_INT;
        w.int64(value);
      } else {
        w.buf[w.pos++] = TAG_DOUBLE;
        w.double(value);
      }
      return;
    default: {
      if (value === null) return;
      if (Array.isArray(value)) {
        w.messageHeader(TAG_ARRAY, w.next());
        for (let i = 0; i < value.length; i++) writeAnyValueField(w, TAG_VALUES, value[i]!, itemMark(mark, i));
      } else {
        w.messageHeader(TAG_KVLIST, w.next());
        for (const key of Object.keys(value)) writeKeyValueField(w, TAG_VALUES, key, value[key]!, itemMark(mark, key));
      }
    }
  }
}

/** Content bytes of a KeyValue. The value is always written, even when null (an empty AnyValue). */
function sizeKeyValue(w: ProtoWriter, key: string, value: AttrValue, depth: number, mark: AttrMark | undefined): number {
  const slot = w.reserve();
  let content = key === '' ? 0 : sizeStringField(w, key);
  content += fieldSize(sizeAnyValueContent(w, value, depth, mark));
  w.setPlanned(slot, content);
  return content;
}

/** AnyValue content size, with a slot for it so the writer can emit the value's length prefix. */
function sizeAnyValueContent(w: ProtoWriter, value: AttrValue, depth: number, mark: AttrMark | undefined): number {
  const slot = w.reserve();
  const content = sizeAnyValue(w, value, depth, mark);
  w.setPlanned(slot, content);
  return content;
}

function writeAnyValueField(w: ProtoWriter, tag: number, value: AttrValue, mark: AttrMark | undefined): void {
  w.messageHeader(tag, w.next());
  writeAnyValue(w, value, mark);
}

function writeKeyValueField(w: ProtoWriter, tag: number, key: string, value: AttrValue, mark: AttrMark | undefined): void {
  w.messageHeader(tag, w.next());
  if (key !== '') w.stringField(TAG_KEY, key);
  writeAnyValueField(w, TAG_VALUE, value, mark);
}

/** Bytes of a repeated KeyValue field (attributes) including tags and length prefixes. */
export function sizeAttributes(w: ProtoWriter, attrs: AttrPair[]): number {
  let bytes = 0;
  for (let i = 0; i < attrs.length; i++) {
    const pair = attrs[i];
    bytes += fieldSize(sizeKeyValue(w, pair[0], pair[1], 0, pair[2]));
  }
  return bytes;
}

export function writeAttributes(w: ProtoWriter, tag: number, attrs: AttrPair[]): void {
  for (let i = 0; i < attrs.length; i++) {
    const pair = attrs[i];
    writeKeyValueField(w, tag, pair[0], pair[1], pair[2]);
  }
}
