/**
 * The route declarations reach every client: a changed response declaration must fail to compile
 * in MCP's tools and in the web app, not only in the server. The test copies the sources to a temp
 * dir, renames one declared field (`error_ratio` of a RED bucket, read by get_service_health and
 * the service panel), runs tsc over MCP and over the web app, and expects both to fail at the
 * read of the old name, and nowhere else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file runs from dist/src/api/schemas/). */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** tsc's output over `project`, run from its folder so the files it names are relative to it. */
function typecheck(tsc: string, project: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(tsc, ['-p', project, '--noEmit'], { cwd: dirname(project), maxBuffer: 16 * 1024 * 1024 }, (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`),
    );
  });
}

/** Error lines of tsc output as `file: message`. */
const errorsOf = (output: string) => output.split('\n').filter((line) => line.includes('error TS'));

test('renaming a declared response field fails to compile in MCP and in the web app', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-route-drift-'));
  try {
    cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
    cpSync(join(ROOT, 'web', 'src'), join(dir, 'web', 'src'), { recursive: true });
    cpSync(join(ROOT, 'web', 'tsconfig.json'), join(dir, 'web', 'tsconfig.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    symlinkSync(join(ROOT, 'web', 'node_modules'), join(dir, 'web', 'node_modules'), 'dir');
    const base = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: object };
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: base.compilerOptions, include: ['src/mcp/**/*.ts'], exclude: ['src/**/*.test.ts'] }),
    );

    const schema = join(dir, 'src', 'api', 'schemas', 'traces.ts');
    const declared = readFileSync(schema, 'utf8');
    const renamed = declared.replace('rate: z.number(), error_ratio: z.number(), p50_ns', 'rate: z.number(), error_share: z.number(), p50_ns');
    assert.notEqual(renamed, declared, 'the RED bucket declaration has the field this test renames');
    writeFileSync(schema, renamed);

    const [mcp, web] = await Promise.all([
      typecheck(join(ROOT, 'node_modules', '.bin', 'tsc'), join(dir, 'tsconfig.json')),
      typecheck(join(ROOT, 'web', 'node_modules', '.bin', 'tsc'), join(dir, 'web', 'tsconfig.json')),
    ]);
    const mcpErrors = errorsOf(mcp);
    const webErrors = errorsOf(web);
    assert.ok(
      mcpErrors.some((line) => line.startsWith('src/mcp/tools/services.ts') && line.includes("'error_ratio'")),
      mcp,
    );
    assert.ok(
      webErrors.some((line) => line.startsWith('src/pages/map/ServicePanel.tsx') && line.includes("'error_ratio'")),
      web,
    );
    // Nothing else breaks: the copies compile but for the renamed field.
    for (const line of [...mcpErrors, ...webErrors]) assert.match(line, /error_ratio|error_share/, line);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
