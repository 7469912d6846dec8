#!/usr/bin/env node
// Generates the labelled corpora from the extracted templates (testdata/log-corpora/templates):
// per system 2,000 lines with the system's own line header, realistic values and a frequency
// skew (a few hot events, a long tail), deterministic for a given seed.
//
//   node scripts/log-corpora/generate.mjs [--out DIR] [system ...]
//
// Writes per system:
//   <system>.tsv         one line per log line: event id, the lengths (characters) of its header
//                        and of its trailer (fields after the message, as ActiveMQ's logger and
//                        thread), the line
//   <system>.events.tsv  one line per event: event id, lines, true template of the message
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { corporaDir } from './paths.mjs';
import { PREFIXES, renderFields } from './prefixes.mjs';
import { prng, seedOf } from './random.mjs';
import { valueSource } from './values.mjs';
import { SYSTEMS } from './systems.mjs';

const LINES = 2000;
/** Zipf exponent of event frequencies: with 150 events, the top event takes ~1/5 of the lines. */
const ZIPF = 1.15;
const START_MS = Date.UTC(2026, 10, 27, 8, 0, 0);

const int = (r, max) => Math.floor(r() * max);
const pick = (r, xs) => xs[int(r, xs.length)];

const JAVA_THREADS = {
  cassandra: [
    'main',
    'CompactionExecutor:2',
    'MemtableFlushWriter:1',
    'GossipStage:1',
    'Native-Transport-Requests-7',
    'ScheduledTasks:1',
    'MigrationStage:1',
    'OptionalTasks:1',
  ],
  jetty: ['main', 'qtp1128032093-14', 'qtp1128032093-17', 'Scheduler-1780132728'],
  tomcat: ['main', 'http-nio-8080-exec-3', 'Catalina-utility-1', 'http-nio-8080-exec-10'],
  celery: ['MainProcess', 'ForkPoolWorker-1', 'ForkPoolWorker-2', 'Beat'],
  kombu: ['MainProcess', 'ForkPoolWorker-3'],
};
const ACTIVEMQ_THREADS = [
  'main',
  'ActiveMQ BrokerService[localhost] Task-4',
  'ActiveMQ Transport: tcp:///IP:PORT@61616',
  'JMX connector',
  'ActiveMQ Broker[localhost] Scheduler',
];
const CLIENT_NAMES = ['alice', 'bob', 'laptop-07', 'carol', 'office-gw', 'dave'];
const HTTP_SERVERS = ['example.com', 'api.example.org', '_', 'static.example.net'];
const URIS = ['/', '/index.html', '/api/v1/orders', '/static/app.js', '/login', '/favicon.ico', '/healthz'];

/**
 * Per-system decoration of the message beyond the format: nginx's request context, Kafka's log
 * context and logger, ActiveMQ's logger and thread, CoreDNS's plugin, OpenVPN's client.
 */
