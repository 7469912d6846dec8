import { basename } from 'node:path';
import { nodeDiskFs, type DiskFile, type DiskFs } from './disk-fs.js';
import { writeAll } from './durable-file.js';
import { sealFrames } from './frame-seal.js';

/** The calls a fault can be injected into. */
export type FaultyCall = 'open' | 'write' | 'datasync' | 'sync' | 'truncate' | 'rename' | 'writeFile';

export interface Fault {
  call: FaultyCall;
  /** Which file: matched against the path's last part (a directory's name for a directory sync). */
  file: RegExp;
  /** The errno code thrown, e.g. ENOSPC or EIO. */
  code: string;
  /** How many matching calls fail before the fault clears by itself; unlimited when absent. */
  times?: number;
  /** For write: how much of the buffer reaches the file before the error (a short write on a full disk). */
  partial?: boolean;
}

/**
 * node's file system with faults injected into chosen calls of chosen files: what the bus's
 * fault-injection tests hand it through `DiskBusOptions.fs`. Counts every call, so a test can tell
 * that appends shared one sync.
 */
export class FaultyFs implements DiskFs {
  private faults: Fault[] = [];
  readonly calls = new Map<string, number>();
  readonly failures: string[] = [];

  /** `writeFrames: false` gives files without that op, so the bus seals its frames itself and writes and syncs in two calls. */
  constructor(private readonly options: { writeFrames: boolean } = { writeFrames: true }) {}

  inject(fault: Fault): void {
    this.faults.push({ ...fault });
  }

  clear(): void {
    this.faults = [];
  }

  count(call: FaultyCall, file: RegExp): number {
    let total = 0;
    for (const [key, n] of this.calls) {
      const [name, callName] = key.split('|');
      if (callName === call && file.test(name)) total += n;
    }
    return total;
  }

  /** Throws the fault that applies to this call, if any. */
  private check(call: FaultyCall, path: string): Fault | undefined {
    const name = basename(path);
    const key = `${name}|${call}`;
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
    const fault = this.faults.find((candidate) => candidate.call === call && candidate.file.test(name));
    if (fault === undefined) return undefined;
    if (fault.times !== undefined && --fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
    this.failures.push(`${call} ${name} ${fault.code}`);
    return fault;
  }

  private fail(fault: Fault, call: string, path: string): never {
    throw Object.assign(new Error(`${fault.code}: injected fault, ${call} '${path}'`), { code: fault.code });
  }

  async open(path: string, flags: string): Promise<DiskFile> {
    const fault = this.check('open', path);
    if (fault !== undefined) this.fail(fault, 'open', path);
    return this.wrap(path, await nodeDiskFs.open(path, flags));
  }

  async rename(fromPath: string, toPath: string): Promise<void> {
    const fault = this.check('rename', toPath);
    if (fault !== undefined) this.fail(fault, 'rename', toPath);
    await nodeDiskFs.rename(fromPath, toPath);
  }

  unlink = (path: string): Promise<void> => nodeDiskFs.unlink(path);
  mkdirAll = (path: string): Promise<void> => nodeDiskFs.mkdirAll(path);
  readdir = (path: string): Promise<string[]> => nodeDiskFs.readdir(path);
  sizeBytes = (path: string): Promise<number> => nodeDiskFs.sizeBytes(path);
  readText = (path: string): Promise<string> => nodeDiskFs.readText(path);

  private wrap(path: string, file: DiskFile): DiskFile {
    const guard = <T>(call: FaultyCall, run: () => Promise<T>): Promise<T> => {
      const fault = this.check(call, path);
      return fault === undefined ? run() : Promise.reject(Object.assign(new Error(`${fault.code}: injected fault, ${call} '${path}'`), { code: fault.code }));
    };
    const wrapped: DiskFile = {
      write: async (buffer, offset, length, position) => {
        const fault = this.check('write', path);
        if (fault === undefined) return file.write(buffer, offset, length, position);
        if (fault.partial === true && length > 1) await file.write(buffer, offset, Math.floor(length / 2), position);
        return this.fail(fault, 'write', path);
      },
      read: (buffer, offset, length, position) => file.read(buffer, offset, length, position),
      writeFile: (data) => guard('writeFile', () => file.writeFile(data)),
      truncate: (lengthBytes) => guard('truncate', () => file.truncate(lengthBytes)),
      datasync: () => guard('datasync', () => file.datasync()),
      // Through the faulty write and datasync above, so their faults reach this path too.
      writeFrames: async (frames, position, thenDatasync) => {
        try {
          sealFrames(frames);
          await writeAll(wrapped, frames, position);
        } catch (error) {
          return { failedAt: 'write', error };
        }
        if (!thenDatasync) return {};
        try {
          await wrapped.datasync();
        } catch (error) {
          return { failedAt: 'datasync', error };
        }
        return {};
      },
      sync: () => guard('sync', () => file.sync()),
      close: () => file.close(),
    };
    if (!this.options.writeFrames) delete wrapped.writeFrames;
    return wrapped;
  }
}
