/**
 * Labelled corpora for the failure classes the LogHub sets under-represent, written for this
 * project (synthetic generators with a seeded PRNG, and a hand-written set): a variable word in a
 * fixed early position, optional parenthesized or bracketed parts, and punctuation glued to a
 * variable. Each line carries its true event and template (`<*>` for variables). Pairs of events
 * that differ only in a word ("opened"/"closed") are included so that over-merging costs too.
 */
import type { Labelled } from './evaluation.test-support.js';
import { HANDWRITTEN } from './eval-handwritten.test-support.js';
import { prng } from './corpus.test-support.js';

type Rand = () => number;

/** One event shape: its template and a generator of its lines. */
interface Shape {
  template: string;
  line: (r: Rand) => string;
}

const USERS = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
  'ivan',
  'judy',
  'mallory',
  'oscar',
  'peggy',
  'trent',
  'victor',
  'walter',
  'root',
  'admin',
  'deploy',
  'backup',
];
const HOSTS = [
  'gateway',
  'cache-east',
  'cache-west',
  'db-primary',
  'db-replica',
  'api.internal',
  'edge-lb',
  'auth.svc.local',
  'queue',
  'search-node',
  'mailer',
  'billing.prod',
];
const JOBS = ['nightly-backup', 'reindex_users', 'report', 'cleanup-tmp', 'sync_ledger', 'rotate-keys', 'thumbnailer', 'export.csv', 'warmup'];
const BUNDLES = ['com.acme.sync', 'com.acme.mail.fetch', 'org.example.indexer', 'net.tools.agent', 'io.demo.uploader', 'com.vendor.updater.daemon'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa', 'sigma'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rand, max: number): number => Math.floor(r() * max);
const ip = (r: Rand): string => `10.${int(r, 255)}.${int(r, 255)}.${int(r, 255)}`;
const list = (r: Rand, sep: string, of: (r: Rand) => string): string => Array.from({ length: 1 + int(r, 4) }, () => of(r)).join(sep);
const maybe = (r: Rand, text: string): string => (r() < 0.5 ? text : '');

/** A variable word (user, host, host:port, job or bundle name) in a fixed early position. */
const EARLY_WORD: Shape[] = [
  { template: '<*>: session started on tty <*>', line: (r) => `${pick(r, USERS)}: session started on tty ${int(r, 9)}` },
  {
    template: 'Accepted password for <*> from <*> port <*> ssh2',
    line: (r) => `Accepted password for ${pick(r, USERS)} from ${ip(r)} port ${1024 + int(r, 60000)} ssh2`,
  },
  { template: 'session opened for user <*> by <*>', line: (r) => `session opened for user ${pick(r, USERS)} by ${pick(r, USERS)}` },
  { template: 'session closed for user <*>', line: (r) => `session closed for user ${pick(r, USERS)}` },
  { template: '<*> reports backend <*> healthy', line: (r) => `${pick(r, HOSTS)} reports backend ${pick(r, HOSTS)} healthy` },
  { template: '<*> reports backend <*> unreachable', line: (r) => `${pick(r, HOSTS)} reports backend ${pick(r, HOSTS)} unreachable` },
  { template: '<*> open through proxy <*>', line: (r) => `${pick(r, HOSTS)}:${pick(r, [80, 443, 8080, 8443])} open through proxy ${pick(r, HOSTS)}` },
  {
    template: '<*> close, <*> bytes sent, <*> bytes received',
    line: (r) => `${pick(r, HOSTS)}:${pick(r, [80, 443, 8080])} close, ${int(r, 99999)} bytes sent, ${int(r, 99999)} bytes received`,
  },
  { template: 'job <*> finished in <*> ms', line: (r) => `job ${pick(r, JOBS)} finished in ${int(r, 5000)} ms` },
  { template: 'job <*> started by <*>', line: (r) => `job ${pick(r, JOBS)} started by ${pick(r, USERS)}` },
  { template: '<*>[<*>]: scheduler tick, <*> tasks due', line: (r) => `${pick(r, BUNDLES)}[${int(r, 900)}]: scheduler tick, ${int(r, 20)} tasks due` },
  { template: '<*>[<*>]: cache purged', line: (r) => `${pick(r, BUNDLES)}[${int(r, 900)}]: cache purged` },
];

/**
 * Events with optional parenthesized or bracketed parts. A line with or without them is the same
 * event, and one event has one template: the optional part is a variable part, `<*>`.
 */
const OPTIONAL_PART: Shape[] = [
  { template: 'Connection closed by <*> port <*> <*>', line: (r) => `Connection closed by ${ip(r)} port ${int(r, 65000)}${maybe(r, ' [preauth]')}` },
  {
    template: 'Task <*> failed <*>',
    line: (r) => `Task ${int(r, 9999)} failed${maybe(r, ` (attempt ${1 + int(r, 5)})`)}${maybe(r, ' (will retry)')}`,
  },
  { template: 'Started unit <*> <*>', line: (r) => `Started unit ${pick(r, JOBS)}.service${maybe(r, ` (pid ${int(r, 30000)})`)}` },
  { template: 'Stopped unit <*> <*>', line: (r) => `Stopped unit ${pick(r, JOBS)}.service${maybe(r, ` (pid ${int(r, 30000)})`)}` },
  { template: 'upload of <*> files done <*>', line: (r) => `upload of ${int(r, 999)} files done${maybe(r, ` [${int(r, 80)} skipped]`)}` },
];

/** Punctuation glued to a variable, changing the token's shape or the token count. */
const GLUED: Shape[] = [
  { template: 'sending batch to <*>', line: (r) => `sending batch to ${list(r, ',', (x) => pick(x, WORDS))}` },
  { template: 'retrying shards <*> after <*> ms', line: (r) => `retrying shards ${list(r, ', ', (x) => String(int(x, 64)))} after ${int(r, 900)} ms` },
  { template: 'request "<*> <*>" took <*> ms', line: (r) => `request "${pick(r, METHODS)} /api/v${1 + int(r, 2)}/items" took ${int(r, 900)} ms` },
  { template: 'connecting to <*>', line: (r) => `connecting to ${pick(r, HOSTS)}${maybe(r, `:${pick(r, [80, 443, 5432])}`)}` },
  { template: 'user <*>, role <*>, logged in', line: (r) => `user ${pick(r, USERS)}, role ${pick(r, ['reader', 'writer', 'owner'])}, logged in` },
  { template: 'user <*>, role <*>, logged out', line: (r) => `user ${pick(r, USERS)}, role ${pick(r, ['reader', 'writer', 'owner'])}, logged out` },
];

function generate(name: string, shapes: readonly Shape[], lines: number, seed: number): Labelled {
  const r = prng(seed);
  const content: string[] = [];
  const eventIds: string[] = [];
  const templates: string[] = [];
  for (let i = 0; i < lines; i++) {
    const k = int(r, shapes.length);
    const shape = shapes[k];
    content.push(shape.line(r));
    eventIds.push(`E${k}`);
    templates.push(shape.template);
  }
  return { name, content, eventIds, templates };
}

/** The corpora: three synthetic ones (one per failure class) and the hand-written one. */
export function evalCorpora(): Labelled[] {
  return [
    generate('early-word', EARLY_WORD, 1500, 11),
    generate('optional-part', OPTIONAL_PART, 800, 12),
    generate('glued-punctuation', GLUED, 900, 13),
    handwritten(),
  ];
}

function handwritten(): Labelled {
  const ids = new Map<string, string>();
  const content: string[] = [];
  const eventIds: string[] = [];
  const templates: string[] = [];
  for (const [template, line] of HANDWRITTEN) {
    if (!ids.has(template)) ids.set(template, `H${ids.size}`);
    content.push(line);
    eventIds.push(ids.get(template) as string);
    templates.push(template);
  }
  return { name: 'handwritten', content, eventIds, templates };
}
