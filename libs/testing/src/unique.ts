import { randomBytes } from 'node:crypto';

import type { Admin } from 'kafkajs';

/** A name no other suite or run uses: `<prefix>_<time>_<random>`, valid as a schema name. */
export function uniqueName(prefix: string): string {
  const clean = prefix.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return `${clean}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

export function uniqueTopic(prefix: string): string {
  return `test.${uniqueName(prefix).replace(/_/g, '-')}`;
}

export async function createTestTopics(
  admin: Admin,
  topics: Array<{ topic: string; partitions: number }>,
): Promise<void> {
  await admin.createTopics({
    topics: topics.map(({ topic, partitions }) => ({
      topic,
      numPartitions: partitions,
      replicationFactor: 1,
    })),
    // kafkajs' own wait for leaders retries only "leader not available" and gives up when a busy broker's
    // metadata does not know yet a topic it has just created ("This server does not host this
    // topic-partition"): the wait below asks again until every partition of every topic has its leader.
    waitForLeaders: false,
  });
  await eventually(
    'the new topics to have their leaders',
    async () => {
      const { topics: found } = await admin.fetchTopicMetadata({ topics: topics.map(({ topic }) => topic) });
      return (
        topics.every(({ topic, partitions }) => {
          const metadata = found.find((candidate) => candidate.name === topic);
          return (
            metadata?.partitions.length === partitions &&
            metadata.partitions.every((partition) => partition.leader >= 0)
          );
        }) || undefined
      );
    },
    60000,
  );
}

export async function deleteTestTopics(admin: Admin, topics: string[]): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const present = topics.filter((topic) => existing.has(topic));
  if (present.length > 0) await admin.deleteTopics({ topics: present });
}

/** Polls until `probe` returns a truthy value, or fails after `timeoutMs` with `what`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
