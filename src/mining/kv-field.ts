/**
 * Fields of a `key=value` tail (logfmt: `msg="Found healthy block" mint=3 ulid=static`). A Go
 * service's structured logger prints one field per argument, each as its key, `=` and the value;
 * an event prints the same keys on every line, so a word after a key it shares with the template
 * (`ulid=static` against `ulid=metrics`) is the value that the statement prints, not a word of its
 * message. Only the keys that carry the message itself keep their values as words: `msg=`,
 * `message=` and the like (`msg=QueueManager.calculateDesiredShards`), and a level, which as
 * often tells two statements apart (`level=info` against `level=error`). Nor does `user=`: the
 * account of a login (`authentication failure; … user=root` against `… user=guest`) is what an
 * administrator tells such lines apart by, and the LogHub Linux labels make them separate events.
 */

/** Keys whose value is the message, or its level, rather than a value it prints. */
const MESSAGE_KEYS: ReadonlySet<string> = new Set(['msg', 'message', 'event', 'level', 'lvl', 'caller', 'logger', 'component', 'user']);

const EQUALS = 61;

/** Length of `key=` at the start of a token whose key is an identifier, or 0. */
function keyLength(token: string): number {
  const n = token.length;
  for (let i = 0; i < n; i++) {
    const c = token.charCodeAt(i);
    if (c === EQUALS) return i > 0 ? i + 1 : 0;
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    const other = c === 95 || c === 46 || c === 45 || (c >= 48 && c <= 57);
    if (!(letter || (i > 0 && other))) return 0;
  }
  return 0;
}

/**
 * Whether two tokens are one `key=value` field with unquoted values that differ (`ulid=static`
 * against `ulid=metrics`): the same identifier key before `=`, not a message key, and a value
 * after it in both. A quoted value is differsInQuotedField's (value-slot.ts).
 */
export function differsInKeyValue(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const k = keyLength(a);
  if (k === 0 || k >= a.length || k >= b.length || keyLength(b) !== k || !b.startsWith(a.slice(0, k))) return false;
  const first = a.charCodeAt(k);
  if (first === 34 || first === 39 || b.charCodeAt(k) === 34 || b.charCodeAt(k) === 39) return false;
  return !MESSAGE_KEYS.has(a.slice(0, k - 1).toLowerCase());
}

/** Tokens back from a word to the `key="` that opens its quoted value. */
const MAX_QUOTED_VALUE_TOKENS = 6;

/**
 * Whether position `i` lies in a quoted value of several words after a key the template and the
 * line share (`err="broken pipe"` against `err="connection refused"`): the text an error prints,
 * in the same quotes after the same key, varies like a value; not after a message key, where the
 * quotes hold the message (`msg="… enabled"` against `msg="… disabled"`).
 */
export function inKeyedQuote(template: readonly string[], line: readonly string[], i: number): boolean {
  const lowest = Math.max(0, i - MAX_QUOTED_VALUE_TOKENS);
  for (let j = i; j >= lowest; j--) {
    const a = line[j];
    const b = template[j];
    if (a === undefined || b === undefined) return false;
    const k = keyLength(a);
    if (k > 0 && a.charCodeAt(k) === 34) {
      if (keyLength(b) !== k || !b.startsWith(a.slice(0, k + 1)) || MESSAGE_KEYS.has(a.slice(0, k - 1).toLowerCase())) return false;
      // The quote stays open up to i in both (no closing quote before i).
      for (let m = j + 1; m < i; m++) if (line[m]!.includes('"') || template[m]!.includes('"')) return false;
      return a.indexOf('"', k + 1) < 0 && b.indexOf('"', k + 1) < 0;
    }
    if (j < i && (a.includes('"') || b.includes('"'))) return false;
  }
  return false;
}
