import { join } from 'node:path';
import type { DiskFs } from './disk-fs.js';
import { readTextIfPresent, replaceFileDurably } from './durable-file.js';

/**
 * Committed offsets of the embedded bus's consumer groups, kept in one small JSON file replaced
 * durably (see replaceFileDurably). Per group: the next offset per topic and
 * partition, and the log position from which a restarted consumer reads again (everything of its
 * topics before it is committed).
 */

export interface GroupOffsets {
  resumePosition: number;
  /** topic -> partition -> next offset to consume. */
  topics: Map<string, Map<number, bigint>>;
}

export type CommittedOffsets = Map<string, GroupOffsets>;

const FILE_NAME = 'offsets.json';
const FORMAT_VERSION = 1;

interface FileShape {
  version: number;
  groups: Record<string, { resume_position: number; topics: Record<string, Record<string, string>> }>;
}

/** Reads the offsets file in `dir`; none yet is no offsets. */
export async function readOffsets(fs: DiskFs, dir: string): Promise<CommittedOffsets> {
  const text = await readTextIfPresent(fs, join(dir, FILE_NAME));
  if (text === undefined) return new Map();
  const parsed = JSON.parse(text) as FileShape;
  if (parsed.version !== FORMAT_VERSION) throw new Error(`${join(dir, FILE_NAME)}: unknown format version ${parsed.version}`);
  const offsets: CommittedOffsets = new Map();
  for (const [group, entry] of Object.entries(parsed.groups)) {
    const topics = new Map<string, Map<number, bigint>>();
    for (const [topic, partitions] of Object.entries(entry.topics)) {
      topics.set(topic, new Map(Object.entries(partitions).map(([partition, offset]) => [Number(partition), BigInt(offset)])));
    }
    offsets.set(group, { resumePosition: entry.resume_position, topics });
  }
  return offsets;
}

/** Replaces the offsets file in `dir` with `offsets`, durably. */
export async function writeOffsets(fs: DiskFs, dir: string, offsets: CommittedOffsets): Promise<void> {
  const shape: FileShape = { version: FORMAT_VERSION, groups: {} };
  for (const [group, entry] of offsets) {
    const topics: Record<string, Record<string, string>> = {};
    for (const [topic, partitions] of entry.topics) {
      topics[topic] = Object.fromEntries([...partitions].map(([partition, offset]) => [String(partition), offset.toString()]));
    }
    shape.groups[group] = { resume_position: entry.resumePosition, topics };
  }
  await replaceFileDurably(fs, join(dir, FILE_NAME), JSON.stringify(shape));
}

/** A deep copy, so a snapshot being written is not changed by later commits. */
export function copyOffsets(offsets: CommittedOffsets): CommittedOffsets {
  const copy: CommittedOffsets = new Map();
  for (const [group, entry] of offsets) {
    copy.set(group, { resumePosition: entry.resumePosition, topics: new Map([...entry.topics].map(([topic, partitions]) => [topic, new Map(partitions)])) });
  }
  return copy;
}
