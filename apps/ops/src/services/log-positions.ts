import { consumerGroup } from '@cms/config';
import type { Topics } from '@cms/contracts';
import type { Admin } from 'kafkajs';
import type { Client } from 'pg';

import type { ServiceSpec } from './service-specs';

export interface PartitionPosition {
  consumer: string;
  topic: string;
  partition: number;
  low: bigint;
  high: bigint;
  /** The first offset the consumer has not applied; null when it has applied nothing there yet. */
  checkpoint: bigint | null;
  updatedAt: Date | null;
}

export function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a schema name: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

export async function schemaExists(db: Client, schema: string): Promise<boolean> {
  const result = await db.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
  return result.rowCount === 1;
}

export async function tableExists(db: Client, schema: string, table: string): Promise<boolean> {
  const result = await db.query(
    'SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2',
    [schema, table],
  );
  return result.rowCount === 1;
}

/** Every partition of every topic the service's consumers read, with the consumer's checkpoint in `schema`. */
export async function positions(
  db: Client,
  admin: Admin,
  topics: Topics,
  spec: ServiceSpec,
  schema: string,
): Promise<PartitionPosition[]> {
  const stored = (await tableExists(db, schema, 'consumer_checkpoints'))
    ? (
        await db.query<{
          consumer: string;
          topic: string;
          partition: number;
          next_offset: string;
          updated_at: Date;
        }>(
          `SELECT consumer, topic, partition, next_offset::text AS next_offset, updated_at
               FROM ${quoteIdent(schema)}.consumer_checkpoints WHERE consumer = ANY($1)`,
          [spec.consumers.map((consumer) => consumer.name)],
        )
      ).rows
    : [];
  const result: PartitionPosition[] = [];
  for (const consumer of spec.consumers) {
    for (const key of consumer.topics) {
      const topic = topics[key];
      for (const mark of await admin.fetchTopicOffsets(topic)) {
        const row = stored.find(
          (candidate) =>
            candidate.consumer === consumer.name &&
            candidate.topic === topic &&
            candidate.partition === mark.partition,
        );
        const next = row ? BigInt(row.next_offset) : null;
        result.push({
          consumer: consumer.name,
          topic,
          partition: mark.partition,
          low: BigInt(mark.low),
          high: BigInt(mark.high),
          checkpoint: next === null || next < 0n ? null : next,
          updatedAt: row?.updated_at ?? null,
        });
      }
    }
  }
  return result.sort(
    (a, b) =>
      a.consumer.localeCompare(b.consumer) || a.topic.localeCompare(b.topic) || a.partition - b.partition,
  );
}

/** Where the consumer is in the partition: its checkpoint, or the start of what the log still holds. */
export function positionOf(position: PartitionPosition): bigint {
  const at = position.checkpoint ?? position.low;
  return at < position.low ? position.low : at;
}

/** Live members of each consumer's group, by consumer name; a service with none is stopped. */
export async function groupMembers(
  admin: Admin,
  topics: Topics,
  spec: ServiceSpec,
): Promise<Map<string, number>> {
  const groups = spec.consumers.map(
    (consumer) => [consumer.name, consumerGroup(topics, consumer.name)] as const,
  );
  const described = await admin.describeGroups(groups.map(([, group]) => group));
  return new Map(
    groups.map(([name, group]) => [
      name,
      described.groups.find((candidate) => candidate.groupId === group)?.members.length ?? 0,
    ]),
  );
}
