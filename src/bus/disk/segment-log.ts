import { join } from 'node:path';
import type { BusRecord } from '../../model/bus.js';
import type { DiskFile, DiskFs } from './disk-fs.js';
import { replaceFileDurably, writeAll } from './durable-file.js';
import { encodeSnapshotFrame, type PartitionNext } from './entry-codec.js';
import { listSegmentBases, readSegment, segmentFileName, type PositionedEntry } from './segment-files.js';

/** A topic-partition as one map key. */
export function partitionKey(topic: string, partition: number): string {
  return `${topic}\u0000${partition}`;
}

export interface Segment {
  base: number;
  /** Bytes in the file that are whole, synced frames (or being written, for the active one). */
  bytes: number;
  /** Highest offset per partition key written into the segment. */
  maxOffsets: Map<string, bigint>;
}

export interface RecoveryReport {
  segments: number;
  records: number;
  /** Bytes cut from the end of the last segment (a torn tail), or from an older one found corrupt. */
  truncatedBytes: number;
  reasons: string[];
}

export interface AppendFrame {
  buffers: Buffer[];
  bytes: number;
  /** Partition key of the record. */
  key: string;
  record: BusRecord;
}

/**
 * The append side of the embedded bus's log: segment files in one directory, one active segment
 * written with a group commit (every append waiting at once shares one write and one fdatasync),
 * rolled at `segmentBytes`, older segments deleted when the caller says they are no longer needed.
 *
 * Failures never cost an acknowledged record: a failed write or sync rejects the appends it
 * carried and cuts the active segment back to its durable bytes (again before the next write, if
 * the cut itself failed); a failed roll leaves the full segment as it is and is tried again before
 * the next write, which is refused (the caller answers retryably) while the roll keeps failing.
 */
export class SegmentLog {
  private active!: DiskFile;
  private writer: Promise<void> | undefined;
  private queued: { frames: AppendFrame[]; waiters: { resolve: () => void; reject: (error: unknown) => void }[] } | undefined;
  private closed = false;
  /** Set when a failed write may have left bytes past the active segment's durable end. */
  private tailDirty = false;
  private onRefused: (frames: AppendFrame[]) => void = () => undefined;

  private constructor(
    private readonly fs: DiskFs,
    readonly dir: string,
    private readonly segmentBytes: number,
    readonly segments: Segment[],
    /** Next offset per partition key, as recovered (the bus owns it from then on). */
    readonly recoveredNext: Map<string, bigint>,
    readonly recovery: RecoveryReport,
    /** Called after each group commit with the frames now durable, in order. */
    private onDurable: (frames: AppendFrame[], endPosition: number) => void,
  ) {}

  /** Opens (and recovers) the log in `dir`, creating it when absent. */
  static async open(fs: DiskFs, dir: string, segmentBytes: number, partitionsNow: () => PartitionNext[]): Promise<SegmentLog> {
    await fs.mkdirAll(dir);
    const bases = await listSegmentBases(fs, dir);
    const segments: Segment[] = [];
    const next = new Map<string, bigint>();
    const report: RecoveryReport = { segments: bases.length, records: 0, truncatedBytes: 0, reasons: [] };
    for (const [index, base] of bases.entries()) {
      const fileBytes = await fs.sizeBytes(join(dir, segmentFileName(base)));
      const scan = await readSegment(fs, dir, base, 0, fileBytes, Number.MAX_SAFE_INTEGER);
      const segment: Segment = { base, bytes: scan.validBytes, maxOffsets: new Map() };
      for (const { entry } of scan.entries) {
        if (entry.kind === 'snapshot') {
          for (const p of entry.partitions) raise(next, partitionKey(p.topic, p.partition), p.nextOffset);
          continue;
        }
        report.records += 1;
        const key = partitionKey(entry.topic, entry.partition);
        raise(next, key, entry.offset + 1n);
        raise(segment.maxOffsets, key, entry.offset);
      }
      if (scan.validBytes < fileBytes) {
        report.truncatedBytes += fileBytes - scan.validBytes;
        report.reasons.push(`${segmentFileName(base)}: ${scan.stoppedBy ?? 'short'} at byte ${scan.validBytes} of ${fileBytes}`);
        const handle = await fs.open(join(dir, segmentFileName(base)), 'r+');
        await handle.truncate(scan.validBytes);
        await handle.sync();
        await handle.close();
      }
      // Positions run on from one segment into the next; a cut older segment leaves a gap that
      // readers step over, since the next segment keeps its own base. A last segment left without
      // even its snapshot (a crash while rolling) is removed: the one before it stays active.
      if (index < bases.length - 1 || segment.bytes > 0) segments.push(segment);
      else await fs.unlink(join(dir, segmentFileName(base)));
    }
    const log = new SegmentLog(fs, dir, segmentBytes, segments, next, report, () => undefined);
    const last = segments[segments.length - 1];
    if (last === undefined) {
      await log.openNewSegment(0, partitionsNow);
    } else {
      log.active = await fs.open(join(dir, segmentFileName(last.base)), 'r+');
    }
    return log;
  }

