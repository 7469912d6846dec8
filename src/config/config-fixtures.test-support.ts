import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Temp TOML files for the loader tests; `remove()` deletes them all. */
export class TempConfigFiles {
  private readonly dir = mkdtempSync(join(tmpdir(), 'svc-config-test-'));
  private count = 0;

  /** Writes `toml` to a fresh file and returns the environment naming it in SVC_CONFIG. */
  env(toml: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const path = join(this.dir, `config-${this.count++}.toml`);
    writeFileSync(path, toml);
    return { SVC_CONFIG: path, ...extra };
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The settings split components need before anything else is checked. */
export const SPLIT_REQUIRED: NodeJS.ProcessEnv = {
  SVC__KAFKA__BROKERS: 'kafka:9092',
  SVC__CLICKHOUSE__URL: 'http://clickhouse:8123',
};
