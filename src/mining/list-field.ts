/**
 * Fields of a labelled list: `…, client: <*>, server: _, request: "GET / HTTP/1.1", host: "<*>"`.
 * A log statement that ends its message with such a list prints the same labels on every line,
 * each followed by the value it labels. The labels are no evidence that two lines are one event
 * (every line of that layout has them), and the values are no evidence that they are two: a value
 * after a list label varies like a masked one, and neither counts when the miner weighs how alike
 * two lines are. What tells the events apart is the message before the list.
 */
import { isLabel } from './optional-tail.js';

/** A field's value spans at most this many tokens (`request: "GET /index.html HTTP/1.1",` is 3). */
export const MAX_LIST_VALUE_TOKENS = 4;

const COMMA = 44;

/**
 * Whether tokens[i] labels a field of a list (`, client: <*>, server: <*>`): a label after a token
 * ending in `,`.
 */
export function isListLabel(tokens: readonly string[], i: number): boolean {
  const before = tokens[i - 1];
  const token = tokens[i];
  return before !== undefined && token !== undefined && before.charCodeAt(before.length - 1) === COMMA && isLabel(token);
}

/**
 * Whether tokens[i] is (a part of) the value of a list field: it follows a list label within
 * MAX_LIST_VALUE_TOKENS tokens, with no token ending in `,` (the end of a field) between them.
 */
export function isListValue(tokens: readonly string[], i: number): boolean {
  const lowest = Math.max(1, i - MAX_LIST_VALUE_TOKENS);
  for (let j = i - 1; j >= lowest; j--) {
    if (isListLabel(tokens, j)) return true;
    const t = tokens[j]!;
    if (t.charCodeAt(t.length - 1) === COMMA) return false;
  }
  return false;
}
