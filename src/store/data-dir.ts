import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../config/config-error.js';

/** Deeper than any real path; bounds the walk up to an existing ancestor whatever the file system answers. */
const MAX_PATH_DEPTH = 256;

/** What an errno means to a person; the code itself is kept in parentheses for a search. */
const ERRNO_WORDS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is not a directory',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links',
};

function errnoOf(error: unknown): string {
  return String((error as { code?: unknown }).code ?? '');
}

function describe(error: unknown): string {
  const code = errnoOf(error);
  const words = ERRNO_WORDS[code];
  if (words !== undefined) return `${words} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** The failure as one line naming the setting and the directory, as every start-up failure is. */
function failure(setting: string, dir: string, what: string, reason: string): ConfigError {
  return new ConfigError(`${setting} ${dir}: ${what}: ${reason}`);
}

/**
 * Creates the embedded data directory (and its missing parents) and checks that this user can
 * write in it, so a bad `embedded.data_dir` stops start-up with one line naming the setting
 * instead of the engine's exception. It creates one level at a time rather than with
 * `mkdir -p`: Node's recursive mkdir retries for ever when a file system answers ENOENT under a
 * parent that exists (`/proc/x/data`), which spins a core with no output.
 */
export function prepareDataDir(dir: string, setting = 'embedded.data_dir'): void {
  const create = (reason: string) => failure(setting, dir, 'cannot create the embedded data directory', reason);
  const missing: string[] = [];
  for (let path = dir, depth = 0; ; path = dirname(path), depth++) {
    if (depth > MAX_PATH_DEPTH) throw create(`more than ${MAX_PATH_DEPTH} levels of directories`);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (error) {
      // ENOTDIR: a file further up is in the way; the walk finds and names it.
      if (errnoOf(error) !== 'ENOENT' && errnoOf(error) !== 'ENOTDIR') throw create(`${path}: ${describe(error)}`);
      missing.unshift(path);
      if (dirname(path) === path) break;
      continue;
    }
    if (!isDirectory) throw create(`${path} is not a directory`);
    break;
  }
  for (const path of missing) {
    try {
      mkdirSync(path);
    } catch (error) {
      const code = errnoOf(error);
      if (code === 'EEXIST' && statSync(path, { throwIfNoEntry: false })?.isDirectory() === true) continue;
      // The parent exists (it was found or just made), so ENOENT means this file system takes no new directories.
      if (code === 'ENOENT') throw create(`${dirname(path)} does not accept new directories (${path}: ENOENT)`);
      throw create(`${path}: ${describe(error)}`);
    }
  }
  // Root passes every permission check, but not a read-only or virtual file system: only a write tells.
  const probe = `${dir}/.svc-write-check-${process.pid}`;
  try {
    closeSync(openSync(probe, 'w'));
    unlinkSync(probe);
  } catch (error) {
    throw failure(setting, dir, 'cannot open the embedded database', `cannot write in the directory: ${describe(error)}`);
  }
}
