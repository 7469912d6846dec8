#!/usr/bin/env node
// Extracts the format strings of the logging calls of each system in systems.mjs from its
// unpacked source (fetched by fetch.mjs) into testdata/log-corpora/templates/<system>.json:
// per event its format as written, where it is (file, line), its level, and its pieces, literal
// text and placeholders with the kind of value each holds (told from the expression the code
// passes, which is not kept), which generate.mjs fills with values. No code is kept beyond the
// format strings themselves.
//
//   node scripts/log-corpora/extract.mjs SOURCES_DIR [system ...]
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SYSTEMS } from './systems.mjs';
import { formatPieces, lineOf, readArgs } from './source-args.mjs';
import { corporaDir } from './paths.mjs';
import { levelClass } from './prefixes.mjs';
import { prng, seedOf } from './random.mjs';
import { kindOf } from './values.mjs';

const CONVERSIONS = {
  C: /%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d+))?(hh|h|ll|l|L|q|j|z|Z|t)?(llu|[diouxXeEfFgGcspaAm%])/g,
  nginx: /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?()(uxi|uxD|ui|uA|uD|uz|ul|xi|xD|XD|Xi|xd|i|d|D|z|O|T|M|V|v|s|p|P|r|c|N|Z|f|l|L|A|x|X|%)/g,
  Go: /%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?()([vTtbcdoOqxXUeEfFgGsqpw%])/g,
  JavaScript: /%()()()()([sdifjoOc%])/g,
  Python: /%(?:\((\w+)\))?([-+ #0]*)(\d+)?(?:\.(\d+))?([diouxXeEfFgGcrsa%])/g,
};

/** Splits a printf-style text into text and slots, taking values from `args` in order. */
function printfSegments(text, table, args, segments) {
  const re = new RegExp(table.source, 'g');
  let last = 0;
  let m;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) segments.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    const conv = m[5];
    if (conv === '%') {
      segments.push('%');
      continue;
    }
    if (conv === 'm') {
      segments.push({ conv: 'm', expr: 'strerror(errno)' });
      continue;
    }
    if (m[2] === '*') args.shift();
    if (m[3] === '*') args.shift();
    if (args.length === 0) return false;
    segments.push({ conv, expr: args.shift() });
  }
  if (last < text.length) segments.push(text.slice(last));
  return true;
}

/** Python: `%s` / `%(name)s` with positional or mapping arguments, `{}` in f-strings and `.format`. */
function pythonSegments(text, interpolated, args, segments, formatArgs) {
  if (interpolated || formatArgs) {
    let last = 0;
    const re = /\{\{|\}\}|\{([^{}]*)\}/g;
    let m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > last) segments.push(text.slice(last, m.index));
      last = m.index + m[0].length;
      if (m[0] === '{{' || m[0] === '}}') {
        segments.push(m[0][0]);
        continue;
      }
      const inner = m[1].replace(/(![rsa])?(:[^}]*)?$/, '');
      const conv = /:[^}]*[df]$/.test(m[1]) ? 'd' : 's';
      let expr = inner;
      if (!interpolated) expr = inner === '' || /^\d+$/.test(inner) ? (formatArgs.shift() ?? 'value') : inner;
      segments.push({ conv, expr });
    }
    if (last < text.length) segments.push(text.slice(last));
    return true;
  }
  const re = new RegExp(CONVERSIONS.Python.source, 'g');
  let last = 0;
  let m;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) segments.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[5] === '%') {
      segments.push('%');
      continue;
    }
    const conv = m[5] === 'r' ? 'r' : m[5];
    if (m[1]) segments.push({ conv, expr: m[1] });
    else {
      if (args.length === 0) return false;
      segments.push({ conv, expr: args.shift() });
    }
  }
  if (last < text.length) segments.push(text.slice(last));
  return true;
}

