import { join } from 'node:path';
import type { TopicSpec } from '../../model/bus.js';
import type { DiskFs } from './disk-fs.js';
import { readTextIfPresent, replaceFileDurably } from './durable-file.js';

/**
 * The embedded bus's topics, kept beside its log so that a topic keeps its partition count across
 * restarts (records are placed by key modulo partitions; a changed count would split a trace).
 */

const FILE_NAME = 'topics.json';

export async function readTopics(fs: DiskFs, dir: string): Promise<TopicSpec[]> {
  const text = await readTextIfPresent(fs, join(dir, FILE_NAME));
  return text === undefined ? [] : (JSON.parse(text) as { topics: TopicSpec[] }).topics;
}

/** Replaces the topics file durably (see replaceFileDurably). */
export async function writeTopics(fs: DiskFs, dir: string, topics: TopicSpec[]): Promise<void> {
  await replaceFileDurably(fs, join(dir, FILE_NAME), JSON.stringify({ topics }));
}
