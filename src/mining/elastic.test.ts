import { test } from 'node:test';
import assert from 'node:assert/strict';
import { collapseWildcardRuns, elasticShape } from './elastic.js';
import { DEFAULT_MINER_OPTIONS, LogMiner } from './miner.js';
import { templateText } from './drain.js';
import { restoreMiner, snapshotMiner, type MinerSnapshot } from './snapshot.js';

const split = (s: string): string[] => s.split(' ');
const shape = (template: string, line: string): string | null => elasticShape(split(template), split(line))?.join(' ') ?? null;

test('a text of words after a label varies in length', () => {
  assert.equal(
    shape('Retrying <*> after failure <*> times, reason: timed out', 'Retrying <*> after failure <*> times, reason: Name or service not known'),
    'Retrying <*> after failure <*> times, reason: <*>',
  );
  // In the middle of the line too, the rest of the line fitting around it.
  assert.equal(
    shape(
      'Failed to modify connection mark: timed out (Destination <*>, source <*>)',
      'Failed to modify connection mark: Connection reset by peer (Destination <*>, source <*>)',
    ),
    'Failed to modify connection mark: <*> (Destination <*>, source <*>)',
  );
  // Not after a program's name as first token, nor with fewer than 4 tokens before the label.
  assert.equal(shape('ciod: LOGIN chdir(<*>) failed: Input/output error', 'ciod: LOGIN chdir(<*>) failed: No such file or directory'), null);
  assert.equal(shape('OPTIONS IMPORT: tun-mtu set to <*>', 'OPTIONS IMPORT: reading client options from <*>'), null);
  // A text holding a value is a field of a fixed layout, not a text.
  assert.equal(shape('a b c program interrupt: fp cr update.....<*>', 'a b c program interrupt: illegal instruction.....<*>'), null);
});

test('one quoted value varies in length; several quoted parts do not', () => {
  assert.equal(
    shape('level=warn component=tsdb msg="append failed" err="EOF"', 'level=warn component=tsdb msg="append failed" err="Connection reset by peer"'),
    'level=warn component=tsdb msg="append failed" err="<*>"',
  );
  assert.equal(
    shape('{"level":"warn", "msg":"peer lost", "peer": <*>, "error": "broken pipe"}', '{"level":"warn", "msg":"peer lost", "peer": <*>, "error": "EOF"}'),
    '{"level":"warn", "msg":"peer lost", "peer": <*>, "error": "<*>"}',
  );
  assert.equal(shape("parsing [<*>]: 'a' overrides previous 'b' in 'defaults' section.", "parsing [<*>]: 'c' in 'defaults' section."), null);
  // Parentheses and brackets: their length is as often the event's own.
  assert.equal(shape('Fan speeds on board <*> ( <*> )', 'Fan speeds on board <*> ( <*> <*> **** <*> )'), null);
});

test('a wildcard takes names beside it, not plain words', () => {
  assert.equal(
    shape('cluster GOSSIP from <*> about <*> audit.log', 'cluster GOSSIP from <*> about db-1.lan <*> audit.log'),
    'cluster GOSSIP from <*> about <*> audit.log',
  );
  assert.equal(
    shape('cluster GOSSIP from <*> about db-1.lan <*> audit.log', 'cluster GOSSIP from <*> about <*> audit.log'),
    'cluster GOSSIP from <*> about <*> audit.log',
  );
  assert.equal(
    shape('client sent invalid header, request: "<*> <*>", host: "<*>"', 'client sent invalid header, request: "<*> /healthz <*>", host: "<*>"'),
    'client sent invalid header, request: "<*> <*>", host: "<*>"',
  );
  // An inserted word of the message, even beside a wildcard, makes another event.
  assert.equal(shape('Node <*> is up since <*>', 'Node <*> is not up since <*>'), null);
  assert.equal(shape('Could not set <*> for device', 'Could not set <*> credentials for device'), null);
});

