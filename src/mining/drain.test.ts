import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CROWDED_LEAF_TEMPLATES, DrainTree, MAX_CHILDREN, OVERFLOW_TEMPLATE, commonShape, fitsPattern, similarity, templateText } from './drain.js';
import { maskLine } from './masking.js';
import { templateId } from './template-id.js';

const opts = { simThreshold: 0.5, maxClusters: 5000 };
const toks = (line: string): string[] => maskLine(line, { keepHttpStatus: true }).tokens;
/** A word of letters only (no digits, so it is never masked). */
const word = (i: number): string => `w${i.toString(26).replace(/[0-9]/g, (d) => 'qrstuvwxyz'[Number(d)])}`;

test('by default only the first token chooses the leaf', () => {
  const tree = new DrainTree('svc', opts);
  assert.equal(tree.leafFor(['a', 'b', 'c', 'd']), tree.leafFor(['a', 'z', 'x', 'y']));
  assert.notEqual(tree.leafFor(['a', 'b', 'c', 'd']), tree.leafFor(['z', 'b', 'c', 'd']));
  // A name-like or value-bearing first token keys as the wildcard.
  assert.equal(tree.leafFor(['cache-east', 'up']), tree.leafFor(['db.primary', 'up']));
  assert.equal(tree.leafFor(['rdd_<*>', 'up']), tree.leafFor(['blk_<*>', 'up']));
});

test('depth 4: with two token levels only the first two tokens choose the leaf', () => {
  const tree = new DrainTree('svc', { ...opts, prefixLevels: 2 });
  assert.equal(tree.leafFor(['a', 'b', 'c', 'd']), tree.leafFor(['a', 'b', 'x', 'y']));
  assert.notEqual(tree.leafFor(['a', 'b', 'c', 'd']), tree.leafFor(['a', 'z', 'c', 'd']));
  assert.notEqual(tree.leafFor(['a', 'b', 'c']), tree.leafFor(['a', 'b', 'c', 'd']));
});

test('at most 100 children per node; the rest share the wildcard child', () => {
  const tree = new DrainTree('svc', opts);
  for (let i = 0; i < 300; i++) tree.add([word(i), 'same', 'tail'], '');
  assert.ok(tree.widestNode() <= MAX_CHILDREN);
  assert.equal(tree.leafFor([word(250), 'same', 'tail']), tree.leafFor([word(299), 'same', 'tail']));
});

test('a line longer than 64 tokens is mined on 64 tokens', () => {
  const tree = new DrainTree('svc', opts);
  const line = Array.from({ length: 90 }, (_, i) => word(i)).join(' ');
  const { cluster } = tree.add(toks(line), line);
  assert.equal(cluster.tokens.length, 64);
});

test('values generalize by position, words are kept until the leaf is crowded', () => {
  const tree = new DrainTree('svc', opts);
  const a = tree.add(toks('session opened for user 12'), '').cluster;
  assert.equal(tree.add(toks('session opened for user 13'), '').cluster, a);
  assert.notEqual(tree.add(toks('session opened for admin 13'), '').cluster, a);
  // user=<*> against user= differs in a value: merged; user= fits user=<*>, which stays.
  const b = tree.add(toks('login ok user=7 from x'), '').cluster;
  assert.equal(tree.add(toks('login ok user= from x'), '').cluster, b);
  assert.equal(templateText(b), 'login ok user=<*> from x');
  // Differing values keep the punctuation both carry: `<*>,` from `7,` and `LOCAL(3),`.
  const c = tree.add(toks('synced to 7, level 2'), '').cluster;
  assert.equal(tree.add(toks('synced to LOCAL(3), level 2'), '').cluster, c);
  assert.equal(templateText(c), 'synced to <*>, level <*>');
  // In a crowded leaf words generalize (bounds templates of word-valued variables).
  const crowd = new DrainTree('svc', opts);
  for (let i = 0; i < CROWDED_LEAF_TEMPLATES; i++) crowd.add(['job', 'ran', word(i), 'now', 'ok'], '');
  assert.equal(crowd.clusters.length, CROWDED_LEAF_TEMPLATES);
  crowd.add(['job', 'ran', word(99), 'now', 'ok'], '');
  assert.equal(crowd.clusters.length, CROWDED_LEAF_TEMPLATES);
});

