import { dirname } from 'node:path';
import type { DiskFile, DiskFs } from './disk-fs.js';

/**
 * Replaces the file at `path` with `data` so that a crash leaves either the old file or the new
 * one, whole: written aside, synced, renamed over, and the directory synced so the rename itself
 * survives a crash. The one way the embedded bus writes its topics, offsets and new segments.
 */
export async function replaceFileDurably(fs: DiskFs, path: string, data: string | Buffer): Promise<void> {
  const aside = `${path}.tmp`;
  const handle = await fs.open(aside, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(aside, path);
  await syncDirectory(fs, dirname(path));
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
