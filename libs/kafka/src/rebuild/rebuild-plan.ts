import type { Admin } from 'kafkajs';
import type { DataSource } from 'typeorm';

import { partitionKey } from '../consumer/consumer-runtime';

/** Offsets per topic and partition: `{ "cms.requests.v1": { "0": "1200", "1": "0" } }`. */
export type PartitionOffsets = Record<string, Record<string, string>>;

export interface ConsumerRebuild {
  /** Stop before these offsets: the rebuild is done when every partition got there. */
  until: PartitionOffsets;
  /** Raise the replay horizon to at least these offsets first (nothing below them is emitted again). */
  horizon?: PartitionOffsets;
}

/**
 * What `ops replay` asks of a service started as `main.js rebuild` (in REBUILD_PLAN, as JSON): apply
 * the log to its schema up to `until`, then exit.
 */
export interface RebuildPlan {
  /**
   * In place, the `replays` row of this rebuild: the first process to take it from `preparing` to
   * `rebuilding` raises the horizons to the checkpoints and empties the projection, in one
   * transaction, so a re-run after an interruption resumes instead of starting over.
   */
  replayId?: string;
  /** Appended to each consumer group, so the rebuild never joins the live service's group. */
  group: string;
  /** Whether the rebuild relays its outbox (what it emits above the horizon) to Kafka. */
  publish: boolean;
  consumers: Record<string, ConsumerRebuild>;
}

export class RebuildPlanError extends Error {
  constructor(message: string) {
    super(`REBUILD_PLAN: ${message}`);
    this.name = 'RebuildPlanError';
  }
}

function isOffsets(value: unknown): value is PartitionOffsets {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every(
    (partitions) =>
      typeof partitions === 'object' &&
      partitions !== null &&
      Object.entries(partitions as Record<string, unknown>).every(
        ([partition, offset]) =>
          /^\d+$/.test(partition) && typeof offset === 'string' && /^\d+$/.test(offset),
      ),
  );
}

/** Reads and checks REBUILD_PLAN; a service refuses to start on a malformed plan. */
export function parseRebuildPlan(text: string): RebuildPlan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RebuildPlanError('not JSON');
  }
  const plan = value as Partial<RebuildPlan>;
  if (typeof plan !== 'object' || plan === null) throw new RebuildPlanError('not an object');
  if (typeof plan.group !== 'string' || !/^[a-z0-9][a-z0-9_.-]{0,60}$/.test(plan.group))
    throw new RebuildPlanError('group must be a short lower-case name');
  if (typeof plan.publish !== 'boolean') throw new RebuildPlanError('publish must be true or false');
  if (plan.replayId !== undefined && (typeof plan.replayId !== 'string' || !/^\d+$/.test(plan.replayId)))
    throw new RebuildPlanError('replayId must be a number in a string');
  if (typeof plan.consumers !== 'object' || plan.consumers === null)
    throw new RebuildPlanError('consumers must be an object');
  for (const [name, consumer] of Object.entries(plan.consumers)) {
    if (!isOffsets(consumer.until)) throw new RebuildPlanError(`consumers.${name}.until must map offsets`);
    if (consumer.horizon !== undefined && !isOffsets(consumer.horizon))
      throw new RebuildPlanError(`consumers.${name}.horizon must map offsets`);
  }
  return plan as RebuildPlan;
}

/** The plan's `until` of one consumer as ConsumerRuntime takes it. */
export function untilOf(plan: RebuildPlan, consumer: string): Map<string, bigint> {
  const until = new Map<string, bigint>();
  for (const [topic, partitions] of Object.entries(plan.consumers[consumer]?.until ?? {}))
    for (const [partition, offset] of Object.entries(partitions))
      until.set(partitionKey(topic, Number(partition)), BigInt(offset));
  return until;
}

function rows(offsets: PartitionOffsets): Array<[string, number, string]> {
  return Object.entries(offsets).flatMap(([topic, partitions]) =>
    Object.entries(partitions).map(([partition, offset]): [string, number, string] => [
      topic,
      Number(partition),
      offset,
    ]),
  );
}

/**
 * Runs before the consumers start. Raises the horizons the plan names; in place, the first time, also
 * raises each horizon to its checkpoint and empties the projection and the consumers' checkpoints and
 * dead letters, all in one transaction.
 */
export async function prepareRebuild(
  dataSource: DataSource,
  plan: RebuildPlan,
  projectionTables: string[],
): Promise<{ emptied: boolean }> {
  const consumers = Object.keys(plan.consumers);
  return dataSource.transaction(async (manager) => {
    for (const [consumer, rebuild] of Object.entries(plan.consumers)) {
      for (const [topic, partition, offset] of rows(rebuild.horizon ?? {})) {
        await manager.query(
          `INSERT INTO replay_horizons (consumer, topic, partition, until_offset) VALUES ($1, $2, $3, $4)
           ON CONFLICT (consumer, topic, partition)
           DO UPDATE SET until_offset = GREATEST(replay_horizons.until_offset, EXCLUDED.until_offset)`,
          [consumer, topic, partition, offset],
        );
      }
    }
    if (plan.replayId === undefined) return { emptied: false };
    const taken: unknown[] = await manager.query(
      `UPDATE replays SET phase = 'rebuilding' WHERE id = $1 AND phase = 'preparing' RETURNING id`,
      [plan.replayId],
    );
    // Flattened by TypeORM for UPDATE … RETURNING: [rows, count].
    const count = Array.isArray(taken[0]) ? (taken[0] as unknown[]).length : taken.length;
    if (count === 0) return { emptied: false };
    await manager.query(
      `INSERT INTO replay_horizons (consumer, topic, partition, until_offset)
       SELECT consumer, topic, partition, next_offset FROM consumer_checkpoints
        WHERE consumer = ANY($1) AND next_offset >= 0
       ON CONFLICT (consumer, topic, partition)
       DO UPDATE SET until_offset = GREATEST(replay_horizons.until_offset, EXCLUDED.until_offset)`,
      [consumers],
    );
    if (projectionTables.length > 0)
      await manager.query(`TRUNCATE ${projectionTables.map((table) => `"${table}"`).join(', ')}`);
    await manager.query('DELETE FROM consumer_checkpoints WHERE consumer = ANY($1)', [consumers]);
    await manager.query('DELETE FROM dead_letters WHERE consumer = ANY($1)', [consumers]);
    return { emptied: true };
  });
}

/** Whether every partition the plan names got to its `until` (or has nothing below it). */
export async function rebuildDone(dataSource: DataSource, admin: Admin, plan: RebuildPlan): Promise<boolean> {
  const lows = new Map<string, bigint>();
  for (const [consumer, rebuild] of Object.entries(plan.consumers)) {
    const stored: Array<{ topic: string; partition: number; next_offset: string }> = await dataSource.query(
      'SELECT topic, partition, next_offset::text AS next_offset FROM consumer_checkpoints WHERE consumer = $1',
      [consumer],
    );
    const at = new Map(
      stored.map((row) => [partitionKey(row.topic, row.partition), BigInt(row.next_offset)]),
    );
    for (const [topic, partition, offset] of rows(rebuild.until)) {
      const key = partitionKey(topic, partition);
      if (!lows.has(key)) {
        for (const mark of await admin.fetchTopicOffsets(topic))
          lows.set(partitionKey(topic, mark.partition), BigInt(mark.low));
      }
      const position = at.get(key) ?? lows.get(key) ?? 0n;
      if (position < BigInt(offset) && (lows.get(key) ?? 0n) < BigInt(offset)) return false;
    }
  }
  return true;
}
