/**
 * Fields of a labelled list: `…, client: <*>, server: _, request: "GET / HTTP/1.1", host: "<*>"`.
 * A log statement that ends its message with such a list prints the same labels on every line,
 * each followed by the value it labels. The labels are no evidence that two lines are one event
 * (every line of that layout has them), and the values are no evidence that they are two: a value
 * after a list label varies like a masked one, and neither counts when the miner weighs how alike
 * two lines are. What tells the events apart is the message before the list.
 */
import { WILDCARD } from './masking.js';
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

/** Whether c may open a value around its text: `"`, `'`, `(`, `[`, `{` (not `<`, which opens a wildcard). */
function isOpener(c: number): boolean {
  return c === 34 || c === 39 || c === 40 || c === 91 || c === 123;
}

/** Whether c may close a value or end a field: `"`, `'`, `)`, `]`, `}`, `,`, `;` (not `>`, which closes a wildcard). */
function isCloser(c: number): boolean {
  return c === 34 || c === 39 || c === 41 || c === 93 || c === 125 || c === COMMA || c === 59;
}

/**
 * The tokens with the value of each list field that spans several tokens made one value, keeping
 * the punctuation around it (`request: "GET /healthz HTTP/1.1",` → `request: "<*>",`); the tokens
 * themselves when there is none. A field's value is one value whatever its words (a request line
 * with a path the masker takes whole is a token shorter than one with a plain word for a path), and
 * lines are grouped by their token count: without this, each event printing the list split by the
 * length of its values. Only a value the field ends (a token ending in `,`, or the line's end)
 * within MAX_LIST_VALUE_TOKENS tokens.
 */
export function joinListValues(tokens: readonly string[]): readonly string[] {
  let out: string[] | null = null;
  let i = 1;
  while (i < tokens.length) {
    if (!isListLabel(tokens, i)) {
      out?.push(tokens[i]!);
      i++;
      continue;
    }
    let end = -1;
    for (let j = i + 1; j < tokens.length && j <= i + MAX_LIST_VALUE_TOKENS; j++) {
      const t = tokens[j]!;
      if (t.charCodeAt(t.length - 1) === COMMA || j === tokens.length - 1) {
        end = j + 1;
        break;
      }
    }
    if (end < 0 || end - i - 1 < 2) {
      out?.push(tokens[i]!);
      i++;
      continue;
    }
    out ??= tokens.slice(0, i);
    out.push(tokens[i]!, joinedValue(tokens[i + 1]!, tokens[end - 1]!));
    i = end;
  }
  return out ?? tokens;
}

function joinedValue(first: string, last: string): string {
  let open = 0;
  while (open < first.length && isOpener(first.charCodeAt(open))) open++;
  let close = last.length;
  while (close > 0 && isCloser(last.charCodeAt(close - 1))) close--;
  return `${first.slice(0, open)}${WILDCARD}${last.slice(close)}`;
}
