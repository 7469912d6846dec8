/**
 * Test support (not a test file): a tiny, deliberately naive protobuf builder for hand-made
 * payloads (unknown fields, odd field order, malformed bytes) that no real encoder would produce.
 */

/** Encodes an unsigned varint (bigint for values past 2^53, or for 10-byte negatives). */
export function varint(value: number | bigint): number[] {
  let rest = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (rest > 0x7fn) {
    out.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  out.push(Number(rest));
  return out;
}

export function tag(field: number, wireType: number): number[] {
  return varint((field << 3) | wireType);
}

type Part = number[] | Uint8Array;

/** Concatenates encoded fields into a message. */
export function message(...parts: Part[]): Uint8Array {
  const out: number[] = [];
  for (const part of parts) for (const byte of part) out.push(byte);
  return Uint8Array.from(out);
}

export function varintField(field: number, value: number | bigint): number[] {
  return [...tag(field, 0), ...varint(value)];
}

export function fixed64Field(field: number, value: bigint): number[] {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt.asUintN(64, value));
  return [...tag(field, 1), ...bytes];
}

export function fixed32Field(field: number, value: number): number[] {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value >>> 0);
  return [...tag(field, 5), ...bytes];
}

export function doubleField(field: number, value: number): number[] {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleLE(value);
  return [...tag(field, 1), ...bytes];
}

/** A length-delimited field holding a string, bytes or a nested message. */
export function lenField(field: number, content: string | Part): number[] {
  const bytes = typeof content === 'string' ? [...Buffer.from(content, 'utf8')] : [...content];
  return [...tag(field, 2), ...varint(bytes.length), ...bytes];
}

export function hexBytes(hex: string): number[] {
  return [...Buffer.from(hex, 'hex')];
}

/** A KeyValue field with a string value. */
export function stringAttr(field: number, key: string, value: string): number[] {
  return lenField(field, message(lenField(1, key), lenField(2, message(lenField(1, value)))));
}

/** A minimal valid Span message (ids only plus `extra` fields). */
export function spanMessage(extra: Part[] = [], traceId = '0102030405060708090a0b0c0d0e0f10', spanId = 'a1a2a3a4a5a6a7a8'): Uint8Array {
  return message(lenField(1, hexBytes(traceId)), lenField(2, hexBytes(spanId)), ...extra);
}

/** TracesData with one ResourceSpans and one ScopeSpans holding `spans`. */
export function tracesData(spans: Uint8Array[], resource: Part[] = [], scope: Part[] = []): Uint8Array {
  const scopeSpans = message(...(scope.length > 0 ? [lenField(1, message(...scope))] : []), ...spans.map((span) => lenField(2, span)));
  const resourceSpans = message(...(resource.length > 0 ? [lenField(1, message(...resource))] : []), lenField(2, scopeSpans));
  return message(lenField(1, resourceSpans));
}

/** LogsData with one ResourceLogs and one ScopeLogs holding `records`. */
export function logsData(records: Uint8Array[], resource: Part[] = []): Uint8Array {
  const scopeLogs = message(...records.map((record) => lenField(2, record)));
  const resourceLogs = message(...(resource.length > 0 ? [lenField(1, message(...resource))] : []), lenField(2, scopeLogs));
  return message(lenField(1, resourceLogs));
}