test('lines of one event whose error text has several lengths keep one template', () => {
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const lines = [
    'Topic metadata fetch included errors: java.lang.IllegalStateException: closed (org.example.Fetcher)',
    'Topic metadata fetch included errors: org.example.errors.TimeoutException: Timeout expired (org.example.Fetcher)',
    'Topic metadata fetch included errors: java.net.ConnectException: Connection refused (org.example.Fetcher)',
    'Topic metadata fetch included errors: java.util.concurrent.TimeoutException (org.example.Fetcher)',
    'TLS handshake error from 10.0.0.1:443 reason: EOF',
    'TLS handshake error from 10.0.0.2:443 reason: connection reset by peer',
    'Node 12 is up since 3',
    'Node 13 is not up since 4',
  ];
  const ids = lines.map((line) => miner.mine('svc', line).id);
  assert.equal(new Set(ids.slice(0, 4)).size, 1);
  assert.equal(new Set(ids.slice(4, 6)).size, 1);
  assert.notEqual(ids[6], ids[7]);
  assert.equal(templateText(miner.mine('svc', lines[0]!)), 'Topic metadata fetch included errors: <*> (org.example.Fetcher)');
  assert.equal(templateText(miner.mine('svc', lines[4]!)), 'TLS handshake error from <*> reason: <*>');
});

test('placements across token counts are the same with the cache and without', () => {
  const lines: string[] = [];
  const errors = ['EOF', 'timed out', 'Connection reset by peer', 'no route to host', 'broken pipe'];
  for (let i = 0; i < 200; i++) {
    lines.push(`write to peer ${i % 7} of group main failed: ${errors[i % errors.length]!}`);
    lines.push(`level=warn msg="append failed" series=${i} err="${errors[(i * 3) % errors.length]!}"`);
    lines.push(`request from 10.0.0.${i % 250}: GOSSIP about ${i % 3 === 0 ? 'db-1.lan ' : ''}10.1.1.${i % 9}:${6000 + i} done`);
  }
  const cached = new LogMiner(DEFAULT_MINER_OPTIONS);
  const plain = new LogMiner({ ...DEFAULT_MINER_OPTIONS, useCache: false });
  for (let pass = 0; pass < 2; pass++) {
    for (const line of lines) assert.equal(cached.mine('svc', line).id, plain.mine('svc', line).id, line);
  }
  assert.equal(cached.templateCount(), 3);
});

test('a template that became shorter restores with its id, and lines of both lengths find it', () => {
  const lines = [
    'level=warn component=tsdb msg="append failed" series=1 err="Connection reset by peer"',
    'level=warn component=tsdb msg="append failed" series=2 err="EOF"',
    'level=warn component=tsdb msg="append failed" series=3 err="timed out"',
  ];
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const ids = lines.map((line) => miner.mine('svc', line).id);
  assert.equal(new Set(ids).size, 1);
  assert.equal(templateText(miner.mine('svc', lines[0]!)), 'level=warn component=tsdb msg="append failed" series=<*> err="<*>"');
  const restored = restoreMiner(JSON.parse(JSON.stringify(snapshotMiner(miner))) as MinerSnapshot, DEFAULT_MINER_OPTIONS);
  assert.deepEqual(
    lines.map((line) => restored.mine('svc', line.replace(/\d+/, '9')).id),
    ids,
  );
  assert.equal(restored.templateCount(), 1);
});

test('a run of adjacent wildcards in a template takes a line with one wildcard there', () => {
  assert.deepEqual(collapseWildcardRuns(['GOSSIP', '<*>', '<*>']), ['GOSSIP', '<*>']);
  assert.deepEqual(collapseWildcardRuns(['a', '<*>', 'b', '<*>']), ['a', '<*>', 'b', '<*>']);
  assert.deepEqual(elasticShape(['GOSSIP', '<*>', '<*>'], ['GOSSIP', '<*>']), ['GOSSIP', '<*>']);
  // The rest must fit as it stands.
  assert.equal(elasticShape(['GOSSIP', '<*>', '<*>', 'up'], ['GOSSIP', '<*>', 'down']), null);
  // Lines of the event in all three shapes share one template.
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const a = miner.mine('s', 'GOSSIP db-1.prod.internal 10.0.0.1:6379@16379 audit.log');
  miner.mine('s', 'GOSSIP db-1.prod.internal 10.0.0.2:6379@16379 node-2');
  miner.mine('s', 'GOSSIP localhost 10.0.0.3:6379@16379 audit.log');
  assert.equal(miner.mine('s', 'GOSSIP db-1.prod.internal 10.0.0.4:6379@16379 v1.orders').id, a.id);
  assert.equal(miner.mine('s', 'GOSSIP localhost 10.0.0.5:6379@16379 node-7').id, a.id);
  assert.equal(templateText(a), 'GOSSIP <*>');
});

