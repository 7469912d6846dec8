import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { verify } from '@node-rs/argon2';
import { startAllInOne, tempDataDir } from '../testing/all-in-one.js';
import { runSvcToExit, takenPort } from '../testing/run-svc.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** Runs the real `svc` binary; resolves with its exit code and output. */
function svc(args: string[], env: Record<string, string> = {}, stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.env.SVC_TEST_NODE ?? process.execPath, [join(ROOT, 'bin/svc.js'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end(stdin ?? '');
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('a bad setting stops all-in-one with the contract message naming it, and a non-zero status', async () => {
  const data = tempDataDir();
  try {
    const cases: [Record<string, string>, string][] = [
      [{ SVC__NOTIFIER__TIMEOUT_SECS: '20' }, 'notifier.timeout_secs must be within 1..=15'],
      [{ SVC__KAFKA__RETENTION_MS: '0' }, 'kafka.retention_ms must be -1 (unlimited) or positive'],
      [{ SVC__AUTH__ENABLED: 'true', SVC__AUTH__USERNAME: 'a:b', SVC__AUTH__PASSWORD_HASH: 'x' }, "auth.username must not contain '|' or ':'"],
      [{ SVC__MAP__INFRA_SERVICES: 'a,b' }, 'invalid type: string'],
    ];
    for (const [env, message] of cases) {
      const result = await svc(['all-in-one'], {
        SVC__EMBEDDED__DATA_DIR: data.dir,
        SVC__HTTP_ADDR: '127.0.0.1:0',
        SVC__GRPC_ADDR: '127.0.0.1:0',
        SVC__OTLP_HTTP_ADDR: '127.0.0.1:0',
        ...env,
      });
      assert.notEqual(result.code, 0, message);
      assert.ok(result.stderr.includes(message), `${message} in ${result.stderr}`);
    }
  } finally {
    data.cleanup();
  }
});

test('split components stop at start-up naming the missing kafka.brokers, and clickhouse.url for all but ingest', async () => {
  for (const command of ['ingest', 'writer', 'assembler', 'logminer', 'notifier', 'api']) {
    const result = await svc([command]);
    assert.equal(result.code, 1, command);
    assert.equal(result.stderr.trim(), 'svc: kafka.brokers is required', command);
  }
  for (const command of ['writer', 'assembler', 'logminer', 'notifier', 'api']) {
    const result = await svc([command], { SVC__KAFKA__BROKERS: '127.0.0.1:9' });
    assert.equal(result.code, 1, command);
    assert.equal(result.stderr.trim(), 'svc: clickhouse.url is required', command);
  }
});

test('a taken metrics port stops writer, assembler, logminer and notifier with a message naming the setting', async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as AddressInfo).port;
  try {
    for (const component of ['writer', 'assembler', 'logminer', 'notifier']) {
      const setting = `${component}.metrics_addr`;
      // Nothing listens on port 9: the metrics port is checked before the broker or the database is contacted.
      const result = await svc([component], {
        SVC__KAFKA__BROKERS: '127.0.0.1:9',
        SVC__CLICKHOUSE__URL: 'http://127.0.0.1:9',
        [`SVC__${component.toUpperCase()}__METRICS_ADDR`]: `127.0.0.1:${port}`,
      });
      assert.equal(result.code, 1, component);
      assert.match(
        result.stderr,
        new RegExp(`^svc: ${setting.replace('.', '\\.')} 127\\.0\\.0\\.1:${port} is in use; set ${setting.replace('.', '\\.')} to a free address$`, 'm'),
        result.stderr,
      );
    }
  } finally {
    taken.close();
  }
});

test('writer migrate creates the schema in the embedded data dir, says so naming the directory, and is idempotent', async () => {
  const data = tempDataDir();
  const logged = (stderr: string) =>
    stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
  try {
    const first = await svc(['writer', 'migrate'], { SVC__EMBEDDED__DATA_DIR: data.dir });
    assert.equal(first.code, 0, first.stderr);
    assert.ok(
      logged(first.stderr).includes(`schema migrated in the embedded database at ${data.dir} (embedded.data_dir; clickhouse.url is not set)`),
      first.stderr,
    );
    const second = await svc(['writer', 'migrate'], { SVC__EMBEDDED__DATA_DIR: data.dir });
    assert.equal(second.code, 0, second.stderr);
    assert.ok(
      logged(second.stderr).includes(`schema already current in the embedded database at ${data.dir} (embedded.data_dir; clickhouse.url is not set)`),
      second.stderr,
    );
  } finally {
    data.cleanup();
  }
});

test('templates FILE prints one JSON line per input line and nothing else on stdout', async () => {
  const data = tempDataDir();
  try {
    const file = join(data.dir, 'app.log');
    writeFileSync(file, ['user 17 logged in from 10.0.0.1', 'user 42 logged in from 10.0.0.9', 'disk /dev/sda1 is 91% full'].join('\n') + '\n');
    const result = await svc(['templates', file]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { template_id: string; template: string });
    assert.equal(lines.length, 3);
    assert.equal(lines[0].template_id, lines[1].template_id);
    assert.equal(lines[0].template, lines[1].template);
    assert.notEqual(lines[0].template_id, lines[2].template_id);
    assert.match(lines[0].template_id, /^\d+$/);
    assert.ok(lines[0].template.includes('<*>'));
  } finally {
    data.cleanup();
  }
});

test('templates - reads standard input and streams the same lines as for a file', async () => {
  const input = ['job 1 done in 5 ms', 'job 2 done in 7 ms', 'cache cleared'].join('\n') + '\n';
  const result = await svc(['templates', '-'], {}, input);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { template_id: string; template: string });
  assert.deepEqual(
    lines.map((l) => l.template),
    ['job <*> done in <*> ms', 'job <*> done in <*> ms', 'cache cleared'],
  );
  assert.equal(lines[0].template_id, lines[1].template_id);
  assert.match(result.stderr, /3 lines, 2 templates/);
  const missing = await svc(['templates', '/nonexistent/file.log']);
  assert.equal(missing.code, 1);
  assert.equal(missing.stdout, '');
  assert.match(missing.stderr, /cannot read \/nonexistent\/file\.log/);
  const help = await svc(['templates', '--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^usage: svc templates FILE/);
  assert.doesNotMatch(help.stderr, /cannot read/);
});

test('hash-password reads the first piped line and prints an Argon2id PHC string that verifies', async () => {
  const result = await svc(['hash-password'], {}, 'correct horse\nignored\n');
  assert.equal(result.code, 0, result.stderr);
  const phc = result.stdout.trim();
  assert.match(phc, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  assert.equal(await verify(phc, 'correct horse'), true);
});

const LOOPBACK_PORT_0 = { SVC__HTTP_ADDR: '127.0.0.1:0', SVC__GRPC_ADDR: '127.0.0.1:0', SVC__OTLP_HTTP_ADDR: '127.0.0.1:0' };

test('a taken listener stops all-in-one (embedded) with one line naming the setting and address, and status 1', async () => {
  const taken = await takenPort();
  const data = tempDataDir();
  try {
    for (const [setting, variable] of [
      ['http_addr', 'SVC__HTTP_ADDR'],
      ['grpc_addr', 'SVC__GRPC_ADDR'],
      ['otlp_http_addr', 'SVC__OTLP_HTTP_ADDR'],
    ]) {
      const result = await runSvcToExit(['all-in-one'], { ...LOOPBACK_PORT_0, SVC__EMBEDDED__DATA_DIR: data.dir, [variable]: `127.0.0.1:${taken.port}` });
      assert.equal(result.code, 1, result.stderr);
      assert.deepEqual(result.messages, [`svc: ${setting} 127.0.0.1:${taken.port} is in use; set ${setting} to a free address`]);
    }
  } finally {
    taken.server.close();
    data.cleanup();
  }
});

test('a taken listener stops svc ingest and svc api with one line, before the broker or database is contacted', async () => {
  const taken = await takenPort();
  // Nothing listens on port 9: the listeners are checked first.
  const unreachable = { SVC__KAFKA__BROKERS: '127.0.0.1:9', SVC__CLICKHOUSE__URL: 'http://127.0.0.1:9' };
  try {
    const cases: [string, string, string][] = [
      ['ingest', 'http_addr', 'SVC__HTTP_ADDR'],
      ['ingest', 'grpc_addr', 'SVC__GRPC_ADDR'],
      ['api', 'http_addr', 'SVC__HTTP_ADDR'],
    ];
    for (const [component, setting, variable] of cases) {
      const result = await runSvcToExit([component], { ...unreachable, ...LOOPBACK_PORT_0, [variable]: `127.0.0.1:${taken.port}` });
      assert.equal(result.code, 1, `${component}: ${result.stderr}`);
      assert.deepEqual(result.messages, [`svc: ${setting} 127.0.0.1:${taken.port} is in use; set ${setting} to a free address`], component);
    }
  } finally {
    taken.server.close();
  }
});

test('a second all-in-one on the same data dir stops with one line naming embedded.data_dir and no engine exception', async () => {
  const data = tempDataDir();
  const first = await startAllInOne({ dataDir: data.dir });
  try {
    const second = await runSvcToExit(['all-in-one'], { ...LOOPBACK_PORT_0, SVC__EMBEDDED__DATA_DIR: data.dir });
    assert.equal(second.code, 1, second.stderr);
    assert.equal(second.messages.length, 1, second.stderr);
    assert.match(
      second.messages[0],
      new RegExp(`^svc: embedded\\.data_dir ${data.dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use by another process \\(pid ${first.process.pid}\\); `),
    );
    assert.ok(!second.stderr.includes('DB::Exception'), second.stderr);
    // The first copy goes on serving.
    assert.equal((await fetch(`${first.apiUrl}/healthz`)).status, 200);
  } finally {
    assert.equal(await first.stop(), 0);
    data.cleanup();
  }
});

test('an unreachable broker or ClickHouse server stops a split component with one line naming the setting', async () => {
  // Nothing listens on port 9.
  const ingest = await runSvcToExit(['ingest'], { ...LOOPBACK_PORT_0, SVC__KAFKA__BROKERS: '127.0.0.1:9' });
  assert.equal(ingest.code, 1, ingest.stderr);
  assert.equal(ingest.messages.length, 1, ingest.stderr);
  assert.match(ingest.messages[0], /^svc: kafka\.brokers 127\.0\.0\.1:9: cannot create or check the topics: .*ECONNREFUSED 127\.0\.0\.1:9$/);

  const api = await runSvcToExit(['api'], { ...LOOPBACK_PORT_0, SVC__KAFKA__BROKERS: '127.0.0.1:9', SVC__CLICKHOUSE__URL: 'http://127.0.0.1:9' });
  assert.equal(api.code, 1, api.stderr);
  assert.equal(api.messages.length, 1, api.stderr);
  assert.match(api.messages[0], /^svc: clickhouse\.url: cannot open database svc on the ClickHouse server: .*ECONNREFUSED 127\.0\.0\.1:9$/);
});

test('a data dir that cannot be created or opened stops all-in-one and writer migrate with one line naming embedded.data_dir, no stack', async () => {
  const data = tempDataDir();
  try {
    const aFile = join(data.dir, 'a-file');
    writeFileSync(aFile, 'not a directory\n');
    const cases: [string, RegExp][] = [
      // Node's own recursive mkdir never returns here (ENOENT under /proc, retried for ever).
      ['/proc/x/data', /^svc: embedded\.data_dir \/proc\/x\/data: cannot create the embedded data directory: \/proc does not accept new directories /],
      [
        aFile,
        new RegExp(`^svc: embedded\\.data_dir ${escapeRegExp(aFile)}: cannot create the embedded data directory: ${escapeRegExp(aFile)} is not a directory$`),
      ],
      [
        join(aFile, 'data'),
        new RegExp(
          `^svc: embedded\\.data_dir ${escapeRegExp(join(aFile, 'data'))}: cannot create the embedded data directory: ${escapeRegExp(aFile)} is not a directory$`,
        ),
      ],
    ];
    // A directory nobody may write in, even root: sysfs.
    if (existsSync('/sys/kernel'))
      cases.push(['/sys/kernel', /^svc: embedded\.data_dir \/sys\/kernel: cannot open the embedded database: cannot write in the directory: /]);
    for (const [dir, message] of cases) {
      for (const args of [['all-in-one'], ['writer', 'migrate']]) {
        const result = await runSvcToExit(args, { ...LOOPBACK_PORT_0, SVC__EMBEDDED__DATA_DIR: dir }, 60_000);
        assert.equal(result.code, 1, `${dir}: ${result.stderr}`);
        assert.equal(result.messages.length, 1, `${dir}: ${result.stderr}`);
        assert.match(result.messages[0] ?? '', message);
      }
    }
  } finally {
    data.cleanup();
  }
});

test("a data dir the engine refuses (a damaged metadata file) stops with one svc line naming embedded.data_dir after the engine's own message, no stack", async () => {
  const data = tempDataDir();
  try {
    mkdirSync(join(data.dir, 'metadata'));
    writeFileSync(join(data.dir, 'metadata', 'system.sql'), 'not a statement\n');
    const result = await runSvcToExit(['writer', 'migrate'], { SVC__EMBEDDED__DATA_DIR: data.dir }, 60_000);
    assert.equal(result.code, 1, result.stderr);
    const ours = result.messages.filter((line) => line.startsWith('svc:'));
    assert.equal(ours.length, 1, result.stderr);
    assert.match(
      ours[0] ?? '',
      new RegExp(`^svc: embedded\\.data_dir ${escapeRegExp(data.dir)}: cannot open the embedded database: .*the engine's message above says why`),
    );
    assert.ok(!/^\s+at /m.test(result.stderr), `no stack trace in ${result.stderr}`);
  } finally {
    data.cleanup();
  }
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
