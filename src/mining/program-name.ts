/**
 * A program's or component's name opening the message as a label: `raft: starting snapshot up to:
 * index=<*>`, `plugin/file: Failed to open <*>`, `ciod: LOGIN chdir(<*>) failed`. Every line the
 * program logs starts with it, so keyed on it alone all of that program's events share one group
 * of the tree, which soon holds so many templates that words there generalize (drain.ts, crowded
 * leaves) and distinct events merge (`raft: failed to <*> <*> <*>`). The name is a constant of the
 * layout, not the message's first word: the tree keys such a line on the name together with the
 * word after it.
 */
import { WILDCARD } from './masking.js';
import { isNameLike } from './name-like.js';

const COLON = 58;

/**
 * Whether `token` is a name before a colon: a letter first, then letters, digits, `_`, `-`, `.` or
 * `/` (`raft:`, `plugin/geoip:`, `kombu.connection:`), at least two characters before the colon.
 */
export function isProgramName(token: string): boolean {
  const n = token.length - 1;
  if (n < 2 || token.charCodeAt(n) !== COLON || token.includes(WILDCARD)) return false;
  for (let i = 0; i < n; i++) {
    const c = token.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (i === 0 ? !letter : !(letter || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46 || c === 47)) return false;
  }
  // A compound name (`worker-3:`, `search-index:`, `app.tasks.send_email:`) is as often a value
  // the statement prints first, which varies, as the program's own name.
  return !isNameLike(token);
}
