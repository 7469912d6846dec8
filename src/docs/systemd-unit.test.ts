/**
 * The systemd unit docs/operations.md gives is one systemd accepts as written: `systemd-analyze
 * verify` reports nothing about it (it prints, and still exits 0, for a key or value it ignores).
 * Skipped where systemd is not installed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fencedBlocks } from './fenced-blocks.test-support.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0;

function documentedUnit(): string {
  const units = fencedBlocks('operations.md').filter((block) => block.lang === 'ini' && block.text.includes('[Service]'));
  assert.equal(units.length, 1, 'docs/operations.md has one systemd unit');
  return units[0]!.text;
}

test('the documented unit runs svc all-in-one as its own user on its data dir, stopped by SIGTERM and restarted on failure', () => {
  const unit = documentedUnit();
  for (const line of [
    'User=svc',
    'StateDirectory=svc',
    'Environment=SVC__EMBEDDED__DATA_DIR=/var/lib/svc',
    'ExecStart=/usr/local/bin/svc all-in-one',
    'KillSignal=SIGTERM',
    'Restart=on-failure',
    'WantedBy=multi-user.target',
  ]) {
    assert.ok(unit.split('\n').includes(line), `${line} in the unit`);
  }
  assert.match(unit, /^TimeoutStopSec=\d+$/m);
});

test('systemd-analyze verify accepts the documented unit without a word', { skip: !hasSystemdAnalyze && 'systemd-analyze is not installed here' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-unit-'));
  try {
    // verify checks that ExecStart's program exists: point it at this checkout's (executable) bin/svc.js.
    const unit = documentedUnit().replace('ExecStart=/usr/local/bin/svc ', `ExecStart=${join(ROOT, 'bin', 'svc.js')} `);
    const file = join(dir, 'svc.service');
    writeFileSync(file, unit);
    const { stdout, stderr } = await promisify(execFile)('systemd-analyze', ['verify', file]);
    assert.equal(`${stdout}${stderr}`, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
