import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../config/config-error.js';

/**
 * The embedded engine locks `<data_dir>/status` (flock) for as long as a process has the
 * directory open, and refuses a second process by printing its own exception to standard error
 * before failing. Looking the lock up first (Linux lists every flock in /proc/locks with the
 * file's device and inode) turns that case into one line a person can act on.
 */
export function assertDataDirFree(dataDir: string, setting = 'embedded.data_dir'): void {
  const holder = lockHolderPid(join(dataDir, 'status'));
  if (holder !== undefined && holder !== process.pid) {
    throw new ConfigError(
      `${setting} ${dataDir} is in use by another process (pid ${holder}); stop it, or set ${setting} to another directory ` +
        '(one process per data directory; several processes need a ClickHouse server, clickhouse.url)',
    );
  }
}

/** The pid holding an flock on `file`, from /proc/locks; undefined when none (or not on Linux). */
export function lockHolderPid(file: string): number | undefined {
  let dev: number;
  let ino: number;
  let locks: string;
  try {
    ({ dev, ino } = statSync(file));
    locks = readFileSync('/proc/locks', 'utf8');
  } catch {
    return undefined;
  }
  // Linux's device number encoding (major in bits 8-19 and 32+, minor in 0-7 and 20+), as /proc/locks prints it.
  const major = ((dev >> 8) & 0xfff) | (Math.floor(dev / 2 ** 32) * 0x1000);
  const minor = (dev & 0xff) | ((dev >> 12) & 0xfff00);
  for (const line of locks.split('\n')) {
    // "1: FLOCK  ADVISORY  WRITE 29932 fe:00:9987043 0 EOF"
    const match = /^\d+:\s+(?:->\s+)?FLOCK\s+\S+\s+\S+\s+(\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s/.exec(line);
    if (match === null) continue;
    if (Number(match[4]) === ino && parseInt(match[2], 16) === major && parseInt(match[3], 16) === minor) return Number(match[1]);
  }
  return undefined;
}
