/**
 * Every curl command the docs print runs against a real all-in-one as printed, but for the address
 * (`localhost:8090` becomes the test server's) and, for the silence route, the template id (ids
 * come from the data): it exits 0 with a 2xx answer, and where the doc's comment gives the status
 * (`# 204`) or the body (`# ok`) it is that. The pages about authentication run against a server
 * with it on, the account the page uses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hashSync } from '@node-rs/argon2';
import { DOCS_DIR, fencedBlocks } from '../docs/fenced-blocks.test-support.js';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { getJson } from '../testing/http.js';
import { buildSampleLogs, exportLogs, logExporter } from '../testing/otel.js';
import { until } from '../testing/sdk-trace.js';

const PAGES_WITH_AUTH = new Set(['docs/auth.md']);
/** The template id docs/api.md's silence example uses; replaced by one the test server has. */
const DOCUMENTED_TEMPLATE_ID = '1846261936452110421';
const DOCUMENTED_PASSWORD = 'correct horse battery staple';

interface CurlCommand {
  where: string;
  page: string;
  command: string;
  /** The doc's trailing comment: a status (`204`) or the body (`ok`). */
  expected: string | undefined;
}

/** Every curl command of docs/*.md, continuation lines joined, its trailing comment apart. */
function curlCommands(): CurlCommand[] {
  const commands: CurlCommand[] = [];
  for (const name of readdirSync(DOCS_DIR).filter((file) => file.endsWith('.md'))) {
    for (const block of fencedBlocks(name).filter((candidate) => candidate.lang === 'sh')) {
      for (const line of block.text.replace(/\\\n\s*/g, ' ').split('\n')) {
        if (!line.startsWith('curl ')) continue;
        const comment = /\s+#\s*(.*)$/.exec(line);
        commands.push({
          where: `${block.page}:${block.line}`,
          page: block.page,
          command: comment === null ? line : line.slice(0, comment.index),
          expected: comment?.[1]?.trim(),
        });
      }
    }
  }
  return commands;
}

async function runCurl(command: string, cwd: string): Promise<{ status: number; body: string }> {
  // Appended, so the command stays as printed: -w prints the status after the body.
  const { stdout } = await promisify(execFile)('bash', ['-c', `${command} -sS -w '\\n%{http_code}'`], { cwd });
  const cut = stdout.lastIndexOf('\n');
  return { body: stdout.slice(0, cut), status: Number(stdout.slice(cut + 1)) };
}

async function runAll(commands: CurlCommand[], svc: RunningAllInOne, templateId: string | undefined): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), 'svc-doc-curl-'));
  try {
    for (const { where, command, expected } of commands) {
      let runnable = command.split('localhost:8090').join(svc.apiUrl.replace('http://', ''));
      if (runnable.includes(DOCUMENTED_TEMPLATE_ID)) {
        assert.ok(templateId !== undefined, `${where} needs a template`);
        runnable = runnable.split(DOCUMENTED_TEMPLATE_ID).join(templateId);
      }
      assert.notEqual(runnable, command, `${where}: the command names no localhost:8090 address`);
      const { status, body } = await runCurl(runnable, cwd);
      assert.ok(status >= 200 && status < 300, `${where}: ${command} answered ${status}: ${body}`);
      if (expected !== undefined && /^\d{3}$/.test(expected)) assert.equal(status, Number(expected), `${where}: ${command}`);
      else if (expected !== undefined) assert.equal(body, expected, `${where}: ${command}`);
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

const commands = curlCommands();

test('the curl commands of the docs run against a server without authentication', async () => {
  const open = commands.filter((command) => !PAGES_WITH_AUTH.has(command.page));
  assert.ok(
    open.some((command) => command.command.includes('/healthz')),
    'the getting-started checks are among them',
  );
  const data = tempDataDir();
  const svc = await startAllInOne({ dataDir: data.dir, env: { SVC__LOGMINER__FLUSH_MS: '100' } });
  try {
    // A template to silence, from logs sent the way an application sends them.
    await exportLogs(logExporter('http-json', svc, false), buildSampleLogs('doc-curl', Date.now(), undefined, 'd1'));
    const template = await until('a mined template', async () => {
      const response = await getJson(`${svc.apiUrl}/api/v1/log-templates?since=1h&service=doc-curl`);
      return (response.body as { template_id: string }[])[0];
    });
    await runAll(open, svc, template.template_id);
    const silence = await getJson(`${svc.apiUrl}/api/v1/log-templates/${template.template_id}`);
    assert.deepEqual((silence.body as { silence: unknown }).silence, { enabled: true, minutes: 30 }, 'the PUT of docs/api.md stored its setting');
  } finally {
    assert.equal(await svc.stop(), 0);
    data.cleanup();
  }
});

test('the curl commands of the authentication page run against a server with it on, as admin', async () => {
  const withAuth = commands.filter((command) => PAGES_WITH_AUTH.has(command.page));
  assert.ok(withAuth.length >= 3, 'sign-in, cookie and Basic examples');
  const data = tempDataDir();
  const svc = await startAllInOne({
    dataDir: data.dir,
    env: {
      SVC__AUTH__ENABLED: 'true',
      SVC__AUTH__USERNAME: 'admin',
      SVC__AUTH__PASSWORD_HASH: hashSync(DOCUMENTED_PASSWORD, { memoryCost: 1024, timeCost: 1, parallelism: 1 }),
    },
  });
  try {
    // Without the credentials the same reads are refused: the examples' credentials are what let them in.
    assert.equal((await fetch(`${svc.apiUrl}/api/v1/story-groups?since=1h`)).status, 401);
    await runAll(withAuth, svc, undefined);
  } finally {
    assert.equal(await svc.stop(), 0);
    data.cleanup();
  }
});
