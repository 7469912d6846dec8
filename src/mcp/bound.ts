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

/** A tool answer: structured content plus a short text summary (clipped to its share of the bound). */
export function toolAnswer(structured: Record<string, unknown>, summary: string): CallToolResult {
  let text = summary;
  while (Buffer.byteLength(text, 'utf8') > MAX_SUMMARY_BYTES) text = `${text.slice(0, Math.floor(text.length * 0.9))}…`;
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}
