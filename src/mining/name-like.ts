/** Tokens that name things (hosts, jobs, bundles, recipients) rather than words of a message. */
/**
 * A compound name (`cache-east`, `api.internal`, `com.acme.sync`, `sync_ledger`, `db:primary`) or
 * a list of names (`alice,bob`): letters joined by `.`, `-`, `_`, `:` or `,` inside the token. Such
 * words are names of things (hosts, jobs, bundles, recipients), which vary, rather than words of
 * the message.
 */
export function isNameLike(token: string): boolean {
  const n = token.length;
  for (let i = 1; i < n - 1; i++) {
    const c = token.charCodeAt(i);
    if ((c === 46 || c === 45 || c === 95 || c === 58 || c === 44) && isAlnum(token.charCodeAt(i - 1)) && isAlnum(token.charCodeAt(i + 1))) return true;
  }
  return false;
}

function isAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}