/** `{}` placeholders (SLF4J; Rust's `{}`, `{:?}`, `{name}`, `{0}`; MessageFormat's `{0}`). */
function braceSegments(text, args, segments, style) {
  const re = style === 'rust' ? /\{\{|\}\}|\{([^{}]*)\}/g : style === 'properties' ? /\{(\d+)(?:,[^}]*)?\}/g : /\\?\{\}/g;
  let last = 0;
  let m;
  while ((m = re.exec(text)) !== null) {
    if (m.index > last) segments.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[0] === '{{' || m[0] === '}}') {
      segments.push(m[0][0]);
      continue;
    }
    if (m[0].startsWith('\\')) {
      segments.push('{}');
      continue;
    }
    if (style === 'properties') {
      segments.push({ conv: 's', expr: `arg${m[1]}` });
      continue;
    }
    const name = style === 'rust' ? m[1].replace(/:.*$/, '') : '';
    const conv = style === 'rust' && /\?/.test(m[1]) ? 'debug' : 's';
    if (name !== '' && !/^\d+$/.test(name)) segments.push({ conv, expr: name });
    else {
      if (args.length === 0) return false;
      segments.push({ conv, expr: args.shift() });
    }
  }
  if (last < text.length) segments.push(text.slice(last));
  return true;
}

const ZAP_FIELD = /^zap\.(\w+)\(\s*"([^"]+)"\s*,\s*([\s\S]*)\)$/;

/** A structured call's fields as `[key, type, expr]`: zap fields, hclog/go-kit pairs. */
function structuredFields(style, args) {
  const fields = [];
  if (style === 'go-zap') {
    for (const a of args) {
      const m = ZAP_FIELD.exec(a);
      if (m) fields.push([m[2], m[1], m[3]]);
      else if (/^zap\.Error\(/.test(a)) fields.push(['error', 'Error', a.slice(10, -1)]);
      else return null;
    }
    return fields;
  }
  for (let i = 0; i + 1 < args.length; i += 2) {
    const key = /^"([\w.-]+)"$/.exec(args[i]);
    if (!key) return null;
    fields.push([key[1], 'Any', args[i + 1]]);
  }
  return fields;
}

/** A text with no placeholder of its own (structured message): one literal segment. */
function constantText(pieces) {
  if (pieces.some((p) => 'expr' in p || p.interpolated)) return null;
  return pieces.map((p) => p.lit ?? p.text).join('');
}

/** The segments of one call, or null when it cannot be read as a template. */
function eventSegments(sys, args, formatIndex) {
  const fmtArg = args[formatIndex];
  if (fmtArg === undefined) return null;
  const pieces = formatPieces(fmtArg, sys.language, sys.concat);
  if (pieces === null) return null;
  const rest = args.slice(formatIndex + 1);
  const segments = [];
  if (sys.style === 'go-zap' || sys.style === 'go-hclog' || sys.style === 'go-kit') {
    const msg = constantText(pieces.map((p) => ('text' in p ? { lit: p.text, interpolated: p.interpolated } : p)));
    if (msg === null) return null;
    const fields = structuredFields(sys.style, sys.style === 'go-kit' ? args.slice(0, formatIndex - 1).concat(rest) : rest);
    if (fields === null) return null;
    return { segments: [msg], fields };
  }
  for (const p of pieces) {
    if ('expr' in p) {
      // Squid's stream manipulators and location macros print no value of the message.
      if (sys.name === 'squid' && /^(MYNAME|HERE|std::endl|Debug::Extra|Raw\(.*)$/.test(p.expr)) continue;
      segments.push({ conv: 's', expr: p.expr });
      continue;
    }
    const text = p.text;
    let ok;
    if (sys.style === 'printf') {
      const table = sys.name === 'nginx' ? CONVERSIONS.nginx : (CONVERSIONS[sys.language === 'C++' ? 'C' : sys.language] ?? CONVERSIONS.C);
      ok = printfSegments(text, table, rest, segments);
    } else if (sys.style === 'python') {
      // `'...' % args` and `'...'.format(args)` arrive as an expression after the literal.
      ok = pythonSegments(text, p.interpolated, rest, segments, null);
    } else ok = braceSegments(text, rest, segments, sys.style);
    if (!ok) return null;
  }
  // Python's `% (a, b)` / `.format(a, b)` after the literal: redo with those arguments.
  const tail = pieces.at(-1);
  if (sys.style === 'python' && tail && 'expr' in tail) {
    const op = /^(%|\.format\()\s*([\s\S]*?)\)?$/.exec(tail.expr);
    if (!op) return null;
    const inner = op[2].replace(/^\(/, '').replace(/\)$/, '');
    const fmtArgs = inner
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const lits = pieces.filter((p) => 'text' in p);
    const redo = [];
    for (const l of lits) if (!pythonSegments(l.text, l.interpolated, fmtArgs, redo, op[1] === '%' ? null : fmtArgs)) return null;
    return { segments: redo, fields: [] };
  }
  return { segments, fields: [] };
}

/** The format as written in the source: its literals, with `{}` where a value is joined to them. */
function formatAsWritten(pieces) {
  return pieces.map((p) => ('text' in p ? p.text : '{}')).join('');
}

/**
 * The event as kept: each placeholder's expression replaced by the kind of value it holds
 * (values.mjs), so that no code but the format strings enters the repository.
 */
function withKinds(event, language) {
  return {
    ...event,
    segments: event.segments.map((s) => (typeof s === 'string' ? s : { conv: s.conv, kind: kindOf(s.conv, s.expr, language) })),
    fields: event.fields.map(([key, type, expr]) => [
      key,
      type,
      kindOf(/Int|Uint/.test(type) ? 'd' : 's', /Bool/.test(type) ? 'enabled' : `${key}_${expr}`, language),
    ]),
  };
}

function* walk(dir, skip) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) yield* walk(path, skip);
    else yield path;
  }
}

