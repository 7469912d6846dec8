/**
 * Tokens whose differing part sits in a slot that holds values: a word in the same quotes or
 * brackets (`'worker'` against `'main'`, `[orders]` against `[default]`), which a log statement
 * wraps around a name it prints, not around a word of its message; and the first word of a
 * quoted value of several words (`"GET` against `"POST` in `request "GET /a"`). A token that only
 * ends a quote is not taken so: `enabled"` against `disabled"` ends a quoted sentence of a
 * message as often (go-kit's `msg="…"`).
 */
export function differsInValueSlot(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const n = a.length;
  const m = b.length;
  if (n < 3 || m < 3) return false;
  const open = a.charCodeAt(0);
  if (open !== b.charCodeAt(0)) return false;
  if (open === 34 || open === 39) return true;
  const close = a.charCodeAt(n - 1);
  if (close !== b.charCodeAt(m - 1)) return false;
  // [ ] < > { }; not ( ): a word in parentheses is as often a remark of the message
  // (`(usable)` against `(reserved)`, two events in the LogHub Linux labels).
  return (open === 91 && close === 93) || (open === 60 && close === 62) || (open === 123 && close === 125);
}

/**
 * Whether two tokens are one field with a quoted word as its value, the same key and quotes
 * around different words (`Subject="users"` against `Subject="inventory"`, `name='a',` against
 * `name='b',`): a key names what the statement prints, and the quotes wrap the printed value, so
 * the word varies like a value. The key ends in `=` or `:` right before the quote.
 */
export function differsInQuotedField(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const q = quoteAfterKey(a);
  if (q < 0 || q !== quoteAfterKey(b) || !a.startsWith(b.slice(0, q + 1))) return false;
  const quote = a.charCodeAt(q);
  const endA = a.indexOf(a[q]!, q + 1);
  const endB = b.indexOf(b[q]!, q + 1);
  if (endA <= q + 1 || endB <= q + 1 || a.charCodeAt(endA) !== quote) return false;
  // The same closing punctuation after the quote, and one word inside (no second quote).
  return a.slice(endA) === b.slice(endB) && a.indexOf(a[q]!, endA + 1) < 0;
}

/** Index of a quote right after a key's `=` or `:` (`key="`), or -1. */
function quoteAfterKey(token: string): number {
  for (let i = 1; i < token.length - 1; i++) {
    const c = token.charCodeAt(i);
    if (c === 34 || c === 39) {
      const before = token.charCodeAt(i - 1);
      return (before === 61 || before === 58) && i >= 2 ? i : -1;
    }
  }
  return -1;
}

/**
 * Whether position `i` follows a label, a token ending in `:` that the template and the line
 * share (`searching authorities for: primary`, `Shutter: false`): what a label introduces is the
 * value it labels. Only the line's last word is taken so (the caller checks): inside a line a
 * `word:` as often ends a clause and the next word is the message's own.
 */
export function followsLabel(template: readonly string[], line: readonly string[], i: number): boolean {
  if (i === 0) return false;
  const before = line[i - 1];
  return before !== undefined && before.length > 1 && before === template[i - 1] && before.charCodeAt(before.length - 1) === 58;
}

/**
 * Prepositions and conjunctions whose object, when it ends the line, is what the statement
 * prints: `Signing <*> because <*>`, `Received invalid response from <*>`, `performing <*> on <*>`.
 * Not `for` (`No suitable source for synchronisation` and `… for initstepslew` are two events of
 * chrony's) nor `to` (`failed to start` and `failed to stop` are two).
 */
const OBJECT_INTRODUCERS: ReadonlySet<string> = new Set(['because', 'from', 'on', 'in', 'at', 'of', 'with', 'via', 'into', 'after']);

/**
 * Whether position `i` follows a preposition that the template and the line share. As for labels,
 * the caller takes only the line's last word so: inside a line, `in use` or `of the` is as often
 * the message's own.
 */
export function followsPreposition(template: readonly string[], line: readonly string[], i: number): boolean {
  if (i === 0) return false;
  const before = line[i - 1];
  return before !== undefined && before === template[i - 1] && OBJECT_INTRODUCERS.has(before);
}
