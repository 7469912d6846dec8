import { join } from 'node:path';
import type { BusRecord } from '../../model/bus.js';
import type { DiskFile, DiskFs, WriteFramesOutcome } from './disk-fs.js';
import { createZeroedFile, replaceFileDurably, writeAll } from './durable-file.js';
import { encodeSnapshotFrame, writeRecordFrame, type PartitionNext } from './entry-codec.js';
import { sealFrames } from './frame-seal.js';
import { isZeroedFrom, listSegmentBases, readSegment, segmentFileName, type PositionedEntry } from './segment-files.js';

/** Topics and partitions whose keys are remembered: a bus has a few topics of a few dozen partitions. */
const MAX_KEYED_TOPICS = 64;
const MAX_KEYED_PARTITIONS = 4096;
const partitionKeys = new Map<string, string[]>();

/**
 * A topic-partition as one map key. The same string each time (made once per topic-partition):
 * a new one per record had to be allocated, flattened and hashed at each map lookup.
 */
export function partitionKey(topic: string, partition: number): string {
  let keys = partitionKeys.get(topic);
  if (keys === undefined) {
    if (partitionKeys.size >= MAX_KEYED_TOPICS) return `${topic}\u0000${partition}`;
    partitionKeys.set(topic, (keys = []));
  }
  if (partition >= MAX_KEYED_PARTITIONS) return `${topic}\u0000${partition}`;
  return (keys[partition] ??= `${topic}\u0000${partition}`);
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

/** A record to append: framed (entry-codec.ts) only when its group is written. */
export interface AppendFrame {
  /** Its frame's bytes (recordFrameBytes). */
  bytes: number;
  /** Partition key of the record. */
  key: string;
  record: BusRecord;
}

/** One append waiting to be written: its frames and who is told when they are durable. */
interface PendingAppend {
  frames: AppendFrame[];
  bytes: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A group written to the active segment whose fdatasync runs. */
interface SyncingGroup {
  appends: PendingAppend[];
  bytes: number;
  /** Settles with the sync's error, or undefined once the group is durable. */
  synced: Promise<unknown>;
}

/**
 * Most bytes one group commit writes: a flood's appends are cut into groups of about this size, so
 * each sync (and the wait of the appends in it) stays short, and the next group is being written
 * while this one syncs. An append larger than this is written alone.
 */
export const MAX_GROUP_BYTES = 4 * 1024 * 1024;

/**
 * The next segment's space, zeroed in advance (see SegmentLog): not a segment until a roll writes
 * its snapshot and renames it into place; one left by a stop or a crash is deleted on open.
 */
export const SPARE_SEGMENT_NAME = 'next.seg.zeroed';

/** The zeroed space a new log's first segment begins in, waited for at its first start. */
export const FIRST_SEGMENT_ZEROED_BYTES = 8 * 1024 * 1024;

/** The spare's zeroing: `ready` once it is written and synced whole. */
interface Spare {
  path: string;
  /** Its length: a whole segment, or less for a new log's first one. */
  bytes: number;
  filled: Promise<boolean>;
  ready: boolean;
}

/**
 * The append side of the embedded bus's log: segment files in one directory, one active segment
 * written with a pipelined group commit, rolled at `segmentBytes`, older segments deleted when the
 * caller says they are no longer needed. Appends waiting at once share one write and one fdatasync
 * (a group, at most MAX_GROUP_BYTES); while one group's fdatasync runs, the next group is written
 * behind it, and its sync starts once the one before it finished. Appends are acknowledged in
 * order, each only once its own group's sync succeeded.
 *
 * Failures never cost an acknowledged record: a failed write or sync rejects the appends of its
 * group, of the group written behind it and of every append still queued (nothing after a
 * failure is acknowledged, and every offset they took is given back), and cuts the active segment
 * back to its durable bytes (again before the next write, if the cut itself failed); a failed
 * roll leaves the full segment as it is and is tried again before the next write, which is
 * refused (the caller answers retryably) while the roll keeps failing.
 *
 * Segments begin in zeroed space when they can: once the active segment is half full, the next
 * one's space is written with zeros and synced in the background, and the roll writes its
 * snapshot over the start of it. A group's fdatasync then flushes the group's data only: the
 * file's size and blocks are already on disk, so no journal commit of metadata rides on it (an
 * append past a file's end needs one each time). Recovery reads a header of zeros followed only
 * by zeros as the clean end of the written frames, and anything else after the last whole frame
 * as a torn tail, cut as before. Without room for the spare (a full disk), segments are begun
 * empty as before and grow by appends.
 */
export class SegmentLog {
  private active!: DiskFile;
  private writer: Promise<void> | undefined;
  private queued: PendingAppend[] = [];
  /** Resolved by the next append: the pipeline waits on it beside a running sync. */
  private appended: { promise: Promise<void>; resolve: () => void } | undefined;
  private closed = false;
  /** Set when a failed write may have left bytes past the active segment's durable end. */
  private tailDirty = false;
  private onRefused: (frames: AppendFrame[]) => void = () => undefined;
  private spare: Spare | undefined;
  /** Base of the active segment when zeroing a spare last failed: not tried again before the next segment. */
  private spareFailedAtBase = -1;

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
    await fs.unlink(join(dir, SPARE_SEGMENT_NAME)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
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
      // Zeroed space after the last frame is the clean end (and stays, for the next writes).
      const zeroedEnd = scan.zeroedAt !== undefined && (await isZeroedFrom(fs, dir, base, scan.zeroedAt, fileBytes));
      if (scan.validBytes < fileBytes && !zeroedEnd) {
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
      // A new log's first segment begins in zeroed space too, but less of it: zeroing a whole
      // segment made every first start wait most of a second. Past that space it grows by appends.
      log.spare = log.zeroSpare(-1, Math.min(segmentBytes, FIRST_SEGMENT_ZEROED_BYTES));
      await log.spare.filled;
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
    const last = this.activeSegment;
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
    let bytes = 0;
    for (const frame of frames) bytes += frame.bytes;
    const done = new Promise<void>((resolve, reject) => this.queued.push({ frames, bytes, resolve, reject }));
    this.appended?.resolve();
    this.appended = undefined;
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
        if (this.queued.length > 0) this.kick(partitionsNow);
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
    // A zeroing under way stops at its next chunk; what it left is deleted by the next open.
    await this.spare?.filled;
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

  /**
   * The pipeline: takes a group, writes it behind the group whose sync runs, then waits for that
   * sync (acknowledging its group, or refusing everything after a failure) and starts its own.
   */
  private async writeQueued(partitionsNow: () => PartitionNext[]): Promise<void> {
    let syncing: SyncingGroup | undefined;
    for (;;) {
      if (this.queued.length === 0) {
        if (syncing === undefined) break;
        // Whichever comes first: an append to write behind the sync, or the sync's end.
        await Promise.race([syncing.synced, this.nextAppend()]);
        if (this.queued.length > 0) continue;
        await this.settle(syncing);
        syncing = undefined;
        continue;
      }
      // A repair or a roll needs the file quiet: the group in sync first.
      if (syncing !== undefined && (this.tailDirty || this.activeSegment.bytes + syncing.bytes >= this.segmentBytes)) {
        const ok = await this.settle(syncing);
        syncing = undefined;
        if (!ok) continue;
      }
      const appends = this.takeGroup();
      if (syncing === undefined) {
        try {
          await this.readyForWrite(partitionsNow);
        } catch (error) {
          this.refuseFrom(appends, error);
          continue;
        }
      }
      const position = this.activeSegment.bytes + (syncing?.bytes ?? 0);
      let group: Buffer;
      try {
        group = frameGroup(appends);
      } catch (error) {
        // Not framed (publish sized and checked every record, so never expected): nothing written.
        if (syncing === undefined || (await this.settle(syncing, appends))) this.refuseFrom(appends, error);
        syncing = undefined;
        continue;
      }
      const bytes = group.length;
      if (syncing === undefined && this.queued.length === 0 && this.active.writeFrames !== undefined) {
        // Nothing to write behind this group (one exporter, or a lull): written and synced in one
        // call, one round trip to the I/O thread instead of two, each of which waits for this
        // thread's turn on a busy machine. Appends arriving meanwhile are queued for the next group.
        const outcome = await this.active.writeFrames(group, position, true);
        if (outcome.failedAt === 'write') {
          // As below: whatever part of the write reached the file is cut, the group refused.
          this.tailDirty = true;
          await this.cutToDurable().catch(() => undefined);
          this.refuseFrom(appends, outcome.error);
          continue;
        }
        const synced = outcome.failedAt === 'datasync' ? (outcome.error ?? new Error('fdatasync failed')) : undefined;
        await this.settle({ appends, bytes, synced: Promise.resolve(synced) });
        continue;
      }
      const written = await this.writeGroup(group, position);
      const writeError = written.failedAt === 'write' ? { error: written.error } : undefined;
      if (syncing !== undefined) {
        // Bytes written behind a group that did not become durable are cut with it; settle()
        // refused the queue, this group is refused here.
        const ok = await this.settle(syncing, appends);
        syncing = undefined;
        if (!ok) continue;
      }
      if (writeError !== undefined) {
        // Whatever part of the write reached the file was never acknowledged: cut it, so the log
        // stays whole frames. If the cut fails too, it is made again before the next write.
        this.tailDirty = true;
        await this.cutToDurable().catch(() => undefined);
        this.refuseFrom(appends, writeError.error);
        continue;
      }
      syncing = {
        appends,
        bytes,
        synced: this.active.datasync().then(
          () => undefined,
          (error: unknown) => error ?? new Error('fdatasync failed'),
        ),
      };
    }
    // Rolled now, so a full segment is deletable without waiting for the next append; a roll
    // that fails here is tried again before that append (readyForWrite), never undone by cutting.
    await this.rollWhenFull(partitionsNow).catch(() => undefined);
  }

  /** Writes a group (not synced): its checksums filled in on the I/O thread, or here for a file that cannot. */
  private async writeGroup(group: Buffer, position: number): Promise<WriteFramesOutcome> {
    if (this.active.writeFrames !== undefined) return this.active.writeFrames(group, position, false);
    sealFrames(group);
    try {
      await writeAll(this.active, group, position);
      return {};
    } catch (error) {
      return { failedAt: 'write', error };
    }
  }

  private nextAppend(): Promise<void> {
    if (this.appended === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.appended = { promise, resolve };
    }
    return this.appended.promise;
  }

  /** Queued appends of the next group, oldest first, at most MAX_GROUP_BYTES (one at least). */
  private takeGroup(): PendingAppend[] {
    let count = 0;
    let bytes = 0;
    for (const append of this.queued) {
      if (count > 0 && bytes + append.bytes > MAX_GROUP_BYTES) break;
      bytes += append.bytes;
      count += 1;
    }
    return this.queued.splice(0, count);
  }

  /**
   * Waits for the group's sync: acknowledges it, or refuses it, `behind` (written after it) and
   * every queued append. True when the group is durable.
   */
  private async settle(group: SyncingGroup, behind: PendingAppend[] = []): Promise<boolean> {
    const error = await group.synced;
    const segment = this.activeSegment;
    if (error !== undefined) {
      this.tailDirty = true;
      await this.cutToDurable().catch(() => undefined);
      this.refuseFrom([...group.appends, ...behind], error);
      return false;
    }
    segment.bytes += group.bytes;
    this.prepareSpareWhenDue();
    const frames: AppendFrame[] = [];
    for (const append of group.appends) {
      for (const frame of append.frames) {
        raise(segment.maxOffsets, frame.key, frame.record.offset);
        frames.push(frame);
      }
    }
    this.onDurable(frames, segment.base + segment.bytes);
    for (const append of group.appends) append.resolve();
    return true;
  }

  /**
   * Refuses `appends` and every append still queued: none of them is acknowledged, and their
   * offsets are given back newest first, so partition ends count only durable records.
   */
  private refuseFrom(appends: PendingAppend[], error: unknown): void {
    const refused = [...appends, ...this.queued.splice(0)];
    for (const append of [...refused].reverse()) this.onRefused(append.frames);
    for (const append of refused) append.reject(error);
  }

  /** The segment appended to: the log always holds one (open() makes it). */
  private get activeSegment(): Segment {
    const segment = this.segments.at(-1);
    if (segment === undefined) throw new Error('the embedded bus log has no segment');
    return segment;
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
    // A spare still being zeroed is left to finish, for the roll after this one.
    const spare = this.spare?.ready === true && snapshot.length < this.spare.bytes ? this.spare : undefined;
    if (spare !== undefined) this.spare = undefined;
    await replaceFileDurably(this.fs, path, snapshot, spare?.path);
    this.active = await this.fs.open(path, 'r+');
    this.tailDirty = false;
    this.segments.push({ base, bytes: snapshot.length, maxOffsets: new Map() });
  }

  /** Starts zeroing the next segment's space once the active one is half full (one at a time, none while closing). */
  private prepareSpareWhenDue(): void {
    const segment = this.activeSegment;
    if (this.spare !== undefined || this.closed || segment.bytes < this.segmentBytes / 2 || this.spareFailedAtBase === segment.base) return;
    this.spare = this.zeroSpare(segment.base);
  }

  /** Zeroes the spare in the background; a failure is remembered against the active segment's `base`. */
  private zeroSpare(base: number, bytes = this.segmentBytes): Spare {
    const path = join(this.dir, SPARE_SEGMENT_NAME);
    const spare: Spare = { path, bytes, ready: false, filled: Promise.resolve(false) };
    spare.filled = createZeroedFile(this.fs, path, bytes, () => this.closed).then(
      (whole) => (spare.ready = whole),
      async () => {
        // No room (or no disk): segments begin empty, as without a spare, until the next one.
        this.spareFailedAtBase = base;
        if (this.spare === spare) this.spare = undefined;
        await this.fs.unlink(path).catch(() => undefined);
        return false;
      },
    );
    return spare;
  }
}

/**
 * The frames of a group's records in one buffer of its own (so it can move to the I/O thread
 * whole), checksums still zero. Each record's value is copied here, once.
 */
function frameGroup(appends: PendingAppend[]): Buffer {
  let bytes = 0;
  for (const append of appends) bytes += append.bytes;
  const group = Buffer.allocUnsafeSlow(bytes);
  const view = new DataView(group.buffer, group.byteOffset, group.byteLength);
  let at = 0;
  for (const append of appends) for (const frame of append.frames) at = writeRecordFrame(group, at, frame.record, view);
  if (at !== bytes) throw new Error(`framed ${at} bytes where ${bytes} were sized`);
  return group;
}

function raise(map: Map<string, bigint>, key: string, value: bigint): void {
  const current = map.get(key);
  if (current === undefined || value > current) map.set(key, value);
}
