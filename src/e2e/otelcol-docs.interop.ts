/**
 * The Collector configurations of docs/getting-started.md and docs/collector-kafka.md, exactly as
 * printed, are accepted by the real Collector's `validate` (a collector built by
 * scripts/otelcol/fetch.sh with the components they use). Run by scripts/otelcol/validate-docs.sh
 * (not part of `npm test`: the collector build takes minutes); the binary comes from SVC_OTELCOL_BIN.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { documentedCollectorConfigs } from '../docs/collector-config.test-support.js';

const COLLECTOR_BIN = process.env.SVC_OTELCOL_BIN ?? '';

for (const config of documentedCollectorConfigs()) {
  test(`otelcol validate accepts ${config.page}:${config.line} as printed`, async () => {
    assert.ok(COLLECTOR_BIN !== '', 'SVC_OTELCOL_BIN names the collector binary (scripts/otelcol/validate-docs.sh sets it)');
    const dir = mkdtempSync(join(tmpdir(), 'svc-otelcol-docs-'));
    try {
      const file = join(dir, 'collector.yaml');
      writeFileSync(file, config.text);
      const result = await promisify(execFile)(COLLECTOR_BIN, ['validate', '--config', file]).then(
        (output) => ({ code: 0, ...output }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? 1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
      );
      assert.equal(result.code, 0, `${config.page}:${config.line} refused:\n${result.stdout}${result.stderr}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
