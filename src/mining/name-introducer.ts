/**
 * Words after which a plain word names an account or an actor: `session closed for user trent`,
 * `job report started by root`, `order 10025 cancelled by erin`. Such a word varies with every
 * line of its event, so in that position it differs like a value, not like a word of the message
 * ("opened"/"closed"), even before its group is crowded; otherwise each of the first values of a
 * user name keeps a template of its own. Only words that introduce a name in any log's English
 * are listed, lower case as logs write them mid-sentence; `for` and `from` are not, since what
 * follows them is as often a word of the message (`for writing`, `from NEW`).
 */
const NAME_INTRODUCERS: ReadonlySet<string> = new Set(['user', 'by']);

/** Whether the token before a position, equal in the template and the line, introduces a name. */
export function introducesName(token: string | undefined): boolean {
  return token !== undefined && NAME_INTRODUCERS.has(token);
}