  /** Sets who is told when frames become durable (the bus, once it has taken the recovered state). */
  onFramesDurable(listener: (frames: AppendFrame[], endPosition: number) => void): void {
    this.onDurable = listener;
  }

  /** Sets who is told of frames that were not written (their appends rejected), in order. */
  onFramesRefused(listener: (frames: AppendFrame[]) => void): void {
    this.onRefused = listener;
  }

  /** Global position after the last durable frame. */
  get endPosition(): number {
    const last = this.segments[this.segments.length - 1];
    return last.base + last.bytes;
  }

  get oldestPosition(): number {
    return this.segments[0].base;
  }

  /** Bytes held on disk by every segment. */
  get diskBytes(): number {
    let bytes = 0;
    for (const segment of this.segments) bytes += segment.bytes;
    return bytes;
  }

  /**
   * Appends frames and resolves once they are written and synced. Appends made while a sync runs
   * are written together by the next one.
   */
  append(frames: AppendFrame[], partitionsNow: () => PartitionNext[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('bus closed'));
    this.queued ??= { frames: [], waiters: [] };
    const queued = this.queued;
    for (const frame of frames) queued.frames.push(frame);
    const done = new Promise<void>((resolve, reject) => queued.waiters.push({ resolve, reject }));
    this.kick(partitionsNow);
    return done;
  }

  /** Starts the writer unless it runs; a microtask later, so appends of the same turn (an export's two topics) share one sync. */
  private kick(partitionsNow: () => PartitionNext[]): void {
    if (this.writer !== undefined) return;
    this.writer = Promise.resolve()
      .then(() => this.writeQueued(partitionsNow))
      .finally(() => {
        this.writer = undefined;
        if (this.queued !== undefined) this.kick(partitionsNow);
      });
  }

  /** Reads durable entries from `position` on, at most about `maxBytes`; moves over segment ends and gaps. */
  async read(position: number, maxBytes: number): Promise<{ entries: PositionedEntry[]; nextPosition: number }> {
    let at = Math.max(position, this.oldestPosition);
    for (;;) {
      // Looked up again each time round: segments may be deleted while a read waits on the disk.
      const index = this.segmentIndexAt(at);
      const segment = this.segments[index];
      if (at < segment.base) at = segment.base;
      const endBytes = segment.bytes;
      if (at >= segment.base + endBytes) {
        const next = this.segments[index + 1];
        if (next === undefined) return { entries: [], nextPosition: at };
        at = next.base;
        continue;
      }
      try {
        const scan = await readSegment(this.fs, this.dir, segment.base, at - segment.base, endBytes, maxBytes);
        if (scan.entries.length > 0) return { entries: scan.entries, nextPosition: scan.entries[scan.entries.length - 1].nextPosition };
        // Nothing whole where recovery found whole frames: step over the rest of the segment.
        at = segment.base + endBytes;
      } catch (error) {
        // Deleted under the reader (every group had committed it): go on from the oldest kept.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        at = Math.max(at, this.oldestPosition);
      }
    }
  }

