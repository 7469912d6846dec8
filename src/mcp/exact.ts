/**
 * MCP answers are serialised by the SDK with JSON.stringify, which cannot carry 64-bit integers
 * exactly. Every `*_ns` value and every integer outside the safe range becomes a decimal string,
 * so ids and timestamps reach the agent exact (one rule, whatever the magnitude).
 */

/** A deep copy of an API body with `*_ns` values and bigints as decimal strings. */
export function exactValues(value: unknown, key = ''): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number' && key.endsWith('_ns')) return Number.isInteger(value) ? value.toString() : String(value);
  if (Array.isArray(value)) return value.map((item) => exactValues(item));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) out[name] = exactValues(item, name);
    return out;
  }
  return value;
}

/** Milliseconds from a nanosecond value (number, bigint or decimal string), to the microsecond. */
export function nsToMs(ns: unknown): number {
  const big = typeof ns === 'bigint' ? ns : typeof ns === 'string' && ns !== '' ? BigInt(ns) : BigInt(Math.round(Number(ns ?? 0)));
  return Number(big / 1000n) / 1000;
}
