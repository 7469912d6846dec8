// The systems whose log statements become labelled corpora (docs/log-mining.md, "Corpora from real
// code"). Each entry names the registry package its source came from, the version, the licence,
// the files searched and how a logging call reads in that code base: the call's name (a regular
// expression ending at the call's open parenthesis, whose first group, when present, is the level),
// which argument holds the format, how its placeholders are written, and how a line starts.
//
// fetch: the ordinary registry client command that brings the source (run by `fetch.mjs`), and
// root: where the unpacked tree then is, below the sources folder.

/** @typedef {'printf' | 'slf4j' | 'rust' | 'python' | 'go-zap' | 'go-hclog' | 'go-kit' | 'properties'} Style */

/**
 * @typedef {object} System
 * @property {string} name
 * @property {string} language
 * @property {string} registry
 * @property {string} package
 * @property {string} version
 * @property {string} licence SPDX identifier of the source's licence
 * @property {string[]} fetch command line (argv) run in the sources folder
 * @property {string} root unpacked tree, relative to the sources folder
 * @property {string[]} dirs folders below root to search
 * @property {RegExp} files file names to search
 * @property {RegExp} [skipFiles] paths to leave out (tests, examples)
 * @property {RegExp} call a logging call up to its open parenthesis; group 1 is the level when present
 * @property {number | 'first-string'} formatArg which argument is the format
 * @property {Style} style
 * @property {string} prefix how a line starts (see prefixes.mjs)
 * @property {Record<string, string>} [levels] call level → level as printed
 * @property {string} [concat] operator joining literals and values in a format (`+`, `<<`)
 */

