import { isTable } from './sources.js';

const MAX_SHOWN_CHARS = 80;

/**
 * Describes an unexpected value the way serde does ("string \"a,b\"", "integer `5`", "map"), so that
 * a list setting given a string reads exactly as the contract's `invalid type: string ..., expected a sequence`.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `string ${quote(value)}`;
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === 'bigint') return `integer \`${value}\``;
  if (Array.isArray(value)) return 'sequence';
  if (isTable(value)) return 'map';
  return 'date';
}

/** JSON-quotes a value for a message, cut short so a pasted blob cannot flood the log. */
export function quote(text: string): string {
  const shown = text.length > MAX_SHOWN_CHARS ? `${text.slice(0, MAX_SHOWN_CHARS)}...` : text;
  return JSON.stringify(shown);
}
