import type { Admin } from '@platformatic/kafka';
import type { PartitionOffsets } from '../../model/bus.js';

/** ListOffsets timestamp -1: the offset the next produced record will get. */
const LATEST = -1n;

/** Committed and end offsets of a group on a topic, per partition (committed 0 when none). */
export async function readOffsets(admin: Admin, group: string, topic: string): Promise<PartitionOffsets[]> {
  const metadata = await admin.metadata({ topics: [topic], forceUpdate: true });
  const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
  const indexes = Array.from({ length: count }, (_, index) => index);
  const [ends, committed] = await Promise.all([
    admin.listOffsets({ topics: [{ name: topic, partitions: indexes.map((partitionIndex) => ({ partitionIndex, timestamp: LATEST })) }] }),
    admin.listConsumerGroupOffsets({ groups: [{ groupId: group, topics: [{ name: topic, partitionIndexes: indexes }] }] }),
  ]);
  const endByPartition = new Map<number, bigint>();
  for (const row of ends.find((entry) => entry.name === topic)?.partitions ?? []) endByPartition.set(row.partitionIndex, row.offset);
  const committedByPartition = new Map<number, bigint>();
  for (const entry of committed) {
    for (const row of entry.topics.find((candidate) => candidate.name === topic)?.partitions ?? []) {
      if (row.committedOffset >= 0n) committedByPartition.set(row.partitionIndex, row.committedOffset);
    }
  }
  return indexes.map((partition) => ({ topic, partition, committed: committedByPartition.get(partition) ?? 0n, end: endByPartition.get(partition) ?? 0n }));
}

/**
 * Consumer groups with the topics they consume: assigned to a live member, or with committed
 * offsets. With `onlyTopics`, other topics are left out and so are groups left with none.
 */
export async function listGroupTopics(admin: Admin, onlyTopics?: ReadonlySet<string>): Promise<{ group: string; topics: string[] }[]> {
  const listed = await admin.listGroups();
  const ids = [...listed.keys()].sort();
  if (ids.length === 0) return [];
  const [described, committed] = await Promise.all([admin.describeGroups({ groups: ids }), admin.listConsumerGroupOffsets({ groups: ids })]);
  const topics = new Map<string, Set<string>>(ids.map((id) => [id, new Set<string>()]));
  for (const [id, group] of described) {
    for (const member of group.members.values()) for (const topic of member.assignments?.keys() ?? []) topics.get(id)?.add(topic);
  }
  for (const entry of committed) {
    for (const topic of entry.topics) if (topic.partitions.some((row) => row.committedOffset >= 0n)) topics.get(entry.groupId)?.add(topic.name);
  }
  const listedGroups = ids.map((group) => ({
    group,
    topics: [...(topics.get(group) ?? [])].filter((topic) => onlyTopics === undefined || onlyTopics.has(topic)).sort(),
  }));
  return onlyTopics === undefined ? listedGroups : listedGroups.filter((entry) => entry.topics.length > 0);
}
