/**
 * Fields of a comma-separated list of `key value` pairs: `user alice, role reader, logged in`.
 * The value carries the comma that ends its field, so it is one token with it, and it varies with
 * each line of the event like any value; a plain word there would otherwise keep a template per
 * value until its group is crowded. Narrow on purpose: the field before must end in a comma too
 * (the list has begun) and the key must be the same lowercase word in the template and the line,
 * so a state word before a comma in prose (`link is down, retrying`) stays a word.
 */

/** Whether position `i` of the template and the line holds the value of a `key value,` field. */
export function isListFieldValue(template: readonly string[], line: readonly string[], i: number): boolean {
  if (i < 2) return false;
  const t = template[i]!;
  const l = line[i]!;
  const key = line[i - 1]!;
  return t.endsWith(',') && l.endsWith(',') && template[i - 1] === key && isLowerWord(key) && line[i - 2]!.endsWith(',') && template[i - 2]!.endsWith(',');
}

function isLowerWord(token: string): boolean {
  if (token.length === 0) return false;
  for (let k = 0; k < token.length; k++) {
    const c = token.charCodeAt(k);
    if (c < 97 || c > 122) return false;
  }
  return true;
}
