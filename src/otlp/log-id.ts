import { xxh3 } from '../util/xxhash.js';
import { Xxh3Scratch } from '../util/xxh3-wasm.js';
import type { AttrValue, LogRow } from '../model/signals.js';

/** The fields a log id covers. */
export type LogIdFields = Omit<LogRow, 'logId' | 'resource' | 'scopeName' | 'scopeVersion'>;

/**
 * The log id: unsigned xxh3-64 of the record's content as a decimal string, so that a replayed or
 * re-encoded record keeps its id. Every consumer of the bus recomputes it on decode.
 */
export function logIdOf(row: LogIdFields): string {
  return logIdHash(row).toString();
}

/** The log id as a number: xxh3-64 of canonicalLogContent(row)'s UTF-8. */
export function logIdHash(row: LogIdFields): bigint {
  return hashUtf8(canonicalLogContent(row));
}

/**
 * The canonical serialization the id hashes: service, time, observed time, trace id, span id,
 * severity number, severity text, body, attributes. Free text is length-prefixed (`<length>:<text>`)
 * and every value carries a type letter, so no two different records serialize alike.
 */
export function canonicalLogContent(row: LogIdFields): string {
  // A record without its own time takes its observed time (decodeLogs): one decimal serves both.
  const ts = String(row.tsNs);
  const observedTs = row.observedTsNs === row.tsNs ? ts : String(row.observedTsNs);
  let out = `${row.serviceName.length}:${row.serviceName}${ts},${observedTs},${row.traceId},${row.spanId},${row.severityNumber},`;
  out += `${row.severityText.length}:${row.severityText}${row.body.length}:${row.body}${row.attrs.length}:`;
  for (const [key, value] of row.attrs) out += `${key.length}:${key}${canonicalValue(value)}`;
  return out;
}

function canonicalValue(value: AttrValue): string {
  switch (typeof value) {
    case 'string':
      return `s${value.length}:${value}`;
    case 'number':
      return `n${value};`;
    case 'boolean':
      return value ? 't' : 'f';
    default: {
      if (value === null) return 'z';
      if (Array.isArray(value)) {
        let out = `a${value.length}:`;
        for (const item of value) out += canonicalValue(item);
        return out;
      }
      const keys = Object.keys(value);
      let out = `o${keys.length}:`;
      for (const key of keys) out += `${key.length}:${key}${canonicalValue(value[key])}`;
      return out;
    }
  }
}

/** This thread's WebAssembly hash, made on first use. */
let scratch: Xxh3Scratch | undefined;

/**
 * Content whose UTF-8 may pass this is hashed by the native package: the WebAssembly memory never
 * shrinks, so it stays this small whatever one record holds.
 */
const MAX_SCRATCH_BYTES = 1 << 20;
const utf8 = new TextEncoder();

/**
 * xxh3-64 of `content`'s UTF-8, in WebAssembly: the native package's call cost ~300 ns more a log
 * record (of ~850 ns for its whole id), and building the string and encoding it in one native call
 * measured cheaper than writing the fields' bytes one by one. Lone surrogates become U+FFFD, as
 * they do for the native package.
 */
function hashUtf8(content: string): bigint {
  const maxBytes = content.length * 3;
  if (maxBytes > MAX_SCRATCH_BYTES) return xxh3.xxh64(content);
  scratch ??= new Xxh3Scratch();
  scratch.ensure(maxBytes);
  return scratch.hash(utf8.encodeInto(content, scratch.bytes).written);
}
