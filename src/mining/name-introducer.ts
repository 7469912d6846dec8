/**
 * Words after which a plain word names an account, an actor or a thing a program keeps: `session
 * closed for user trent`, `job report started by root`, `Removing key metrics`, `New rate limit for
 * tasks of type main`, `Purging queue orders`. Such a word varies with every line of its event, so
 * in that position it differs like a value, not like a word of the message ("opened"/"closed"),
 * even before its group is crowded; otherwise each of the first values keeps a template of its
 * own. Listed are `user` and `by`, and the nouns by which programs name the things they store,
 * route or run (a key, a type, a queue, a table, a file, a node…): a word after them is the
 * thing's name. `user` and `by` in lower case as logs write them mid-sentence; a thing's noun also
 * capitalized, opening a sentence. Not listed: `for` and `from`, since
 * what follows them is as often a word of the message (`for writing`, `from NEW`); `client` and
 * `server`, which programs follow with a fixed role (`initialized by client WindowsUpdateAgent`
 * and `… client SPP` are two events in the LogHub Windows labels); `worker`, which lowered the nginx corpus
 * when listed (docs/log-mining.md).
 */
const ACTOR_INTRODUCERS: ReadonlySet<string> = new Set(['user', 'by']);

/**
 * A check's failure names what it expected and what it got (`role invalid, expected admin, but
 * got deploy`): the words after them are the values compared. Not a word ending a quote
 * (`msg="Invalid type for address, expected dict"`), which as often ends the message's sentence.
 */
const EXPECTATION_INTRODUCERS: ReadonlySet<string> = new Set(['expected', 'got']);

const THING_INTRODUCERS: ReadonlySet<string> = new Set([
  'key',
  'node',
  'type',
  'object',
  'queue',
  'topic',
  'session',
  'file',
  'host',
  'table',
  'database',
  'channel',
  'job',
  'task',
  'service',
  'group',
  'zone',
  'domain',
  'bucket',
  'index',
  'partition',
  'shard',
  'volume',
  'device',
  'peer',
  'plugin',
  'module',
  'replica',
  'cluster',
]);

/**
 * Words that follow a thing's noun as the message's own: `session opened`, `task failed`, `file
 * not found`, `node is down`, `job starting`, `cluster size`. A verb form or a function word after
 * `session` or `task` tells what happened to it, and an attribute (`size`, `state`) what of it is
 * meant, not which one.
 */
const MESSAGE_WORDS: ReadonlySet<string> = new Set([
  'is',
  'was',
  'are',
  'were',
  'be',
  'been',
  'has',
  'have',
  'had',
  'not',
  'no',
  'does',
  'did',
  'will',
  'can',
  'cannot',
  'could',
  'should',
  'must',
  'may',
  'already',
  'still',
  'now',
  'to',
  'for',
  'from',
  'in',
  'on',
  'at',
  'with',
  'of',
  'and',
  'or',
  'as',
  'into',
  'out',
  'up',
  'down',
  'the',
  'a',
  'an',
  'size',
  'state',
  'status',
  'name',
  'id',
  'count',
  'version',
  'info',
  'health',
  'config',
  'mode',
  'metadata',
]);

function isMessageWord(word: string): boolean {
  return MESSAGE_WORDS.has(word.toLowerCase()) || word.endsWith('ed') || word.endsWith('ing');
}

/**
 * Whether the token before a position, equal in the template and the line, introduces a name,
 * the template's and the line's words in that position being `a` and `b`.
 */
export function introducesName(token: string | undefined, a = '', b = ''): boolean {
  if (token === undefined) return false;
  if (ACTOR_INTRODUCERS.has(token)) return true;
  // Capitalized too: a sentence may open with the noun (`Node default reported node <*> as not reachable.`).
  if (EXPECTATION_INTRODUCERS.has(token)) return !endsQuote(a) && !endsQuote(b) && !isMessageWord(a) && !isMessageWord(b);
  return THING_INTRODUCERS.has(token.toLowerCase()) && !isMessageWord(a) && !isMessageWord(b);
}

/** Whether a word ends with a quote. */
function endsQuote(word: string): boolean {
  const c = word.charCodeAt(word.length - 1);
  return c === 34 || c === 39;
}