function decorate(sys, event, r) {
  const file = event.file;
  if (sys.name === 'nginx' && /^src\/http\//.test(file) && /ERR|INFO|WARN/.test(event.level)) {
    return {
      template: (m) => `${m}, client: <*>, server: <*>, request: "<*>", host: "<*>"`,
      line: (m, rr) =>
        `${m}, client: ${10 + int(rr, 200)}.${int(rr, 255)}.${int(rr, 255)}.${int(rr, 255)}, server: ${pick(rr, HTTP_SERVERS)}, request: "${pick(rr, ['GET', 'POST'])} ${pick(rr, URIS)} HTTP/1.1", host: "${pick(rr, HTTP_SERVERS.slice(0, 2))}"`,
    };
  }
  if (sys.name === 'kafka-clients') {
    const cls = file.replace(/\.java$/, '').replace(/\//g, '.');
    const ctx = /consumer/.test(file)
      ? 'consumer'
      : /producer/.test(file)
        ? 'producer'
        : /clients\/(NetworkClient|Metadata)/.test(file)
          ? r() < 0.5
            ? 'consumer'
            : 'producer'
          : '';
    const group = pick(r, ['orders-indexer', 'billing', 'audit-sink']);
    return {
      template: (m) => `${ctx === 'consumer' ? '[Consumer clientId=<*>, groupId=<*>] ' : ctx === 'producer' ? '[Producer clientId=<*>] ' : ''}${m} (${cls})`,
      line: (m, rr) =>
        `${ctx === 'consumer' ? `[Consumer clientId=consumer-${group}-${1 + int(rr, 3)}, groupId=${group}] ` : ctx === 'producer' ? `[Producer clientId=producer-${1 + int(rr, 4)}] ` : ''}${m} (${cls})`,
    };
  }
  if (sys.name === 'activemq') {
    // log4j's `%m | %c | %t`: the logger and thread after the message are fields of the line, like its header.
    const cls = file.replace(/\.java$/, '').replace(/\//g, '.');
    const thread = pick(r, ACTIVEMQ_THREADS);
    return {
      template: (m) => m,
      line: (m) => m,
      trailer: (rr) => ` | ${cls} | ${thread.replace('IP', `10.0.${int(rr, 9)}.${int(rr, 250)}`).replace('PORT', String(30000 + int(rr, 30000)))}`,
    };
  }
  if (sys.name === 'coredns' && /^plugin\/[^/]+\//.test(file)) {
    const plugin = file.split('/')[1];
    return { template: (m) => `plugin/${plugin}: ${m}`, line: (m) => `plugin/${plugin}: ${m}` };
  }
  if (sys.name === 'openvpn' && /^D_(TLS|PUSH|MULTI|HANDSHAKE)|^M_INFO$/.test(event.level) && r() < 0.6) {
    return {
      template: (m) => `<*>/<*> ${m}`,
      line: (m, rr) => `${pick(rr, CLIENT_NAMES)}/${10 + int(rr, 200)}.${int(rr, 255)}.${int(rr, 255)}.${int(rr, 255)}:${1024 + int(rr, 64000)} ${m}`,
    };
  }
  if (sys.name === 'raft') return { template: (m) => `raft: ${m}`, line: (m) => `raft: ${m}` };
  return { template: (m) => m, line: (m) => m };
}

/** One event made ready to emit: its template and a function giving a line's message. */
function prepare(sys, event, language, r) {
  // A value the format follows with `:` (`%s:%d`) is a host or address without its own port.
  const slots = event.segments.map((s, i) => {
    if (typeof s === 'string') return null;
    const next = event.segments[i + 1];
    return valueSource(s.kind, language, r, typeof next === 'string' && next.startsWith(':'));
  });
  const fields = event.fields.map(([key, type, kind]) => [key, type, valueSource(kind, language, r)]);
  const deco = decorate(sys, event, r);
  const messageTemplate = event.segments.map((s) => (typeof s === 'string' ? s : '<*>')).join('');
  const template = deco.template(
    renderFields(
      sys.prefix,
      messageTemplate,
      event.fields.map(([k, t]) => [k, t, '<*>']),
    ),
  );
  const message = (rr) => {
    const text = event.segments.map((s, i) => (typeof s === 'string' ? s : slots[i](rr))).join('');
    return deco.line(
      renderFields(
        sys.prefix,
        text,
        fields.map(([k, t, src]) => [k, t, /Bool/.test(t) ? pick(rr, ['true', 'false']) : src(rr)]),
      ),
      rr,
    );
  };
  const trailer = deco.trailer ?? (() => '');
  return { template, message, trailer };
}

function generate(sys, out) {
  const doc = JSON.parse(readFileSync(join(corporaDir(), 'templates', `${sys.name}.json`), 'utf8'));
  const r = prng(seedOf(`generate:${sys.name}`));
  const prepared = doc.events.map((e) => prepare(sys, e, sys.language, r));
  const weights = prepared.map((_, i) => 1 / (i + 1) ** ZIPF);
  const total = weights.reduce((a, b) => a + b, 0);
  const cumulative = [];
  let acc = 0;
  for (const w of weights) cumulative.push((acc += w / total));
  const pids = [1000 + int(r, 30000), 1000 + int(r, 30000), 1000 + int(r, 30000)];
  const threads = JAVA_THREADS[sys.name] ?? ['main'];
  const eventThread = doc.events.map(() => pick(r, threads));
  const counts = new Array(prepared.length).fill(0);
  const rows = [];
  let ms = START_MS;
  let conn = 1000 + int(r, 5000);
  for (let n = 0; n < LINES; n++) {
    // Bursts: most gaps are short, some are long.
    ms += r() < 0.8 ? int(r, 400) : int(r, 60000);
    const u = r();
    let k = cumulative.findIndex((c) => u < c);
    if (k < 0) k = prepared.length - 1;
    counts[k]++;
    const event = doc.events[k];
    const header = PREFIXES[sys.prefix]({
      ms,
      level: event.level,
      event,
      system: sys.name,
      pid: r() < 0.8 ? pids[0] : pick(r, pids),
      thread: r() < 0.7 ? eventThread[k] : pick(r, threads),
      conn: /^src\/http\//.test(event.file) ? `*${(conn += int(r, 3))} ` : '',
    });
    const message = prepared[k].message(r);
    const trailer = prepared[k].trailer(r);
    rows.push(`E${k + 1}\t${header.length}\t${trailer.length}\t${header}${message}${trailer}`);
  }
  const events = prepared.map((p, i) => `E${i + 1}\t${counts[i]}\t${p.template}`).filter((_, i) => counts[i] > 0);
  writeFileSync(join(out, `${sys.name}.tsv`), rows.join('\n') + '\n');
  writeFileSync(join(out, `${sys.name}.events.tsv`), events.join('\n') + '\n');
  return { doc, lines: rows.length, events: events.length };
}

/** SOURCES.md: per system where its format strings came from, under which licence. */
function sourcesTable(rows) {
  return [
    '# Where the corpora come from',
    '',
    'Each corpus is made from the format strings of the logging calls in one package, as published',
    'on its registry; `templates/<system>.json` lists them with the file and line of each call.',
    'Only the format strings are kept, as data; no code. Regenerate with the scripts in',
    '`scripts/log-corpora/` (see docs/log-mining.md).',
    '',
    '| System | Language | Registry | Package | Version | Licence | Calls read | Events kept | Events in corpus |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      ({ doc, events }) =>
        `| ${doc.name} | ${doc.language} | ${doc.registry} | ${doc.package} | ${doc.version} | ${doc.licence} | ${doc.calls_found} | ${doc.events.length} of ${doc.events_found} | ${events} |`,
    ),
    '',
  ].join('\n');
}

function main() {
  const argv = process.argv.slice(2);
  const outAt = argv.indexOf('--out');
  const out = outAt >= 0 ? argv[outAt + 1] : corporaDir();
  const only = outAt >= 0 ? argv.filter((_, i) => i !== outAt && i !== outAt + 1) : argv;
  const rows = [];
  const have = new Set(readdirSync(join(corporaDir(), 'templates')).map((f) => f.replace(/\.json$/, '')));
  for (const sys of SYSTEMS) {
    if ((only.length > 0 && !only.includes(sys.name)) || !have.has(sys.name)) continue;
    const row = generate(sys, out);
    rows.push(row);
    console.error(`${sys.name}: ${row.lines} lines, ${row.events} events`);
  }
  if (only.length === 0) writeFileSync(join(out, 'SOURCES.md'), sourcesTable(rows));
}

main();
