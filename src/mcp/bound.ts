/**
 * Answers sized for an agent's context: every tool answer is at most MAX_ANSWER_BYTES of JSON
 * (structured content plus the text summary). Long lists are cut to what fits, with a note that
 * says how many were left out and how to narrow the question; long texts are clipped.
 */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The byte bound of one tool answer (structured content and text together). */
export const MAX_ANSWER_BYTES = 24_576;
/** What the text summary may take of the bound. */
export const MAX_SUMMARY_BYTES = 2_048;

export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** `text` cut to `maxChars` characters with an ellipsis; log bodies and templates can be huge. */
export function clip(text: unknown, maxChars: number): string {
  const value = typeof text === 'string' ? text : String(text ?? '');
  return value.length <= maxChars ? value : `${value.slice(0, maxChars - 1)}…`;
}

export interface Truncation {
  field: string;
  shown: number;
  total: number;
  hint: string;
}

/**
 * The answer built from the longest prefix of `items` that fits in `maxBytes` (binary search
 * over the prefix length). When items are left out, `truncated` says so and how to narrow.
 */
export function fitList<T>(
  items: readonly T[],
  build: (shown: readonly T[], truncated: Truncation | undefined) => Record<string, unknown>,
  field: string,
  hint: string,
  maxBytes = MAX_ANSWER_BYTES - MAX_SUMMARY_BYTES,
): { answer: Record<string, unknown>; shown: number } {
  const attempt = (count: number) => build(items.slice(0, count), count < items.length ? { field, shown: count, total: items.length, hint } : undefined);
  const whole = attempt(items.length);
  if (jsonBytes(whole) <= maxBytes) return { answer: whole, shown: items.length };
  let low = 0;
  let high = items.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (jsonBytes(attempt(middle)) <= maxBytes) low = middle;
    else high = middle - 1;
  }
  return { answer: attempt(low), shown: low };
}

/** Strings are never clipped below this, so ids (32 hex) and exact `*_ns` strings (19 digits) stay whole. */
const MIN_CLIP_CHARS = 40;

/** Every string clipped to `maxChars` and every list cut to `maxItems`, deeply. */
function shrink(value: unknown, maxChars: number, maxItems: number): unknown {
  if (typeof value === 'string') return clip(value, maxChars);
  if (Array.isArray(value)) return value.slice(0, maxItems).map((item) => shrink(item, maxChars, maxItems));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shrink(item, maxChars, maxItems)]));
  return value;
}

/**
 * The last guard of the bound, for data no tool foresaw (say thousand-character span names): the
 * answer is shrunk, strings first, then lists, until it fits, and says so.
 */
export function enforceBound(structured: Record<string, unknown>, maxBytes: number): Record<string, unknown> {
  if (jsonBytes(structured) <= maxBytes) return structured;
  const note = { shrunk: 'this answer was over the size bound: long texts were clipped and lists cut; narrow the question for the rest' };
  let maxChars = 200;
  let maxItems = 50;
  for (;;) {
    const shrunk = { ...(shrink(structured, maxChars, maxItems) as Record<string, unknown>), ...note };
    if (jsonBytes(shrunk) <= maxBytes || (maxChars === MIN_CLIP_CHARS && maxItems === 1)) return shrunk;
    if (maxChars > MIN_CLIP_CHARS) maxChars = Math.max(MIN_CLIP_CHARS, Math.floor(maxChars / 2));
    else maxItems = Math.max(1, Math.floor(maxItems / 2));
  }
}

/** A tool answer: structured content plus a short text summary, together within MAX_ANSWER_BYTES. */
export function toolAnswer(structured: Record<string, unknown>, summary: string): CallToolResult {
  let text = summary;
  while (Buffer.byteLength(text, 'utf8') > MAX_SUMMARY_BYTES) text = `${text.slice(0, Math.floor(text.length * 0.9))}…`;
  return { structuredContent: enforceBound(structured, MAX_ANSWER_BYTES - Buffer.byteLength(text, 'utf8')), content: [{ type: 'text', text }] };
}
