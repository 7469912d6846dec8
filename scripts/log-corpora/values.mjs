// Realistic values for a placeholder, chosen from its conversion and the expression the code
// passes (`port`, `c->addr_text`, `err`, `topic`): what a reader of that system's log would see.
// Each placeholder of an event draws from its own small set of values, as real logs repeat a
// handful of hosts, users and paths with fresh numbers.

const HOSTS = [
  'db-1.prod.internal',
  'db-2.prod.internal',
  'cache-a.eu-west-1.example.com',
  'node-7.cluster.local',
  'api.example.org',
  'mail.example.net',
  'edge03',
  'web-frontend-2',
  'backend',
  'localhost',
  'kafka-2.kafka-headless.default.svc.cluster.local',
  'ns1.example.com',
];
const USERS = ['alice', 'bob', 'postgres', 'www-data', 'deploy', 'admin', 'root', 'nobody', 'carol', 'svc_backup', 'jenkins', 'mallory'];
const NAMES = [
  'orders',
  'payments',
  'default',
  'main',
  'events',
  'users',
  'inventory',
  'billing-v2',
  'session_store',
  'metrics',
  'audit.log',
  'checkout',
  'primary',
  'replica',
  'worker',
  'upstream_api',
  'static',
  'search-index',
];
const TOPICS = ['orders', 'payments.v2', 'clickstream', '__consumer_offsets', 'audit-events', 'user_signups', 'logs.app'];
const ERRORS = [
  'connection refused',
  'Connection reset by peer',
  'No such file or directory',
  'context deadline exceeded',
  'EOF',
  'i/o timeout',
  'Permission denied',
  'broken pipe',
  'certificate has expired',
  'Resource temporarily unavailable',
  'too many open files',
  'unexpected end of JSON input',
  'Address already in use',
  'Name or service not known',
  'timed out',
];
const JAVA_EXCEPTIONS = [
  'java.net.ConnectException: Connection refused',
  'java.io.IOException: Broken pipe',
  'org.apache.kafka.common.errors.TimeoutException: Timeout expired',
  'java.util.concurrent.TimeoutException',
  'java.lang.IllegalStateException: closed',
  'java.net.SocketTimeoutException: Read timed out',
];
const STATES = [
  'running',
  'stopped',
  'STARTING',
  'ACTIVE',
  'leader',
  'follower',
  'candidate',
  'CLOSED',
  'ESTABLISHED',
  'idle',
  'pending',
  'READY',
  'degraded',
  'healthy',
];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'HEAD'];
const PROTOCOLS = ['tcp', 'udp', 'http', 'https', 'h2', 'TLSv1.3', 'TLSv1.2', 'http/1.1'];
const PATHS = [
  '/var/lib/data/base/16384',
  '/etc/app/conf.d/site.conf',
  '/var/log/app/current',
  '/tmp/upload_8f2a',
  '/srv/www/index.html',
  '/usr/share/zoneinfo/UTC',
  '/run/app.sock',
  '/data/wal/000000010000000000000042',
  '/opt/app/plugins/auth.so',
];
const URLS = [
  'http://10.0.3.7:8080/api/v1/items',
  'https://auth.example.com/oauth/token',
  'http://backend:9000/healthz',
  'https://api.example.org/v2/orders?limit=50',
  'http://127.0.0.1:9090/metrics',
];
const CLASSES = ['org.example.shop.OrderService', 'com.acme.billing.InvoiceJob', 'org.apache.kafka.clients.consumer.KafkaConsumer', 'io.app.web.Handler'];
const DOMAINS = [
  'example.com',
  'api.example.org',
  'mail.example.net',
  'www.example.com',
  '_sip._tcp.example.com',
  'ns1.example.com',
  'printer.lan',
  'db.internal',
];
const IDENTIFIERS = ['worker-3', 'app.tasks.send_email', 'node-2', 'shard_7', 'celery@web-1', 'v1.orders', 'tenant-42', 'job_cleanup', 'cfg.main', 'pool-1'];
const MODES = ['fsync', 'everysec', 'always', 'async', 'strict', 'lenient', 'on', 'off', 'yes', 'no', 'true', 'false'];
const TYPES = ['A', 'AAAA', 'MX', 'CNAME', 'TXT', 'SRV', 'PTR', 'json', 'text', 'binary', 'string', 'int64'];

