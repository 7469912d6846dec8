// How each system's lines start (the header a log reader strips before the message) and how its
// structured fields are written after the message, as that software prints them by default.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const p2 = (n) => String(n).padStart(2, '0');
const p3 = (n) => String(n).padStart(3, '0');

function parts(ms) {
  const d = new Date(ms);
  return {
    y: d.getUTCFullYear(),
    mo: p2(d.getUTCMonth() + 1),
    mon: MONTHS[d.getUTCMonth()],
    d: p2(d.getUTCDate()),
    h: p2(d.getUTCHours()),
    mi: p2(d.getUTCMinutes()),
    s: p2(d.getUTCSeconds()),
    ms: p3(d.getUTCMilliseconds()),
  };
}

/** debug | info | warn | error from a level as the code names it. */
export function levelClass(raw) {
  const l = String(raw).toLowerCase();
  if (/debug|verbose|trace|^d_|^2$|^1$/.test(l) && !/errors?$/.test(l)) return 'debug';
  if (/warn|crit|alert|emerg|nonfatal|^dbg_important/.test(l)) return 'warn';
  if (/err|fatal|panic|exception|dbg_critical/.test(l)) return 'error';
  return 'info';
}

const UPPER = { debug: 'DEBUG', info: 'INFO', warn: 'WARN', error: 'ERROR' };

