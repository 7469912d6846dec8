import type { AttrMark, AttrPair, AttrValue } from '../model/signals.js';
import { setOwn, withItemMark, withKeyMark } from './any-value.js';
import { OtlpDecodeError } from './errors.js';
import { jsonArray, jsonBytes, jsonDouble, jsonInt64, jsonObject, jsonString } from './json-fields.js';
import { MAX_NESTING_DEPTH } from './limits.js';

/** The mark (signals.ts) of the value the last jsonAnyValue returned. */
let lastMark: AttrMark | undefined;

/** An OTLP/JSON AnyValue object to its AttrValue, exactly as the protobuf path builds it. */
export function jsonAnyValue(value: unknown, depth: number): AttrValue {
  lastMark = undefined;
  if (depth > MAX_NESTING_DEPTH) throw new OtlpDecodeError('nesting too deep');
  const any = jsonObject(value, 'value');
  if (any === null) return null;
  if (any.stringValue !== undefined && any.stringValue !== null) return jsonString(any.stringValue, 'stringValue');
  if (any.boolValue !== undefined && any.boolValue !== null) {
    if (typeof any.boolValue !== 'boolean') throw new OtlpDecodeError('boolValue must be a boolean');
    return any.boolValue;
  }
  if (any.intValue !== undefined && any.intValue !== null) {
    const int = jsonInt64(any.intValue, 'intValue');
    if (typeof int === 'string') lastMark = 'i';
    return int;
  }
  if (any.doubleValue !== undefined && any.doubleValue !== null) {
    const double = jsonDouble(any.doubleValue, 'doubleValue');
    if (Number.isInteger(double)) lastMark = 'd';
    return double;
  }
  if (any.arrayValue !== undefined && any.arrayValue !== null) {
    const list = jsonObject(any.arrayValue, 'arrayValue');
    const items = jsonArray(list?.values, 'arrayValue.values');
    const out: AttrValue[] = new Array<AttrValue>(items.length);
    let marks: (AttrMark | null)[] | undefined;
    for (let i = 0; i < items.length; i++) {
      out[i] = jsonAnyValue(items[i], depth + 1);
      marks = withItemMark(marks, i, lastMark);
    }
    lastMark = marks;
    return out;
  }
  if (any.kvlistValue !== undefined && any.kvlistValue !== null) {
    const list = jsonObject(any.kvlistValue, 'kvlistValue');
    const entries = jsonArray(list?.values, 'kvlistValue.values');
    const out: { [key: string]: AttrValue } = {};
    let marks: { [key: string]: AttrMark } | undefined;
    for (const entry of entries) {
      const [key, item, mark] = jsonKeyValue(entry, depth + 1);
      setOwn(out, key, item);
      marks = withKeyMark(marks, key, mark);
    }
    lastMark = marks !== undefined && Object.keys(marks).length > 0 ? marks : undefined;
    return out;
  }
  if (any.bytesValue !== undefined && any.bytesValue !== null) {
    const bytes = jsonBytes(any.bytesValue, 'bytesValue');
    lastMark = 'b';
    return bytes;
  }
  return null;
}

/** A log body: a stringValue as is, an empty or absent AnyValue as '', any other as its JSON text. */
export function jsonBody(value: unknown): string {
  const any = jsonObject(value, 'body');
  if (any === null) return '';
  if (any.stringValue !== undefined && any.stringValue !== null) return jsonString(any.stringValue, 'body.stringValue');
  const decoded = jsonAnyValue(any, 0);
  return decoded === null ? '' : JSON.stringify(decoded);
}

function jsonKeyValue(value: unknown, depth: number): AttrPair {
  const entry = jsonObject(value, 'attribute');
  if (entry === null) throw new OtlpDecodeError('attribute must be an object');
  const key = jsonString(entry.key, 'attribute key');
  const decoded = jsonAnyValue(entry.value, depth);
  return lastMark === undefined ? [key, decoded] : [key, decoded, lastMark];
}

/** A JSON `attributes` array to [key, value] pairs. */
export function jsonAttributes(value: unknown, into: AttrPair[]): AttrPair[] {
  for (const entry of jsonArray(value, 'attributes')) into.push(jsonKeyValue(entry, 0));
  return into;
}
