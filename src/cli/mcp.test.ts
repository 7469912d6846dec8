import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MCP_URL, mcpUrl, McpUsageError } from './mcp.js';

test('svc mcp reads the API URL from --url, then SVC_MCP_URL, then the default', () => {
  assert.equal(mcpUrl([], {}), DEFAULT_MCP_URL);
  assert.equal(mcpUrl([], { SVC_MCP_URL: 'http://svc:8090' }), 'http://svc:8090');
  assert.equal(mcpUrl(['--url', 'https://svc.example'], { SVC_MCP_URL: 'http://svc:8090' }), 'https://svc.example');
  assert.equal(mcpUrl(['--url=http://10.0.0.1:8090'], {}), 'http://10.0.0.1:8090');
});

test('svc mcp refuses unknown arguments and URLs that are not http(s)', () => {
  assert.throws(() => mcpUrl(['--verbose'], {}), McpUsageError);
  assert.throws(() => mcpUrl(['--url', 'ftp://svc'], {}), /mcp url must be an http or https URL/);
  assert.throws(() => mcpUrl([], { SVC_MCP_URL: 'not a url' }), /mcp url must be an http or https URL/);
});

test('svc mcp writes nothing but MCP to standard output and exits 0 when its client closes standard input', async () => {
  const root = new URL('../../../', import.meta.url).pathname;
  const child = spawn(process.env.SVC_TEST_NODE ?? process.execPath, [join(root, 'bin/svc.js'), 'mcp', '--url', 'http://127.0.0.1:1'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdin.end();
  assert.equal(await exited, 0, stderr);
  assert.equal(stdout, '');
  assert.match(stderr, /svc mcp: serving MCP on stdio for http:\/\/127\.0\.0\.1:1/);
});