test('across token counts, a labelled value in quotes differing from the template literal becomes a slot', () => {
  const template = ['closed', 'idle', 'connection,', 'request:', '"POST', '<*>",', 'host:', '"example.com"'];
  const line = ['closed', 'idle', 'connection,', 'request:', '"POST', '/login', '<*>",', 'host:', '"<*>"'];
  assert.deepEqual(elasticShape(template, line), ['closed', 'idle', 'connection,', 'request:', '"POST', '<*>",', 'host:', '"<*>"']);
  // Not after a word that is no label: `previous 'x'` is as often the message's own.
  const words = ['x', 'overrides', 'previous', "'mode'", 'in', "'defaults'", 'now'];
  assert.equal(elasticShape(words, ['x', 'overrides', 'previous', "'<*>'", 'in', "'defaults'", 'now', 'here']), null);
});

test("an exception's name alone and one with its message after it are one value", () => {
  const template = 'Member <*> leaving group due to java.util.concurrent.TimeoutException (AbstractCoordinator)';
  assert.equal(
    shape(template, 'Member <*> leaving group due to java.lang.IllegalStateException: closed (AbstractCoordinator)'),
    'Member <*> leaving group due to <*> (AbstractCoordinator)',
  );
  // A plain word is no exception's name: the run is the message's own.
  assert.equal(
    shape('Member <*> leaving group due to timeout (AbstractCoordinator)', 'Member <*> leaving group due to rebalance: closed (AbstractCoordinator)'),
    null,
  );
});

test('after a short label, two texts the service learned as values join across token counts', () => {
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  // Two texts of one labelled tail, of one length each time, are learned as values.
  for (const text of ['connection refused', 'broken pipe']) miner.mine('s', `upstream request to backend failed: ${text}`);
  for (const text of ['no such host exists', 'operation not permitted here']) miner.mine('s', `cache sync to replica failed: ${text}`);
  const first = miner.mine('s', 'Got error: connection refused');
  assert.equal(miner.mine('s', 'Got error: no such host exists').id, first.id);
  // Texts never learned as values keep their events apart.
  const other = miner.mine('s', 'Got warning: disk nearly full');
  assert.notEqual(miner.mine('s', 'Got warning: cache was rebuilt from scratch').id, other.id);
});

test('a text after a label in the middle of a line, with 3 tokens on each side, varies in length', () => {
  assert.equal(
    shape('<*> connection closed: broken pipe - Account: <*>', '<*> connection closed: Address already in use - Account: <*>'),
    '<*> connection closed: <*> - Account: <*>',
  );
  // With fewer words after it, the text may be the message's own.
  assert.equal(shape('<*> connection closed: broken pipe now', '<*> connection closed: Address already in use now'), null);
});

test("a field's value differing beside the run does not refuse the join across token counts, as it would not within one", () => {
  assert.equal(
    shape('msg="Error while adding" series=<*> exemplar=audit.log err="Permission denied"', 'msg="Error while adding" series=<*> exemplar=metrics err="EOF"'),
    'msg="Error while adding" series=<*> exemplar=<*> err="<*>"',
  );
  // A message key's value tells statements apart, as within one token count.
  assert.equal(shape('msg=Stopping series=<*> err="Permission denied"', 'msg=Starting series=<*> err="EOF"'), null);
});

test("a template's quoted value of several words takes a line's quoted value of one word across token counts", () => {
  assert.equal(
    shape('msg="Error while adding" series=<*> err="<*> <*>"', 'msg="Error while adding" series=<*> err="EOF"'),
    'msg="Error while adding" series=<*> err="<*>"',
  );
  assert.equal(shape("a b c reason '<*> <*> <*>' now", "a b c reason 'EOF' now"), "a b c reason '<*>' now");
  // Two quoted values in the template's run are not one value.
  assert.equal(shape('a b c err="<*> x" y="<*>"', 'a b c err="EOF"'), null);
});