  /** Deletes the oldest segments (never the active one) while `deletable` says yes. */
  async deleteOldest(deletable: (segment: Segment) => boolean): Promise<number> {
    let deleted = 0;
    while (this.segments.length > 1 && deletable(this.segments[0])) {
      const segment = this.segments.shift()!;
      await this.fs.unlink(join(this.dir, segmentFileName(segment.base))).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      deleted += 1;
    }
    return deleted;
  }

  /** Waits for queued appends to be synced, then closes the active segment. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.writer !== undefined) await this.writer;
    await this.active.close();
  }

  private segmentIndexAt(position: number): number {
    let low = 0;
    let high = this.segments.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.segments[middle].base <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  private async writeQueued(partitionsNow: () => PartitionNext[]): Promise<void> {
    while (this.queued !== undefined) {
      const { frames, waiters } = this.queued;
      this.queued = undefined;
      try {
        await this.readyForWrite(partitionsNow);
      } catch (error) {
        this.refuse(frames, waiters, error);
        continue;
      }
      const segment = this.activeSegment;
      const durableBytes = segment.bytes;
      try {
        const buffers: Buffer[] = [];
        let bytes = 0;
        for (const frame of frames) {
          for (const buffer of frame.buffers) buffers.push(buffer);
          bytes += frame.bytes;
        }
        await writeAll(this.active, Buffer.concat(buffers, bytes), durableBytes);
        await this.active.datasync();
        segment.bytes = durableBytes + bytes;
      } catch (error) {
        // Whatever part of the write reached the file was never acknowledged: cut it, so the log
        // stays whole frames. If the cut fails too, it is made again before the next write.
        this.tailDirty = true;
        await this.cutToDurable().catch(() => undefined);
        this.refuse(frames, waiters, error);
        continue;
      }
      for (const frame of frames) raise(segment.maxOffsets, frame.key, frame.record.offset);
      this.onDurable(frames, segment.base + segment.bytes);
      for (const waiter of waiters) waiter.resolve();
      // Rolled now, so a full segment is deletable without waiting for the next append; a roll
      // that fails here is tried again before that append (readyForWrite), never undone by cutting.
      await this.rollWhenFull(partitionsNow).catch(() => undefined);
    }
  }

  private refuse(frames: AppendFrame[], waiters: { reject: (error: unknown) => void }[], error: unknown): void {
    this.onRefused(frames);
    for (const waiter of waiters) waiter.reject(error);
  }

  private get activeSegment(): Segment {
    return this.segments[this.segments.length - 1];
  }

  /** Repairs what an earlier failure left (bytes past the durable end, a full segment not rolled); throws while it cannot. */
  private async readyForWrite(partitionsNow: () => PartitionNext[]): Promise<void> {
    if (this.tailDirty) await this.cutToDurable();
    await this.rollWhenFull(partitionsNow);
  }

  private async cutToDurable(): Promise<void> {
    await this.active.truncate(this.activeSegment.bytes);
    this.tailDirty = false;
  }

  private async rollWhenFull(partitionsNow: () => PartitionNext[]): Promise<void> {
    if (this.activeSegment.bytes < this.segmentBytes) return;
    const previous = this.active;
    try {
      await this.openNewSegment(this.endPosition, partitionsNow);
    } catch (error) {
      throw new Error(`the embedded bus could not begin a new log segment in ${this.dir}; publishing is refused until it can`, { cause: error });
    }
    // Its frames are synced; a failed close only leaks the descriptor.
    await previous.close().catch(() => undefined);
  }

  /**
   * A new active segment beginning with a snapshot of every partition's next offset, created whole
   * (written aside and renamed) so a crash never leaves a segment without its snapshot.
   */
  private async openNewSegment(base: number, partitionsNow: () => PartitionNext[]): Promise<void> {
    const path = join(this.dir, segmentFileName(base));
    const snapshot = encodeSnapshotFrame(partitionsNow());
    await replaceFileDurably(this.fs, path, snapshot);
    this.active = await this.fs.open(path, 'r+');
    this.tailDirty = false;
    this.segments.push({ base, bytes: snapshot.length, maxOffsets: new Map() });
  }
}

function raise(map: Map<string, bigint>, key: string, value: bigint): void {
  const current = map.get(key);
  if (current === undefined || value > current) map.set(key, value);
}
