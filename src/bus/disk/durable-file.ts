import { dirname } from 'node:path';
import type { DiskFile, DiskFs } from './disk-fs.js';

/**
 * Replaces the file at `path` with `data` so that a crash leaves either the old file or the new
 * one, whole: written aside, synced, renamed over, and the directory synced so the rename itself
 * survives a crash. The one way the embedded bus writes its topics, offsets and new segments.
 * With `startingFrom`, the file written aside is that one (a segment's zeroed space, see
 * createZeroedFile), `data` written over its first bytes and the rest of it kept.
 */
export async function replaceFileDurably(fs: DiskFs, path: string, data: string | Buffer, startingFrom?: string): Promise<void> {
  const aside = `${path}.tmp`;
  if (startingFrom !== undefined) await fs.rename(startingFrom, aside);
  // 'r+' neither truncates nor moves the position: writeFile then writes from the file's start.
  const handle = await fs.open(aside, startingFrom === undefined ? 'w' : 'r+');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(aside, path);
  await syncDirectory(fs, dirname(path));
}

const ZERO_CHUNK_BYTES = 1024 * 1024;

/**
 * Creates `path` holding `bytes` zero bytes, written (not a sparse file: writing into a hole
 * allocates blocks, which is metadata again) and synced, blocks and size both. Stops early, and
 * resolves false, once `stopped` says so (the bus closing).
 */
export async function createZeroedFile(fs: DiskFs, path: string, bytes: number, stopped: () => boolean): Promise<boolean> {
  const handle = await fs.open(path, 'w');
  try {
    const zeros = Buffer.alloc(Math.min(ZERO_CHUNK_BYTES, bytes));
    for (let at = 0; at < bytes; at += zeros.length) {
      if (stopped()) return false;
      await writeAll(handle, zeros.subarray(0, Math.min(zeros.length, bytes - at)), at);
    }
    await handle.sync();
    return true;
  } finally {
    await handle.close();
  }
}

/** Makes a directory's entries (created, renamed or truncated files) durable. */
export async function syncDirectory(fs: DiskFs, dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes all of `buffer` at `position` (a write may take only part of it). */
export async function writeAll(handle: DiskFile, buffer: Buffer, position: number): Promise<void> {
  let written = 0;
  while (written < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, written, buffer.length - written, position + written);
    written += bytesWritten;
  }
}

/** Reads the file at `path` as text; undefined when there is none. */
export async function readTextIfPresent(fs: DiskFs, path: string): Promise<string | undefined> {
  try {
    return await fs.readText(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