test('a token with wildcards fits the tokens its literal parts frame, in order', () => {
  assert.equal(fitsPattern('blk_<*>', 'blk_<*>'), true);
  assert.equal(fitsPattern('blk_<*>', 'blk_x'), true);
  assert.equal(fitsPattern('blk_<*>', 'rdd_<*>'), false);
  assert.equal(fitsPattern('<*>:<*>', 'host:<*>'), true);
  assert.equal(fitsPattern('<*>:<*>', 'host'), false);
  assert.equal(fitsPattern('(<*>)', '(a b)'), true);
  assert.equal(fitsPattern('(<*>)', '(ab'), false);
  assert.equal(commonShape('<*>,', 'LOCAL(<*>),'), '<*>,');
  assert.equal(commonShape('rdd_<*>', 'broadcast_<*>'), '<*>');
  assert.equal(commonShape('[alpha]', '[beta]'), '[<*>]');
  // Tokens of one punctuation skeleton generalize piece by piece.
  assert.equal(commonShape('com.acme.sync[<*>]:', 'org.example.indexer[<*>]:'), '<*>[<*>]:');
  assert.equal(commonShape('user=<*>', 'uid=x'), '<*>=<*>');
  assert.equal(commonShape('key=alpha', 'key=beta'), 'key=<*>');
  assert.equal(fitsPattern('<*>[<*>]:', 'net.tools.agent[<*>]:'), true);
  assert.equal(fitsPattern('<*>[<*>]:', 'net.tools.agent:'), false);
});

test('a line keeps fitting its template after the template generalized (no template on replay)', () => {
  const tree = new DrainTree('svc', opts);
  const lines = ['synced to 7, level 2', 'synced to LOCAL(3), level 2', 'synced to x=1, level 2'];
  const first = lines.map((l) => tree.add(toks(l), l).cluster);
  for (const l of lines) assert.equal(tree.add(toks(l), l).cluster, first[0]);
  assert.equal(tree.clusters.length, 1);
});

test('a plain word against a compound name or a list of names differs in a value', () => {
  const tree = new DrainTree('svc', opts);
  const batch = tree.add(toks('sending batch to gamma now'), '').cluster;
  assert.equal(tree.add(toks('sending batch to alpha,beta now'), '').cluster, batch);
  assert.equal(tree.add(toks('sending batch to sync_ledger now'), '').cluster, batch);
  assert.equal(templateText(batch), 'sending batch to <*> now');
  // Two plain words are still two events until the leaf is crowded.
  const door = new DrainTree('svc', opts);
  assert.notEqual(door.add(toks('door opened by guard'), '').cluster, door.add(toks('door closed by guard'), '').cluster);
});

test('lines with and without a trailing remark are one template, the remark a wildcard', () => {
  const tree = new DrainTree('svc', opts);
  const plain = tree.add(toks('Connection closed by 10.0.0.1 port 22'), '').cluster;
  assert.equal(tree.add(toks('Connection closed by 10.0.0.2 port 23'), '').cluster, plain);
  assert.equal(templateText(plain), 'Connection closed by <*> port <*>');
  assert.equal(tree.add(toks('Connection closed by 10.0.0.3 port 24 [preauth]'), '').cluster, plain);
  assert.equal(templateText(plain), 'Connection closed by <*> port <*> <*>');
  assert.equal(tree.add(toks('Connection closed by 10.0.0.4 port 25 (reset) [preauth]'), '').cluster, plain);
  assert.equal(tree.add(toks('Connection closed by 10.0.0.4 port 25'), '').cluster, plain);
  assert.equal(tree.clusters.length, 1);
  // A remark seen on every line stays literal; a missing one joins even where a name differs.
  const unit = new DrainTree('svc', opts);
  const started = unit.add(toks('Started unit backup.service (pid 12)'), '').cluster;
  assert.equal(unit.add(toks('Started unit mailer.service (pid 13)'), '').cluster, started);
  assert.equal(templateText(started), 'Started unit <*> (pid <*>)');
  assert.equal(unit.add(toks('Started unit cron-daily.service'), '').cluster, started);
  assert.equal(templateText(started), 'Started unit <*> <*>');
});

test('different remarks in the same place differ in a word, like any word', () => {
  const tree = new DrainTree('svc', opts);
  const usable = tree.add(toks('BIOS map 0x1 - 0x2 (usable)'), '').cluster;
  const reserved = tree.add(toks('BIOS map 0x3 - 0x4 (reserved)'), '').cluster;
  assert.notEqual(usable, reserved);
  assert.equal(similarity(toks('a b (usable) (x)'), toks('a b (reserved)'), false), -1);
});

