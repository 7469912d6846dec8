import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { TopicSpec } from '../../model/bus.js';

/**
 * The embedded bus's topics, kept beside its log so that a topic keeps its partition count across
 * restarts (records are placed by key modulo partitions; a changed count would split a trace).
 */

const FILE_NAME = 'topics.json';

export async function readTopics(dir: string): Promise<TopicSpec[]> {
  try {
    return (JSON.parse(await readFile(join(dir, FILE_NAME), 'utf8')) as { topics: TopicSpec[] }).topics;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Replaces the topics file atomically (written aside, synced, renamed over). */
export async function writeTopics(dir: string, topics: TopicSpec[]): Promise<void> {
  const path = join(dir, FILE_NAME);
  const handle = await open(`${path}.tmp`, 'w');
  try {
    await handle.writeFile(JSON.stringify({ topics }));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(`${path}.tmp`, path);
}
