/** Attribute lookup on the contract's `[key, value]` pair lists. */
import type { AttrPair } from '../model/signals.js';

/** The value of `key` as a non-empty string, or undefined when absent, empty or not a string. */
export function stringAttr(attrs: readonly AttrPair[], key: string): string | undefined {
  for (const [k, v] of attrs) {
    if (k === key) return typeof v === 'string' && v !== '' ? v : undefined;
  }
  return undefined;
}

/** The first of `keys` present as a non-empty string; the order of `keys` is the preference. */
export function firstStringAttr(attrs: readonly AttrPair[], keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = stringAttr(attrs, key);
    if (value !== undefined) return value;
  }
  return undefined;
}