const int = (r, max) => Math.floor(r() * max);
const pick = (r, xs) => xs[int(r, xs.length)];
const hex = (r, n) => Array.from({ length: n }, () => int(r, 16).toString(16)).join('');
const ip = (r) => pick(r, ['10.0', '10.12', '192.168', '172.16']) + `.${int(r, 255)}.${1 + int(r, 253)}`;
/** Numbers with a skew to small ones, as counts and sizes are. */
const count = (r) => (r() < 0.6 ? int(r, 10) : r() < 0.7 ? int(r, 1000) : int(r, 1e6));
const duration = (r) => pick(r, [`${int(r, 999)}ms`, `${(r() * 10).toFixed(3)}s`, `${int(r, 900)}.${int(r, 999)}µs`, `${int(r, 60)}m${int(r, 60)}s`]);

/** Words of an expression that say what it holds (`c->addr_text` → addr text). */
function hintOf(expr) {
  return String(expr)
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_');
}

/**
 * The kind of value a placeholder holds: from the conversion when it says (`%d`, `%x`, `%f`,
 * `%p`), else from the words of the expression the code passes (`c->addr_text` → `addr`). Only
 * the kind is kept in the repository, not the expression.
 */
export function kindOf(conv, expr, language) {
  const h = hintOf(expr);
  const has = (re) => re.test(h);
  if ('diouDzOiN'.includes(conv) || /^(ui|uD|uz|ul|xd|uA|A|llu|T|M)$/.test(conv)) {
    if (has(/port/)) return 'port';
    if (has(/pid/)) return 'pid';
    if (has(/errno|err$|code/)) return 'errno';
    if (has(/(^|_)(ms|msec|time|timeout|delay|elapsed)/)) return 'millis';
    return 'count';
  }
  if ('xX'.includes(conv) || /^(xi|Xi|xD|XD|uxi|uxD)$/.test(conv)) return 'hex';
  if ('eEfFgG'.includes(conv)) return 'float';
  if (conv === 'p') return 'pointer';
  if (conv === 'c') return 'char';
  if (conv === 'm') return 'strerror';
  if (conv === 'V' && has(/name|host|server/)) return 'server-name';
  if (has(/exception|throwable|(^|_)(t|e|ex|exc|cause)$|err|error|reason|strerror|failure|msg$|message/)) return 'error';
  if (has(/(^|_)(ip|addr|address|peer|remote|client|sockaddr|src|dst|from|source)(_|$)|addr_text|remote_addr|inet|socket_actual|link_socket/)) return 'addr';
  if (has(/port/)) return 'port';
  if (has(/url|uri|endpoint|href|location/)) return 'url';
  if (has(/path|file|dir|filename|fname|conf|socket|sock|fd_name|directory|volume|mount/)) return 'path';
  if (has(/domain|zone|qname|query|fqdn|dns|name_server|record/)) return 'domain';
  if (has(/host|server|node|broker|leader|member|instance|target|backend|upstream|endpoint|hostname|peer/)) return has(/id/) ? 'node-id' : 'host';
  if (has(/user|owner|login|account|role|principal|username|uid/)) return 'user';
  if (has(/topic|partition/)) return 'topic-partition';
  if (has(/uuid|token|hash|digest|checksum|sha|fingerprint|session|sid|txn|xid|trace/)) return 'uuid';
  if (has(/(^|_)id(_|$)|_id$|^id|index|idx|offset|seq|term|epoch|generation|revision|rev$|lsn|version/)) return has(/version/) ? 'version' : 'id';
  if (has(/size|len|count|num|bytes|total|max|min|limit|capacity|n$|^n_|amount|remaining|entries|keys|lines|rows|retries|attempt|workers|threads|slots/))
    return 'count';
  if (has(/time|duration|elapsed|took|latency|interval|delay|timeout|(^|_)age(_|$)|ttl|ms$|sec|seconds|millis|backoff/)) return 'duration';
  if (has(/state|status|mode|phase|stage|health|policy|level|action|kind|strategy|role/)) return 'state';
  if (has(/method|verb/)) return 'method';
  if (has(/proto|scheme|transport|network|cipher|tls/)) return 'protocol';
  if (has(/type|format|codec|class|encoding|family/)) return language === 'Java' && has(/class/) ? 'class' : 'type';
  if (has(/bool|enabled|flag|is_|has_/)) return 'bool';
  if (
    has(
      /topic|queue|group|table|database|db|schema|index|bucket|channel|key|service|module|plugin|task|job|worker|cluster|name|label|tag|app|stream|consumer|producer|relation|column|sub|subject/,
    )
  )
    return 'name';
  if (conv === 'debug' || conv === 'r') return 'repr';
  return 'identifier';
}

