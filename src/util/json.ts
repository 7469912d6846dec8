/**
 * JSON with exact 64-bit integers. `*_ns` values exceed 2^53, and Node 20 has no JSON.rawJSON,
 * so bigints are written as bare integer literals by this serializer instead of JSON.stringify.
 */

/** Serializes like JSON.stringify (undefined properties skipped), writing bigints as integers. */
export function stringifyJson(value: unknown): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

function write(value: unknown, out: string[]): void {
  switch (typeof value) {
    case 'bigint':
      out.push(value.toString());
      return;
    case 'string':
      out.push(JSON.stringify(value));
      return;
    case 'number':
      out.push(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'undefined':
    case 'function':
    case 'symbol':
      out.push('null');
      return;
  }
  if (value === null) {
    out.push('null');
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      write(value[i], out);
    }
    out.push(']');
    return;
  }
  if (value instanceof Date) {
    out.push(JSON.stringify(value.toISOString()));
    return;
  }
  if (Buffer.isBuffer(value)) {
    out.push(JSON.stringify(value.toString('base64')));
    return;
  }
  out.push('{');
  let first = true;
  for (const key of Object.keys(value as object)) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    write(item, out);
  }
  out.push('}');
}

const BIG_MARKER = '\uE000big:';

/**
 * Parses JSON text, turning integer literals outside the safe range into bigint (for readers of
 * our own API: tests and tools). Only number tokens outside strings are touched.
 */
export function parseJsonExact(text: string): unknown {
  let out = '';
  let copiedUpTo = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charAt(i);
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      inString = true;
      continue;
    }
    if (char !== '-' && (char < '0' || char > '9')) continue;
    let end = i + 1;
    while (end < text.length && /[0-9eE.+-]/.test(text.charAt(end))) end++;
    const token = text.slice(i, end);
    if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
      out += `${text.slice(copiedUpTo, i)}"${BIG_MARKER}${token}"`;
      copiedUpTo = end;
    }
    i = end - 1;
  }
  out += text.slice(copiedUpTo);
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(BIG_MARKER) ? BigInt(value.slice(BIG_MARKER.length)) : value,
  );
}