/** The level of a PostgreSQL errmsg: the ereport around it. */
function enclosingLevel(src, pos, re) {
  const before = src.slice(Math.max(0, pos - 600), pos);
  let m;
  let level;
  while ((m = re.exec(before)) !== null) level = m[1];
  re.lastIndex = 0;
  return level;
}

function extractProperties(sys, root) {
  const events = [];
  for (const dir of sys.dirs) {
    for (const path of walk(join(root, dir))) {
      if (!/\/LocalStrings\.properties$/.test(path)) continue;
      const lines = readFileSync(path, 'utf8').split('\n');
      lines.forEach((line, i) => {
        const m = /^([\w.-]+)\s*=\s*(.+)$/.exec(line);
        if (!m) return;
        const text = m[2].replace(/''/g, "'");
        const segments = [];
        if (!braceSegments(text, [], segments, 'properties')) return;
        events.push({ key: m[1], format: m[2], file: relative(root, path), line: i + 1, level: 'INFO', segments, fields: [] });
      });
    }
  }
  return events;
}

function extract(sys, sourcesDir) {
  const root = join(sourcesDir, sys.root);
  if (!existsSync(root)) throw new Error(`${sys.name}: no source at ${root} (run fetch.mjs)`);
  if (sys.style === 'properties') return extractProperties(sys, root);
  const events = [];
  for (const dir of sys.dirs) {
    for (const path of walk(join(root, dir))) {
      const rel = relative(root, path);
      if (!sys.files.test(path.split('/').at(-1)) || (sys.skipFiles && sys.skipFiles.test('/' + rel))) continue;
      const src = readFileSync(path, 'utf8');
      const call = new RegExp(sys.call.source, 'g');
      let m;
      while ((m = call.exec(src)) !== null) {
        const parsed = readArgs(src, m.index + m[0].length, sys.language);
        if (parsed === null) continue;
        let formatIndex = sys.formatArg;
        if (formatIndex === 'first-string') {
          formatIndex = parsed.args.findIndex((a) => /^(r#*)?"/.test(a));
          if (sys.style === 'go-kit') formatIndex = parsed.args.indexOf('"msg"') + 1;
          if (formatIndex <= 0 && sys.style === 'go-kit') continue;
          if (formatIndex < 0) continue;
        }
        const read = eventSegments(sys, parsed.args, formatIndex);
        if (read === null) continue;
        let level = m[1] ?? 'info';
        if (sys.name === 'postgresql') level = enclosingLevel(src, m.index, /ereport\(\s*([A-Z0-9]+)/g) ?? 'LOG';
        const pieces = formatPieces(parsed.args[formatIndex], sys.language, sys.concat);
        events.push({ format: formatAsWritten(pieces), file: rel, line: lineOf(src, m.index), level, ...read });
      }
    }
  }
  return events;
}

/** The true template of an event: its text with every value as `<*>`. */
export function eventTemplate(event, renderFields) {
  const message = event.segments.map((s) => (typeof s === 'string' ? s : '<*>')).join('');
  return renderFields(
    message,
    event.fields.map(([key, type]) => [key, type, '<*>']),
  );
}

/** Keeps events that read as log messages: words of their own, one line, not too long. */
function usable(event) {
  const text = event.segments.filter((s) => typeof s === 'string').join(' ');
  if (!/[A-Za-z]{3,}/.test(text)) return false;
  const joined = event.segments
    .map((s) => (typeof s === 'string' ? s : 'X'))
    .join('')
    .replace(/\n+$/, '');
  if (/[\n\r\t]/.test(joined) || joined.length > 240 || joined.trim().length < 8) return false;
  // A message that is only a placeholder and punctuation says nothing of its own.
  return event.segments.some((s) => typeof s === 'string' && /[A-Za-z]{3,}/.test(s));
}

/** Events kept per system, as many as a LogHub-2k set has at most. */
const MAX_EVENTS = 150;

/**
 * A seeded sample of the events, in the order of their frequency rank in the corpus: messages
 * at info and debug level come first more often (a log's hot events are its routine ones).
 */
function selectEvents(events, name) {
  const r = prng(seedOf(name));
  const keyed = events.map((e) => ({ e, k: r() + (levelClass(e.level) === 'error' || levelClass(e.level) === 'warn' ? 0.6 : 0) }));
  keyed.sort((a, b) => a.k - b.k);
  return keyed.slice(0, MAX_EVENTS).map((x) => x.e);
}

function main() {
  const [sourcesDir, ...only] = process.argv.slice(2);
  if (!sourcesDir) {
    console.error('usage: node scripts/log-corpora/extract.mjs SOURCES_DIR [system ...]');
    process.exit(2);
  }
  const out = join(corporaDir(), 'templates');
  mkdirSync(out, { recursive: true });
  for (const sys of SYSTEMS) {
    if (only.length > 0 && !only.includes(sys.name)) continue;
    const all = extract(sys, sourcesDir);
    const seen = new Set();
    const events = [];
    for (const e of all) {
      // Trailing newlines belong to the line end, not the message.
      while (typeof e.segments.at(-1) === 'string' && /\n$/.test(e.segments.at(-1))) e.segments[e.segments.length - 1] = e.segments.at(-1).replace(/\n+$/, '');
      if (!usable(e)) continue;
      const key = JSON.stringify([e.segments.map((s) => (typeof s === 'string' ? s : '*')), e.fields.map((f) => f[0])]);
      if (seen.has(key)) continue;
      seen.add(key);
      events.push(e);
    }
    const chosen = selectEvents(events, sys.name).map((e) => withKinds(e, sys.language));
    const { fetch, root, dirs, files, skipFiles, call, formatArg, concat, levels, ...meta } = sys;
    const doc = { ...meta, extracted_from: { root, dirs, call: call.source }, calls_found: all.length, events_found: events.length, events: chosen };
    writeFileSync(
      join(out, `${sys.name}.json`),
      JSON.stringify(doc, null, 0)
        .replace(/\{"format"/g, '\n{"format"')
        .replace(/\{"key"/g, '\n{"key"') + '\n',
    );
    console.error(`${sys.name}: ${all.length} calls, ${events.length} events`);
    void fetch;
    void files;
    void skipFiles;
    void formatArg;
    void concat;
    void levels;
    void dirs;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