/** @type {System[]} */
export const SYSTEMS = [
  // C, from Debian source packages (bookworm).
  {
    name: 'nginx', language: 'C', registry: 'debian', package: 'nginx', version: '1.22.1', licence: 'BSD-2-Clause',
    fetch: ['apt-get', 'source', '--download-only', 'nginx'], root: 'nginx-1.22.1', dirs: ['src'], files: /\.c$/,
    call: /\bngx_log_error\(\s*NGX_LOG_([A-Z]+)\s*,/g, formatArg: 2, style: 'printf', prefix: 'nginx',
    levels: { EMERG: 'emerg', ALERT: 'alert', CRIT: 'crit', ERR: 'error', WARN: 'warn', NOTICE: 'notice', INFO: 'info' },
  },
  {
    name: 'redis', language: 'C', registry: 'debian', package: 'redis', version: '7.0.15', licence: 'BSD-3-Clause',
    fetch: ['apt-get', 'source', '--download-only', 'redis'], root: 'redis-7.0.15', dirs: ['src'], files: /\.c$/,
    call: /\bserverLog\(\s*LL_([A-Z]+)\s*,/g, formatArg: 0, style: 'printf', prefix: 'redis',
    levels: { WARNING: '#', NOTICE: '*', VERBOSE: '-', DEBUG: '.' },
  },
  {
    name: 'haproxy', language: 'C', registry: 'debian', package: 'haproxy', version: '2.6.12', licence: 'GPL-2.0-or-later',
    fetch: ['apt-get', 'source', '--download-only', 'haproxy=2.6.12-1+deb12u3'], root: 'haproxy-2.6.12', dirs: ['src'], files: /\.c$/,
    call: /\bha_(alert|warning|notice)\(/g, formatArg: 0, style: 'printf', prefix: 'haproxy',
    levels: { alert: 'ALERT', warning: 'WARNING', notice: 'NOTICE' },
  },
  {
    name: 'dnsmasq', language: 'C', registry: 'debian', package: 'dnsmasq', version: '2.90', licence: 'GPL-2.0-only OR GPL-3.0-only',
    fetch: ['apt-get', 'source', '--download-only', 'dnsmasq'], root: 'dnsmasq-2.90', dirs: ['src'], files: /\.c$/,
    call: /\bmy_syslog\(\s*([A-Z_|]+)\s*,/g, formatArg: 0, style: 'printf', prefix: 'dnsmasq',
  },
  {
    name: 'postgresql', language: 'C', registry: 'debian', package: 'postgresql-15', version: '15.18', licence: 'PostgreSQL',
    fetch: ['apt-get', 'source', '--download-only', 'postgresql-15=15.18-0+deb12u1'], root: 'postgresql-15.18', dirs: ['src/backend'], files: /\.c$/,
    call: /\b(?:errmsg|errmsg_internal)\(/g, formatArg: 0, style: 'printf', prefix: 'postgresql',
  },
  {
    name: 'chrony', language: 'C', registry: 'debian', package: 'chrony', version: '4.3', licence: 'GPL-2.0-only',
    fetch: ['apt-get', 'source', '--download-only', 'chrony'], root: 'chrony-4.3', dirs: ['.'], files: /\.c$/, skipFiles: /\/test\//,
    call: /\bLOG\(\s*LOGS_([A-Z]+)\s*,/g, formatArg: 0, style: 'printf', prefix: 'chrony',
  },
  {
    name: 'openvpn', language: 'C', registry: 'debian', package: 'openvpn', version: '2.6.14', licence: 'GPL-2.0-only',
    fetch: ['apt-get', 'source', '--download-only', 'openvpn'], root: 'openvpn-2.6.14', dirs: ['src/openvpn'], files: /\.c$/,
    call: /\bmsg\(\s*(M_INFO|M_WARN|M_NONFATAL|D_[A-Z_]+)\s*(?:\|\s*M_ERRNO\s*)?,/g, formatArg: 0, style: 'printf', prefix: 'openvpn',
  },
  {
    name: 'squid', language: 'C++', registry: 'debian', package: 'squid', version: '5.7', licence: 'GPL-2.0-or-later',
    fetch: ['apt-get', 'source', '--download-only', 'squid'], root: 'squid-5.7', dirs: ['src'], files: /\.cc$/, skipFiles: /\/tests?\//,
    call: /\bdebugs\(\s*\d+\s*,\s*(DBG_CRITICAL|DBG_IMPORTANT|1|2)\s*,/g, formatArg: 0, style: 'printf', concat: '<<', prefix: 'squid',
  },
  // Go, from the Go module proxy.
  {
    name: 'etcd', language: 'Go', registry: 'go', package: 'go.etcd.io/etcd/server/v3', version: 'v3.5.16', licence: 'Apache-2.0',
    fetch: ['go', 'mod', 'download', 'go.etcd.io/etcd/server/v3@v3.5.16'], root: 'gopath/pkg/mod/go.etcd.io/etcd/server/v3@v3.5.16', dirs: ['.'], files: /\.go$/, skipFiles: /_test\.go$/,
    call: /\b(?:lg|plog|s\.lg|s\.Logger\(\)|r\.lg|logger|cfg\.Logger|ms\.lg)\.(Info|Warn|Error|Debug)\(/g, formatArg: 0, style: 'go-zap', prefix: 'zap-console',
  },
  {
    name: 'caddy', language: 'Go', registry: 'go', package: 'github.com/caddyserver/caddy/v2', version: 'v2.8.4', licence: 'Apache-2.0',
    fetch: ['go', 'mod', 'download', 'github.com/caddyserver/caddy/v2@v2.8.4'], root: 'gopath/pkg/mod/github.com/caddyserver/caddy/v2@v2.8.4', dirs: ['.'], files: /\.go$/, skipFiles: /_test\.go$/,
    call: /\b(?:[a-zA-Z.]*[lL]ogger(?:\(\))?|log|c\.Logger\(\))\.(Info|Warn|Error|Debug)\(/g, formatArg: 0, style: 'go-zap', prefix: 'caddy',
  },
  {
    name: 'coredns', language: 'Go', registry: 'go', package: 'github.com/coredns/coredns', version: 'v1.11.3', licence: 'Apache-2.0',
    fetch: ['go', 'mod', 'download', 'github.com/coredns/coredns@v1.11.3'], root: 'gopath/pkg/mod/github.com/coredns/coredns@v1.11.3', dirs: ['plugin', 'core'], files: /\.go$/, skipFiles: /_test\.go$/,
    call: /\b(?:log|clog)\.(Info|Warning|Error|Debug)f\(/g, formatArg: 0, style: 'printf', prefix: 'coredns',
  },
  {
    name: 'nats', language: 'Go', registry: 'go', package: 'github.com/nats-io/nats-server/v2', version: 'v2.10.22', licence: 'Apache-2.0',
    fetch: ['go', 'mod', 'download', 'github.com/nats-io/nats-server/v2@v2.10.22'], root: 'gopath/pkg/mod/github.com/nats-io/nats-server/v2@v2.10.22', dirs: ['server'], files: /\.go$/, skipFiles: /_test\.go$/,
    call: /\b(?:s|c|srv|mset|o|js|n|a)\.(Notice|Warn|Error|Debug)f\(/g, formatArg: 0, style: 'printf', prefix: 'nats',
  },
  {
    name: 'prometheus', language: 'Go', registry: 'go', package: 'github.com/prometheus/prometheus', version: 'v0.54.1', licence: 'Apache-2.0',
    fetch: ['go', 'mod', 'download', 'github.com/prometheus/prometheus@v0.54.1'], root: 'gopath/pkg/mod/github.com/prometheus/prometheus@v0.54.1', dirs: ['cmd', 'tsdb', 'scrape', 'storage', 'rules', 'notifier', 'discovery', 'web'], files: /\.go$/, skipFiles: /_test\.go$/,
    call: /\blevel\.(Info|Warn|Error|Debug)\([^()]*(?:\([^()]*\))?[^()]*\)\.Log\(/g, formatArg: 'first-string', style: 'go-kit', prefix: 'go-kit',
  },
  {
    name: 'raft', language: 'Go', registry: 'go', package: 'github.com/hashicorp/raft', version: 'v1.7.1', licence: 'MPL-2.0',
    fetch: ['go', 'mod', 'download', 'github.com/hashicorp/raft@v1.7.1'], root: 'gopath/pkg/mod/github.com/hashicorp/raft@v1.7.1', dirs: ['.'], files: /\.go$/, skipFiles: /_test\.go$|testing/,
    call: /\b(?:r\.logger|n\.logger|f\.logger|t\.logger|s\.logger|logger|a\.logger|i\.logger)\.(Info|Warn|Error|Debug)\(/g, formatArg: 0, style: 'go-hclog', prefix: 'hclog',
  },
  // Java, sources jars from Maven Central.
  {
    name: 'kafka-clients', language: 'Java', registry: 'maven', package: 'org.apache.kafka:kafka-clients', version: '3.8.0', licence: 'Apache-2.0',
    fetch: ['mvn', '-q', 'dependency:get', '-Dtransitive=false', '-Dartifact=org.apache.kafka:kafka-clients:3.8.0:jar:sources'], root: 'java-kafka-clients-3.8.0', dirs: ['.'], files: /\.java$/,
    call: /\b(?:log|LOG|logger|this\.log)\.(info|warn|error|debug)\(/g, formatArg: 0, style: 'slf4j', concat: '+', prefix: 'kafka',
  },
  {
    name: 'cassandra', language: 'Java', registry: 'maven', package: 'org.apache.cassandra:cassandra-all', version: '4.1.6', licence: 'Apache-2.0',
    fetch: ['mvn', '-q', 'dependency:get', '-Dtransitive=false', '-Dartifact=org.apache.cassandra:cassandra-all:4.1.6:jar:sources'], root: 'java-cassandra-all-4.1.6', dirs: ['.'], files: /\.java$/,
    call: /\b(?:logger|LOGGER|log)\.(info|warn|error|debug)\(/g, formatArg: 0, style: 'slf4j', concat: '+', prefix: 'cassandra',
  },
  {
    name: 'activemq', language: 'Java', registry: 'maven', package: 'org.apache.activemq:activemq-broker', version: '5.18.5', licence: 'Apache-2.0',
    fetch: ['mvn', '-q', 'dependency:get', '-Dtransitive=false', '-Dartifact=org.apache.activemq:activemq-broker:5.18.5:jar:sources'], root: 'java-activemq-broker-5.18.5', dirs: ['.'], files: /\.java$/,
    call: /\b(?:LOG|log|logger|LOGGER)\.(info|warn|error|debug)\(/g, formatArg: 0, style: 'slf4j', concat: '+', prefix: 'activemq',
  },
  {
    name: 'jetty', language: 'Java', registry: 'maven', package: 'org.eclipse.jetty:jetty-server', version: '9.4.56.v20240826', licence: 'Apache-2.0 OR EPL-1.0',
    fetch: ['mvn', '-q', 'dependency:get', '-Dtransitive=false', '-Dartifact=org.eclipse.jetty:jetty-server:9.4.56.v20240826:jar:sources'], root: 'java-jetty-server-9.4.56.v20240826', dirs: ['.'], files: /\.java$/,
    call: /\bLOG\.(info|warn|debug)\(/g, formatArg: 0, style: 'slf4j', concat: '+', prefix: 'jetty',
  },
  {
    name: 'tomcat', language: 'Java', registry: 'maven', package: 'org.apache.tomcat:tomcat-catalina', version: '10.1.31', licence: 'Apache-2.0',
    fetch: ['mvn', '-q', 'dependency:get', '-Dtransitive=false', '-Dartifact=org.apache.tomcat:tomcat-catalina:10.1.31:jar:sources'], root: 'java-tomcat-catalina-10.1.31', dirs: ['.'], files: /^LocalStrings\.properties$/,
    call: /^/g, formatArg: 0, style: 'properties', prefix: 'tomcat',
  },
  // Python, wheels from PyPI.
  {
    name: 'celery', language: 'Python', registry: 'pypi', package: 'celery', version: '5.4.0', licence: 'BSD-3-Clause',
    fetch: ['pip', 'download', '--no-deps', 'celery==5.4.0'], root: 'py-celery-5.4.0', dirs: ['celery'], files: /\.py$/,
    call: /\b(?:logger|self\.logger|log)\.(info|warning|error|debug|critical)\(/g, formatArg: 0, style: 'python', prefix: 'celery',
  },
  {
    name: 'gunicorn', language: 'Python', registry: 'pypi', package: 'gunicorn', version: '23.0.0', licence: 'MIT',
    fetch: ['pip', 'download', '--no-deps', 'gunicorn==23.0.0'], root: 'py-gunicorn-23.0.0', dirs: ['gunicorn'], files: /\.py$/,
    call: /\b(?:self\.log|log|self\.cfg\.logger|self\.logger|logger|self\.alive_log)\.(info|warning|error|debug|critical|exception)\(/g, formatArg: 0, style: 'python', prefix: 'gunicorn',
  },
  {
    name: 'kombu', language: 'Python', registry: 'pypi', package: 'kombu', version: '5.4.2', licence: 'BSD-3-Clause',
    fetch: ['pip', 'download', '--no-deps', 'kombu==5.4.2'], root: 'py-kombu-5.4.2', dirs: ['kombu'], files: /\.py$/,
    call: /\b(?:logger|self\.logger|log)\.(info|warning|error|debug|critical)\(/g, formatArg: 0, style: 'python', prefix: 'celery',
  },
  {
    name: 'scrapy', language: 'Python', registry: 'pypi', package: 'Scrapy', version: '2.11.2', licence: 'BSD-3-Clause',
    fetch: ['pip', 'download', '--no-deps', 'Scrapy==2.11.2'], root: 'py-Scrapy-2.11.2', dirs: ['scrapy'], files: /\.py$/,
    call: /\b(?:logger|self\.logger|spider\.logger)\.(info|warning|error|debug|critical)\(/g, formatArg: 0, style: 'python', prefix: 'scrapy',
  },
  {
    name: 'tornado', language: 'Python', registry: 'pypi', package: 'tornado', version: '6.4.1', licence: 'Apache-2.0',
    fetch: ['pip', 'download', '--no-deps', 'tornado==6.4.1'], root: 'py-tornado-6.4.1', dirs: ['tornado'], files: /\.py$/, skipFiles: /\/test\//,
    call: /\b(?:app_log|gen_log|access_log)\.(info|warning|error|debug)\(/g, formatArg: 0, style: 'python', prefix: 'tornado',
  },
  // JavaScript, tarballs from the npm registry (the `debug` package's calls).
  ...['engine.io@6.6.2', 'ioredis@5.4.1', 'mqtt@5.10.1', 'express@4.21.1'].map((spec) => {
    const [pkg, version] = spec.split('@');
    return {
      name: pkg === 'engine.io' ? 'engine-io' : pkg === 'socket.io' ? 'socket-io' : pkg,
      language: 'JavaScript', registry: 'npm', package: pkg, version, licence: 'MIT',
      fetch: ['npm', 'pack', '-q', spec], root: `js-${pkg}-${version}/package`, dirs: ['.'], files: /\.js$/, skipFiles: /\.min\.js$|\/dist\/|\.d\.ts$/,
      call: /\bdebug\(/g, formatArg: 0, style: 'printf', concat: '+', prefix: 'debug-js',
    };
  }),
  // Rust, crates from crates.io (`cargo fetch` of a manifest naming them).
  ...[
    ['hickory-server', '0.24.1', 'MIT OR Apache-2.0'],
    ['pingora-core', '0.3.0', 'Apache-2.0'],
    ['actix-server', '2.5.0', 'MIT OR Apache-2.0'],
  ].map(([pkg, version, licence]) => ({
    name: pkg, language: 'Rust', registry: 'crates', package: pkg, version, licence,
    fetch: ['cargo', 'fetch'], root: `cargo/${pkg}-${version}`, dirs: ['src'], files: /\.rs$/, skipFiles: /\/tests?\//,
    call: /\b(?:log::|tracing::)?(info|warn|error|debug)!\(/g, formatArg: 'first-string', style: 'rust', prefix: 'env-logger',
  })),
];