test('a restored template with a remark wildcard takes lines with and without the remark', () => {
  const tree = new DrainTree('svc', opts);
  const signature = toks('Task 1 failed (attempt 2)');
  const restored = tree.restoreCluster(signature, ['Task', '<*>', 'failed', '<*>'], '42');
  assert.equal(tree.add(toks('Task 7 failed'), '').cluster, restored);
  assert.equal(tree.add(toks('Task 8 failed (will retry)'), '').cluster, restored);
  assert.equal(tree.clusters.length, 1);
});

test('a kept status code never matches a wildcard', () => {
  const tree = new DrainTree('svc', opts);
  const ok = tree.add(toks('"GET /a/b HTTP/1.1" 200 5'), '').cluster;
  const missing = tree.add(toks('"GET /a/b HTTP/1.1" 404 5'), '').cluster;
  assert.notEqual(ok, missing);
  assert.equal(templateText(ok), '"GET <*> <*>" 200 <*>');
  assert.equal(similarity(['x', '<*>'], ['x', '404'], true), -1);
  assert.equal(similarity(['x', '200'], ['x', '404'], true), -1);
});

test('the overflow template takes lines beyond max_clusters_per_service', () => {
  const tree = new DrainTree('svc', { simThreshold: 0.5, maxClusters: 3 });
  const made = ['alpha one', 'beta two', 'gamma three', 'delta four', 'epsilon five'].map((l) => tree.add(toks(l), l).cluster);
  assert.equal(tree.clusters.length, 3);
  assert.equal(made[3], made[4]);
  assert.equal(made[3], tree.overflow);
  assert.equal(templateText(made[3]), OVERFLOW_TEMPLATE);
  // Known lines still find their templates.
  assert.equal(tree.add(toks('beta two'), '').cluster, made[1]);
});

test('template ids are stable: fixed at creation, same in every tree', () => {
  const t1 = new DrainTree('svc', opts);
  const c = t1.add(toks('worker 1 started'), '').cluster;
  const id = c.id;
  assert.equal(id, templateId('svc', 'worker <*> started'));
  assert.match(id, /^\d+$/);
  assert.ok(BigInt(id) < 2n ** 64n);
  t1.add(toks('worker x=1 started'), '');
  const t2 = new DrainTree('svc', opts);
  assert.equal(t2.add(toks('worker 9 started'), '').cluster.id, id);
  assert.notEqual(new DrainTree('other', opts).add(toks('worker 9 started'), '').cluster.id, id);
  // Generalizing the text keeps the id.
  const t3 = new DrainTree('svc', opts);
  const g = t3.add(toks('load now user=1 done'), '').cluster;
  const before = g.id;
  t3.add(toks('load now uid=x done'), '');
  assert.equal(templateText(g), 'load now <*>=<*> done');
  assert.equal(g.id, before);
});

test('error texts of any length after a label stay one template, beside a core that fits', () => {
  const tree = new DrainTree('svc', { simThreshold: 0.5, maxClusters: 5000 });
  const toks = (line: string): string[] => maskLine(line, { keepHttpStatus: true }).tokens;
  const resolve = tree.add(toks('failed to resolve hostname db-2.internal to IP: Permission denied'), '').cluster;
  assert.equal(tree.add(toks('failed to resolve hostname cache-a.local to IP: too many open files'), '').cluster, resolve);
  assert.equal(tree.add(toks('failed to resolve hostname db-2.internal to IP: EOF'), '').cluster, resolve);
  assert.equal(templateText(resolve), 'failed to resolve hostname <*> to IP: <*>');
  // A word differing in the core as well: two differences at once are two events.
  assert.notEqual(tree.add(toks('failed to resolve service db-2.internal to IP: Permission denied'), '').cluster, resolve);
});

test('a word beside an arrow both share varies like a value: states of a transition', () => {
  const tree = new DrainTree('svc', { simThreshold: 0.5, maxClusters: 5000 });
  const toks = (line: string): string[] => maskLine(line, { keepHttpStatus: true }).tokens;
  const status = tree.add(toks('status: stopped -> READY'), '').cluster;
  assert.equal(tree.add(toks('status: leader -> READY'), '').cluster, status);
  assert.equal(tree.add(toks('status: leader -> closing'), '').cluster, status);
  assert.equal(templateText(status), 'status: <*> -> <*>');
  // Without the arrow, two words differing are two events until the group is crowded.
  const opened = tree.add(toks('stream opened for reading'), '').cluster;
  assert.notEqual(tree.add(toks('stream closed for reading'), '').cluster, opened);
});

