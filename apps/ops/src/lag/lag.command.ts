import type { Topics } from '@cms/contracts';
import type { Admin } from 'kafkajs';
import type { Client } from 'pg';

import { groupMembers, positionOf, positions, schemaExists } from '../services/log-positions';
import { SERVICES, serviceSpec, type ServiceSpec } from '../services/service-specs';

export interface LagRow {
  service: string;
  schema: string;
  consumer: string;
  topic: string;
  partitions: number;
  /** Records in the log the consumer has not applied yet, all partitions together. */
  lag: string;
  max_partition_lag: string;
  /** Live members of the consumer's group: 0 means the service is not running. */
  members: number;
  /** When the consumer last moved a checkpoint of this topic. */
  last_checkpoint_at: string | null;
}

export interface LagOptions {
  service?: string;
  schema?: string;
  json: boolean;
}

async function rowsFor(
  db: Client,
  admin: Admin,
  topics: Topics,
  spec: ServiceSpec,
  schema: string,
): Promise<LagRow[]> {
  if (!(await schemaExists(db, schema))) return [];
  const members = await groupMembers(admin, topics, spec);
  const all = await positions(db, admin, topics, spec, schema);
  const rows: LagRow[] = [];
  for (const consumer of spec.consumers) {
    for (const key of consumer.topics) {
      const topic = topics[key];
      const parts = all.filter((position) => position.consumer === consumer.name && position.topic === topic);
      const lags = parts.map((position) => position.high - positionOf(position));
      const updated = parts
        .map((position) => position.updatedAt)
        .filter((at): at is Date => at !== null)
        .sort((a, b) => b.getTime() - a.getTime())[0];
      rows.push({
        service: spec.name,
        schema,
        consumer: consumer.name,
        topic,
        partitions: parts.length,
        lag: lags.reduce((sum, lag) => sum + lag, 0n).toString(),
        max_partition_lag: lags.reduce((max, lag) => (lag > max ? lag : max), 0n).toString(),
        members: members.get(consumer.name) ?? 0,
        last_checkpoint_at: updated?.toISOString() ?? null,
      });
    }
  }
  return rows;
}

function table(rows: LagRow[]): string {
  const header = ['service', 'consumer', 'topic', 'lag', 'max/partition', 'members', 'last checkpoint'];
  const body = rows.map((row) => [
    row.service,
    row.consumer,
    row.topic,
    row.lag,
    row.max_partition_lag,
    String(row.members),
    row.last_checkpoint_at ?? '-',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((line) => line[column]!.length)),
  );
  return [header, ...body]
    .map((line) =>
      line
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * `ops lag [service]`: how far each consumer is behind the log, from the checkpoints the services
 * store with their projections (the truth; Kafka's group offsets are only a hint).
 */
export async function showLag(
  db: Client,
  admin: Admin,
  topics: Topics,
  options: LagOptions,
): Promise<number> {
  const specs = options.service ? [serviceSpec(options.service)] : [...SERVICES];
  const rows: LagRow[] = [];
  for (const spec of specs)
    rows.push(...(await rowsFor(db, admin, topics, spec, options.schema ?? spec.schema)));
  if (options.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
  else process.stdout.write(rows.length === 0 ? 'no service schema found\n' : `${table(rows)}\n`);
  return 0;
}
