/**
 * `svc demo` through the real binary: against a running all-in-one it backfills, sends live traffic
 * with a fault, and exits 0 when its minutes are up, the fault visible as an error story rooted in
 * the announced service; started alone, it runs its own all-in-one and stops cleanly on Ctrl-C.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { pollJson } from '../testing/http.js';
import { runSvcToExit } from '../testing/run-svc.js';
import { stringifyJson } from '../util/json.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const data = tempDataDir('svc-e2e-demo-');
let svc: RunningAllInOne;

before(async () => {
  svc = await startAllInOne({ dataDir: data.dir, env: { SVC__ASSEMBLER__GAP_MS: '300', SVC__WRITER__MAX_AGE_MS: '200' } });
});

after(async () => {
  await svc?.stop();
  data.cleanup();
});

test('svc demo --minutes 1 sends history and live traffic with a fault to a running svc, and exits 0', async () => {
  const result = await runSvcToExit(
    ['demo', '--minutes', '1', '--history-minutes', '2', '--otlp-url', `http://127.0.0.1:${svc.otlpHttpPort}`, '--api-url', svc.apiUrl],
    {},
    240_000,
  );
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`open ${svc.apiUrl.replace(/\./g, '\\.')} `));
  assert.match(result.stdout, /^history: 2 of 2 minutes sent \([\d,]+ spans\)/m);
  const fault = /^fault: invalid return values from (\S+) \(/m.exec(result.stdout);
  assert.ok(fault !== null, result.stdout);
  const sent = /^svc demo: sent ([\d,]+) spans and ([\d,]+) log records/m.exec(result.stdout);
  assert.ok(sent !== null && Number(sent[1]!.replace(/,/g, '')) > 10_000, result.stdout);

  const window = `since=15m&until=${Math.floor(Date.now() / 1000) + 30}`;
  const traces = await pollJson(
    `${svc.apiUrl}/api/v1/traces/search?${window}&limit=500`,
    (response) => Array.isArray(response.body) && response.body.length === 500,
    60_000,
  );
  const rows = traces.body as { endpoint_service: string; endpoint_name: string }[];
  assert.equal(rows.length, 500);
  assert.ok(rows.every((row) => row.endpoint_service === 'gateway' && row.endpoint_name === 'GET /*'));

  const target = fault[1]!;
  const groups = await pollJson(
    `${svc.apiUrl}/api/v1/story-groups?${window}&kind=error&service=${target}`,
    (response) =>
      Array.isArray(response.body) && (response.body as { summary: string }[]).some((group) => group.summary.includes(`invalid return value from ${target}`)),
    60_000,
  );
  const group = (groups.body as { rc_service: string; summary: string }[]).find((one) => one.summary.includes(`invalid return value from ${target}`));
  assert.equal(group?.rc_service, target, stringifyJson(groups.body));
});

test('svc demo alone starts its own all-in-one in a temporary directory and stops cleanly on Ctrl-C', async () => {
  const child = spawn(process.env.SVC_TEST_NODE ?? process.execPath, [join(ROOT, 'bin/svc.js'), 'demo', '--history-minutes', '1'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SVC__HTTP_ADDR: '127.0.0.1:0',
      SVC__GRPC_ADDR: '127.0.0.1:0',
      SVC__OTLP_HTTP_ADDR: '127.0.0.1:0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  try {
    await new Promise<void>((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        stdout += `${line}\n`;
        if (line.startsWith('live: ')) resolve();
      });
      void exited.then(() => resolve());
    });
    const dataDir = /data in (\S+), removed when the demo ends/.exec(stdout)?.[1];
    assert.ok(dataDir !== undefined && existsSync(dataDir), stdout + stderr);
    const apiUrl = /open (http:\/\/localhost:\d+) /.exec(stdout)?.[1];
    assert.ok(apiUrl !== undefined, stdout);
    const health = await fetch(`${apiUrl}/healthz`);
    assert.equal(health.status, 200);
    child.kill('SIGINT');
    assert.equal(await exited, 0, stdout + stderr);
    assert.match(stdout, /^stopping: finishing the export in flight/m);
    assert.match(stdout, /^svc demo: stopping svc all-in-one \(it stores what it holds first\)$/m);
    assert.equal(existsSync(dataDir), false, 'the temporary data directory is removed');
  } finally {
    clearTimeout(timer);
    child.kill('SIGKILL');
  }
});