test('a word against a compound that ends or begins with it differs as a word: `vote:` is not `pre-vote:`', () => {
  const tree = new DrainTree('svc', { simThreshold: 0.5, maxClusters: 5000 });
  const toks = (line: string): string[] => maskLine(line, { keepHttpStatus: true }).tokens;
  const vote = tree.add(toks('asking for vote: term=5 from=10.0.0.1'), '').cluster;
  assert.notEqual(tree.add(toks('asking for pre-vote: term=6 from=10.0.0.2'), '').cluster, vote);
  // A compound name against another word still varies like a name.
  const sync = tree.add(toks('job report started on sync_ledger'), '').cluster;
  assert.equal(tree.add(toks('job report started on billing'), '').cluster, sync);
});

test('the labels of a list of fields are no evidence of one event, as the values are not', () => {
  const tail = ['client:', '<*>,', 'server:', '<*>'];
  assert.equal(similarity(['sent', 'large', 'header,', ...tail], ['sent', 'empty', 'header,', ...tail], true), 2 / 3);
  assert.equal(similarity(['too', 'large,', ...tail], ['no', 'path,', ...tail], true), 0);
  // A label that does not follow a comma is a word of the message.
  assert.equal(similarity(['a', 'x', 'client:', '<*>'], ['b', 'x', 'client:', '<*>'], true), 2 / 3);
});

test("an error's texts of one length after a label join beside a core of more than four tokens, however many of their words differ", () => {
  const tree = new DrainTree('svc', opts);
  const a = tree.add(toks('binding socket as MPTCP failed: Address already in use'), '').cluster;
  const b = tree.add(toks('binding socket as MPTCP failed: too many open files'), '').cluster;
  assert.equal(a, b);
  assert.equal(templateText(a), 'binding socket as MPTCP failed: <*>');
  // Beside a core of four tokens the text is as often the message itself.
  const c = tree.add(toks('MASTER <-> REPLICA sync: Finished with success'), '').cluster;
  const d = tree.add(toks('MASTER <-> REPLICA sync: Partial resynchronization refused'), '').cluster;
  assert.notEqual(c, d);
});

test('a word glued to a colon after a preposition both share is the labelled value and varies at once', () => {
  const tree = new DrainTree('svc', opts);
  const a = tree.add(toks('Malformed HTTP message from users: timed out'), '').cluster;
  const b = tree.add(toks('Malformed HTTP message from payments: timed out'), '').cluster;
  assert.equal(a, b);
  assert.equal(templateText(a), 'Malformed HTTP message from <*>: timed out');
  // Without a preposition before it, a word before a colon ends a clause of the message.
  const c = tree.add(toks('Malformed HTTP message header: timed out'), '').cluster;
  const d = tree.add(toks('Malformed HTTP message body: timed out'), '').cluster;
  assert.notEqual(c, d);
});

test('a verb after `not` or `to` keeps its event in a crowded leaf; a last word or a name there still varies', () => {
  const tree = new DrainTree('s', opts);
  const verbs = ['take', 'copy', 'persist', 'commit', 'compact', 'write'];
  const ids = verbs.map((v) => tree.add(toks(`failed to ${v} snapshot: error="EOF"`), '').cluster.id);
  assert.equal(new Set(ids).size, verbs.length);
  assert.ok(ids.length > CROWDED_LEAF_TEMPLATES);
  // The verb's event takes its own lines again.
  assert.equal(tree.add(toks('failed to copy snapshot: error="EOF"'), '').cluster.id, ids[1]);
  // In the crowded leaf, the word ending the line after `to` is a value as before.
  const crowded = new DrainTree('s', opts);
  for (const w of ['alpha', 'beta', 'gamma', 'delta', 'omega']) crowded.add(toks(`moved from ${w} to ${w}`), '');
  const a = crowded.add(toks('moved from kappa to sigma'), '').cluster.id;
  assert.equal(crowded.add(toks('moved from kappa to theta'), '').cluster.id, a);
});

test("an error's texts of one length after an error label join however short the line: the differing words of the text weigh neither way", () => {
  const tree = new DrainTree('svc', opts);
  const a = tree.add(toks('Error: too many open files'), '').cluster;
  assert.equal(tree.add(toks('Error: Connection reset by peer'), '').cluster, a);
  assert.equal(templateText(a), 'Error: <*>');
  const timer = tree.add(toks('Error in timer: Connection reset by peer'), '').cluster;
  assert.equal(tree.add(toks('Error in timer: too many open files'), '').cluster, timer);
  // The text counts neither way: only the core's words weigh (3 of 3 here, not 3 of 7).
  assert.equal(similarity(toks('Error in timer: Connection reset by peer'), toks('Error in timer: too many open files'), false), 1);
  // After a label of the message's own words, a short core keeps its texts apart.
  const c = tree.add(toks('DBus support enabled: connected to system bus'), '').cluster;
  assert.notEqual(tree.add(toks('DBus support enabled: bus connection pending now'), '').cluster, c);
});

