import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';

/**
 * The file-system calls the embedded bus makes, as one small interface: the bus is handed
 * `nodeDiskFs`, and its fault-injection tests a wrapper that fails chosen calls (open, write,
 * datasync, rename, ...) without touching node:fs for anything else in the process.
 */

/** An open file: the calls of node's FileHandle the bus uses. */
export interface DiskFile {
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  writeFile(data: string | Buffer): Promise<void>;
  truncate(lengthBytes: number): Promise<void>;
  datasync(): Promise<void>;
  /**
   * Writes all of `frames` (whole log frames whose checksums are still zero, see sealFrames) at
   * `position`, filling the checksums in first, and fdatasyncs after when `thenDatasync`; resolves
   * with the step that failed and its error, if one did (the sync is not tried after a failed
   * write). Optional: without it the bus seals the frames itself and writes and syncs in two calls.
   * `frames` is handed over: the caller neither reads nor reuses it after the call (an
   * implementation may take its memory).
   */
  writeFrames?(frames: Buffer, position: number, thenDatasync: boolean): Promise<WriteFramesOutcome>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export type WriteFramesOutcome = { failedAt?: undefined } | { failedAt: 'write' | 'datasync'; error: unknown };

export interface DiskFs {
  open(path: string, flags: string): Promise<DiskFile>;
  rename(fromPath: string, toPath: string): Promise<void>;
  unlink(path: string): Promise<void>;
  mkdirAll(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  sizeBytes(path: string): Promise<number>;
  readText(path: string): Promise<string>;
}

export const nodeDiskFs: DiskFs = {
  open: (path, flags) => open(path, flags),
  rename: (fromPath, toPath) => rename(fromPath, toPath),
  unlink: (path) => unlink(path),
  mkdirAll: async (path) => void (await mkdir(path, { recursive: true })),
  readdir: (path) => readdir(path),
  sizeBytes: async (path) => (await stat(path)).size,
  readText: (path) => readFile(path, 'utf8'),
};