/**
 * A generator of values of one kind for one placeholder; each placeholder repeats a few values of
 * its kind, as real logs do. `portFollows`: the format prints a port right after it, so an
 * address comes without one.
 */
export function valueSource(kind, language, r, portFollows = false) {
  const fixed = (xs, n) => {
    const k = 1 + int(r, n);
    const chosen = Array.from({ length: k }, () => pick(r, xs));
    return (rr) => pick(rr, chosen);
  };
  switch (kind) {
    case 'port':
      return (rr) => String(1024 + int(rr, 64000));
    case 'pid':
      return (rr) => String(100 + int(rr, 60000));
    case 'errno':
      return (rr) => String(pick(rr, [2, 11, 13, 32, 104, 110, 111, 113]));
    case 'millis':
      return (rr) => String(int(rr, 5000));
    case 'count':
      return (rr) => String(count(rr));
    case 'hex':
      return (rr) => hex(rr, 1 + int(rr, 8));
    case 'float':
      return (rr) => (rr() * 100).toFixed(int(rr, 3) + 1);
    case 'pointer':
      return (rr) => `0x${'55d4' + hex(rr, 8)}`;
    case 'char':
      return (rr) => pick(rr, ['a', 'b', 'x', 'r', 'w']);
    case 'strerror':
      return (rr) => pick(rr, ERRORS.slice(0, 10));
    case 'server-name':
      return fixed(HOSTS, 4);
    case 'error':
      return language === 'Java' ? fixed(JAVA_EXCEPTIONS, 3) : fixed(ERRORS, 5);
    case 'addr':
      return (rr) => (rr() < 0.4 && !portFollows ? `${ip(rr)}:${1024 + int(rr, 64000)}` : ip(rr));
    case 'url':
      return fixed(URLS, 3);
    case 'path':
      return (rr) => pick(rr, PATHS).replace(/\d+/g, (d) => String(Number(d) + int(rr, 9)));
    case 'domain':
      return fixed(DOMAINS, 5);
    case 'node-id':
      return (rr) => (rr() < 0.5 ? String(int(rr, 12)) : hex(rr, 16));
    case 'host':
      return fixed(HOSTS, 5);
    case 'user':
      return fixed(USERS, 5);
    case 'topic-partition':
      return (rr) => `${pick(rr, TOPICS)}-${int(rr, 12)}`;
    case 'uuid':
      return (rr) => (rr() < 0.5 ? `${hex(rr, 8)}-${hex(rr, 4)}-4${hex(rr, 3)}-a${hex(rr, 3)}-${hex(rr, 12)}` : hex(rr, 16));
    case 'version':
      return (rr) => `${int(rr, 4)}.${int(rr, 20)}.${int(rr, 10)}`;
    case 'id':
      return (rr) => String(count(rr) + int(rr, 100000));
    case 'duration':
      return duration;
    case 'state':
      return fixed(STATES.concat(MODES), 4);
    case 'method':
      return fixed(METHODS, 3);
    case 'protocol':
      return fixed(PROTOCOLS, 3);
    case 'class':
      return fixed(CLASSES, 2);
    case 'type':
      return fixed(TYPES, 4);
    case 'bool':
      return (rr) => pick(rr, ['true', 'false']);
    case 'name':
      return fixed(NAMES, 6);
    case 'repr':
      return fixed(
        NAMES.map((n) => `'${n}'`),
        4,
      );
    // An identifier of the program's own (a plain word or a compound name).
    case 'identifier':
      return fixed(NAMES.concat(IDENTIFIERS), 5);
    default:
      throw new Error(`unknown value kind ${kind}`);
  }
}