/** Go file path → `dir/file.go`, as zap's caller shows it. */
const shortCaller = (file, line) => `${file.split('/').slice(-2).join('/')}:${line}`;
const javaClass = (file) => file.replace(/\.java$/, '').replace(/\//g, '.');
const simpleClass = (file) =>
  file
    .split('/')
    .at(-1)
    .replace(/\.\w+$/, '');

/**
 * The header of one line. ctx: { ms, level (raw), event, pid, thread, r }.
 * Returns the text before the message.
 */
export const PREFIXES = {
  nginx: ({ ms, level, pid, conn }) => {
    const t = parts(ms);
    return `${t.y}/${t.mo}/${t.d} ${t.h}:${t.mi}:${t.s} [${String(level).toLowerCase().replace('err', 'error')}] ${pid}#${pid}: ${conn}`;
  },
  redis: ({ ms, level, pid }) => {
    const t = parts(ms);
    const c = { WARNING: '#', NOTICE: '*', VERBOSE: '-', DEBUG: '.' }[level] ?? '*';
    return `${pid}:M ${t.d} ${t.mon} ${t.y} ${t.h}:${t.mi}:${t.s}.${t.ms} ${c} `;
  },
  haproxy: ({ level, pid }) => {
    const l = `[${String(level).toUpperCase()}]`;
    return `${l.padEnd(10)} (${pid}) : `;
  },
  dnsmasq: ({ ms, level, pid }) => {
    const t = parts(ms);
    const name = /DHCP/.test(level) ? 'dnsmasq-dhcp' : /TFTP/.test(level) ? 'dnsmasq-tftp' : 'dnsmasq';
    return `${t.mon} ${t.d} ${t.h}:${t.mi}:${t.s} ${name}[${pid}]: `;
  },
  postgresql: ({ ms, level, pid }) => {
    const t = parts(ms);
    const l = /^DEBUG/.test(level) ? 'DEBUG' : /^(I|COMMERROR)$/.test(level) ? 'LOG' : level;
    return `${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s}.${t.ms} UTC [${pid}] ${l}:  `;
  },
  chrony: ({ ms }) => {
    const t = parts(ms);
    return `${t.y}-${t.mo}-${t.d}T${t.h}:${t.mi}:${t.s}Z `;
  },
  openvpn: ({ ms }) => {
    const t = parts(ms);
    return `${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s} `;
  },
  squid: ({ ms, pid }) => {
    const t = parts(ms);
    return `${t.y}/${t.mo}/${t.d} ${t.h}:${t.mi}:${t.s}.${t.ms} kid${(pid % 4) + 1}| `;
  },
  'zap-console': ({ ms, level, event }) => {
    const t = parts(ms);
    return `${t.y}-${t.mo}-${t.d}T${t.h}:${t.mi}:${t.s}.${t.ms}Z\t${String(level).toLowerCase()}\t${shortCaller(event.file, event.line)}\t`;
  },
  caddy: ({ ms, level, event }) => {
    const t = parts(ms);
    const logger =
      event.file
        .split('/')
        .slice(-2, -1)[0]
        ?.replace(/^caddy/, '') || 'caddy';
    return `${t.y}/${t.mo}/${t.d} ${t.h}:${t.mi}:${t.s}.${t.ms}\t${String(level).toUpperCase()}\t${logger}\t`;
  },
  coredns: ({ level }) => `[${{ Info: 'INFO', Warning: 'WARNING', Error: 'ERROR', Debug: 'DEBUG' }[level] ?? 'INFO'}] `,
  nats: ({ ms, level, pid }) => {
    const t = parts(ms);
    const l = { Notice: 'INF', Warn: 'WRN', Error: 'ERR', Debug: 'DBG' }[level] ?? 'INF';
    return `[${pid}] ${t.y}/${t.mo}/${t.d} ${t.h}:${t.mi}:${t.s}.${t.ms}${p3(Number(t.ms))} [${l}] `;
  },
  'go-kit': ({ ms, level, event }) => {
    const t = parts(ms);
    return `ts=${t.y}-${t.mo}-${t.d}T${t.h}:${t.mi}:${t.s}.${t.ms}Z caller=${event.file.split('/').at(-1)}:${event.line} level=${String(level).toLowerCase()} `;
  },
  hclog: ({ ms, level }) => {
    const t = parts(ms);
    const l = `[${String(level).toUpperCase()}]`;
    return `${t.y}-${t.mo}-${t.d}T${t.h}:${t.mi}:${t.s}.${t.ms}Z ${l.padEnd(7)} `;
  },
  kafka: ({ ms, level }) => {
    const t = parts(ms);
    return `[${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s},${t.ms}] ${UPPER[levelClass(level)]} `;
  },
  cassandra: ({ ms, level, event, thread }) => {
    const t = parts(ms);
    return `${UPPER[levelClass(level)].padEnd(5)} [${thread}] ${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s},${t.ms} ${event.file.split('/').at(-1)}:${event.line} - `;
  },
  activemq: ({ ms, level }) => {
    const t = parts(ms);
    return `${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s},${t.ms} | ${UPPER[levelClass(level)].padEnd(5)} | `;
  },
  jetty: ({ ms, level, event, thread }) => {
    const t = parts(ms);
    const abbrev = javaClass(event.file)
      .split('.')
      .map((s, i, a) => (i < a.length - 1 ? s[0] : s))
      .join('.');
    return `${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s}.${t.ms}:${UPPER[levelClass(level)]}:${abbrev}:${thread}: `;
  },
  tomcat: ({ ms, event, thread }) => {
    const t = parts(ms);
    const cls = javaClass(event.file.replace(/LocalStrings\.properties$/, '')) + event.key.split('.')[0].replace(/^./, (c) => c.toUpperCase());
    const method = event.key.split('.')[1] ?? 'log';
    return `${t.d}-${t.mon}-${t.y} ${t.h}:${t.mi}:${t.s}.${t.ms} INFO [${thread}] ${cls}.${method} `;
  },
  celery: ({ ms, level, thread }) => {
    const t = parts(ms);
    return `[${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s},${t.ms}: ${String(level).toUpperCase()}/${thread}] `;
  },
  gunicorn: ({ ms, level, pid }) => {
    const t = parts(ms);
    return `[${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s} +0000] [${pid}] [${String(level).toUpperCase().replace('EXCEPTION', 'ERROR')}] `;
  },
  scrapy: ({ ms, level, event }) => {
    const t = parts(ms);
    return `${t.y}-${t.mo}-${t.d} ${t.h}:${t.mi}:${t.s} [${event.file
      .replace(/\.py$/, '')
      .replace(/\/__init__$/, '')
      .replace(/\//g, '.')}] ${String(level).toUpperCase()}: `;
  },
  tornado: ({ ms, level, event }) => {
    const t = parts(ms);
    return `[${String(level)[0].toUpperCase()} ${String(t.y).slice(2)}${t.mo}${t.d} ${t.h}:${t.mi}:${t.s} ${simpleClass(event.file)}:${event.line}] `;
  },
  'debug-js': ({ ms, event, system }) => {
    const t = parts(ms);
    return `${t.y}-${t.mo}-${t.d}T${t.h}:${t.mi}:${t.s}.${t.ms}Z ${system.replace(/-io$/, '.io').split(/[.-]/)[0]}:${simpleClass(event.file)} `;
  },
  'env-logger': ({ ms, level, event, system }) => {
    const t = parts(ms);
    const mod = [
      system.replace(/-/g, '_'),
      ...event.file
        .replace(/^src\//, '')
        .replace(/(\/mod)?\.rs$/, '')
        .replace(/^lib$/, '')
        .split('/')
        .filter(Boolean),
    ].join('::');
    return `[${t.y}-${t.mo}-${t.d}T${t.h}:${t.mi}:${t.s}Z ${UPPER[levelClass(level)].padEnd(5)} ${mod}] `;
  },
};

/** Quotes a logfmt value when it holds a space, a quote or `=`. */
const logfmt = (v) => (/[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v);

/**
 * The message with its structured fields, as the system writes them: zap's console encoder
 * (`msg\t{"k": "v"}`), hclog (`msg: k=v`), go-kit logfmt (`msg="..." k=v`). `fields` are
 * `[key, type, value]`; a value `<*>` renders the template.
 */
export function renderFields(prefixStyle, message, fields, quoteWildcard = (type, key) => /error|err/i.test(key) || /Error/.test(type)) {
  if (prefixStyle === 'go-kit') {
    const msg = `msg=${message === '<*>' ? message : /[\s"=]/.test(message) ? JSON.stringify(message).replace(/\\u003c\\\*\\u003e/g, '<*>') : message}`;
    return [
      msg,
      ...fields.map(
        ([k, type, v]) => `${k}=${v === '<*>' ? (quoteWildcard(type, k) ? '"<*>"' : '<*>') : quoteWildcard(type, k) ? JSON.stringify(v) : logfmt(v)}`,
      ),
    ].join(' ');
  }
  if (fields.length === 0) return message;
  if (prefixStyle === 'hclog') {
    return `${message}: ${fields.map(([k, type, v]) => `${k}=${v === '<*>' ? (quoteWildcard(type, k) ? '"<*>"' : '<*>') : quoteWildcard(type, k) ? JSON.stringify(v) : logfmt(v)}`).join(' ')}`;
  }
  // zap console: a JSON object of the fields after a tab.
  const json = fields.map(([k, type, v]) => {
    const numeric = /^(Int|Uint|Int64|Uint64|Int32|Uint32|Float64|Bool)$/.test(type);
    return `"${k}": ${numeric ? v : `"${v}"`}`;
  });
  return `${message}\t{${json.join(', ')}}`;
}