test('a line opening with a word the service learned as a value joins a template whose first token names vary, when it fits it', () => {
  const tree = new DrainTree('svc', opts);
  // `orders` is shown to be a value by another event (a thing's name after `key`).
  const removing = tree.add(toks('Removing key alpha from cache'), '').cluster;
  assert.equal(tree.add(toks('Removing key orders from cache'), '').cluster, removing);
  // Names in the first position make a template whose first token is a wildcard.
  const excluded = tree.add(toks('worker-3 excluded minGzipSize audit.log'), '').cluster;
  assert.equal(tree.add(toks('job_cleanup excluded minGzipSize pool-1'), '').cluster, excluded);
  assert.equal(templateText(excluded), '<*> excluded minGzipSize <*>');
  assert.equal(tree.add(toks('orders excluded minGzipSize audit.log'), '').cluster, excluded);
  // A first word never seen to vary keeps its own template (`maxSessionTimeout set to <*>`).
  const set = tree.add(toks('autopurge.purgeInterval set to 5'), '').cluster;
  assert.notEqual(tree.add(toks('maxSessionTimeout set to 5'), '').cluster, set);
});

test('a boolean varies at once, alone or glued to a name or punctuation: a flag the statement prints', () => {
  const tree = new DrainTree('svc', opts);
  const status = tree.add(toks('status[false]: idle -> ready'), '').cluster;
  assert.equal(tree.add(toks('status[true]: idle -> ready'), '').cluster, status);
  assert.equal(templateText(status), 'status[<*>]: idle -> ready');
  const flag = tree.add(toks('Attribute loader isServerLoader=false'), '').cluster;
  assert.equal(tree.add(toks('Attribute loader isServerLoader=true'), '').cluster, flag);
  const started = tree.add(toks('chronyd starting with leap mode (true)'), '').cluster;
  assert.equal(tree.add(toks('chronyd starting with leap mode (False)'), '').cluster, started);
  // A word sharing letters with a boolean is a word (`trueauthenticated` is not `true`).
  const w = tree.add(toks('job was opened today'), '').cluster;
  assert.notEqual(tree.add(toks('job was trueopened today'), '').cluster, w);
});

test('a word the service learned as a value varies inside the punctuation it is wrapped in too', () => {
  const tree = new DrainTree('svc', opts);
  // `inventory` is shown to be a value by another event (a thing's name after `queue`).
  const queue = tree.add(toks('Purging queue metrics now'), '').cluster;
  assert.equal(tree.add(toks('Purging queue inventory now'), '').cluster, queue);
  const closed = tree.add(toks('Channel closed for (users) today'), '').cluster;
  assert.equal(tree.add(toks('Channel closed for (inventory) today'), '').cluster, closed);
  assert.equal(templateText(closed), 'Channel closed for (<*>) today');
  const listed = tree.add(toks('Listing users, then stopping'), '').cluster;
  assert.equal(tree.add(toks('Listing inventory, then stopping'), '').cluster, listed);
  // A wrapped word never seen to vary is a word of the message.
  const usable = tree.add(toks('BIOS map entry (usable) found'), '').cluster;
  assert.notEqual(tree.add(toks('BIOS map entry (reserved) found'), '').cluster, usable);
});

test('a learned value word varies in lines of 3 tokens; in lines of 2 when both words are learned', () => {
  const tree = new DrainTree('svc', opts);
  const queue = tree.add(toks('Purging queue metrics now'), '').cluster;
  assert.equal(tree.add(toks('Purging queue primary now'), '').cluster, queue);
  const proxy = tree.add(toks('Proxy primary stopped'), '').cluster;
  assert.equal(tree.add(toks('Proxy metrics stopped'), '').cluster, proxy);
  assert.equal(templateText(proxy), 'Proxy <*> stopped');
  // In a line of 2 tokens, both words must be learned.
  const reading = tree.add(toks('reading primary'), '').cluster;
  assert.equal(tree.add(toks('reading metrics'), '').cluster, reading);
  const disabled = tree.add(toks('disabled primary'), '').cluster;
  assert.notEqual(tree.add(toks('disabled primaryauth'), '').cluster, disabled);
});
