import type { DataSource, EntityManager } from 'typeorm';

import { partitionKey } from './partition-key';

/** A partition's checkpoint row as a transaction that locked it found it. */
export interface StoredCheckpoint {
  /** The next record to apply; undefined while none was. */
  next: bigint | undefined;
  /** Records below it are replayed (see RecordContext.replaying); undefined without a replay. */
  horizon: bigint | undefined;
}

export interface CheckpointUpdate {
  topic: string;
  partition: number;
  next: bigint;
}

/**
 * Records `[from, to)` of a partition, none of which this consumer applies, read past without a
 * transaction: the checkpoint there is stored with the partition's next transaction, or at the latest
 * after `lazyCheckpointMs`.
 */
export interface SkippedRun {
  topic: string;
  partition: number;
  from: bigint;
  to: bigint;
  since: number;
}

/** A partition whose stored checkpoint turned out to be behind the records read past there. */
export interface Rewind {
  topic: string;
  partition: number;
  next: bigint;
}

/**
 * The stored checkpoint is below the first record in hand: records between them were never applied
 * here, or their commit was lost (Postgres crashed with commits not yet flushed, a failover to a replica
 * that lagged). The partition is read again from the checkpoint rather than skipping them.
 */
export class CheckpointBehindError extends Error {
  constructor(readonly next: bigint) {
    super(`the stored checkpoint ${next} is below the records in hand`);
    this.name = 'CheckpointBehindError';
  }
}

/**
 * A consumer's checkpoints: the rows in Postgres (`consumer_checkpoints`), which are the truth and
 * move only in the transaction that applied the records below them, and what this process knows
 * besides: which rows exist, where it read past records without storing the checkpoint yet (see
 * SkippedRun), and where it last read a partition again from. The fence compares a stored checkpoint
 * with the records in hand, so that a record is never applied twice nor skipped.
 */
export class CheckpointStore {
  /** Partitions whose row a committed transaction has seen, so none is inserted for them any more. */
  private readonly knownRows = new Set<string>();
  /**
   * Per partition, the checkpoint it was last read again from: when the log itself has no records
   * there (retention, compaction), the next records in hand are above it once more, and that is a gap
   * in the log, not lost work.
   */
  private readonly rewoundTo = new Map<string, bigint>();
  /** Per partition, what was read past without a transaction (see SkippedRun). */
  private readonly skipped = new Map<string, SkippedRun>();

  constructor(
    private readonly consumer: string,
    private readonly dataSource: DataSource,
  ) {}

  /** The stored checkpoints of a topic's partitions (the next offset to read), outside any transaction. */
  async storedOffsets(topic: string): Promise<Map<number, string>> {
    const rows: Array<{ partition: number; next_offset: string }> = await this.dataSource.query(
      'SELECT partition, next_offset::text AS next_offset FROM consumer_checkpoints WHERE consumer = $1 AND topic = $2',
      [this.consumer, topic],
    );
    return new Map(rows.map((row) => [row.partition, row.next_offset]));
  }

  /**
   * Locks the checkpoint rows of the partitions, in one order whoever asks (so two transactions never
   * wait for each other), creating the missing ones. Returns each one's checkpoint and replay horizon,
   * by partitionKey.
   */
  async lock(
    manager: EntityManager,
    partitions: Array<{ topic: string; partition: number }>,
  ): Promise<Map<string, StoredCheckpoint>> {
    const unknown = partitions.filter(
      ({ topic, partition }) => !this.knownRows.has(partitionKey(topic, partition)),
    );
    if (unknown.length > 0) {
      await manager.query(
        `INSERT INTO consumer_checkpoints (consumer, topic, partition, next_offset)
         SELECT $1, u.topic, u.partition, -1 FROM unnest($2::text[], $3::int[]) AS u(topic, partition)
         ON CONFLICT DO NOTHING`,
        [this.consumer, unknown.map((p) => p.topic), unknown.map((p) => p.partition)],
      );
    }
    const rows: Array<{
      topic: string;
      partition: number;
      next_offset: string;
      until_offset: string | null;
    }> = await manager.query(
      `SELECT c.topic, c.partition, c.next_offset::text AS next_offset, h.until_offset::text AS until_offset
           FROM consumer_checkpoints c
           LEFT JOIN replay_horizons h USING (consumer, topic, partition)
          WHERE c.consumer = $1
            AND (c.topic, c.partition) IN (SELECT * FROM unnest($2::text[], $3::int[]))
          ORDER BY c.topic, c.partition
            FOR UPDATE OF c`,
      [this.consumer, partitions.map((p) => p.topic), partitions.map((p) => p.partition)],
    );
    const stored = new Map<string, StoredCheckpoint>();
    for (const row of rows) {
      const next = BigInt(row.next_offset);
      stored.set(partitionKey(row.topic, row.partition), {
        next: next < 0n ? undefined : next,
        horizon: row.until_offset ? BigInt(row.until_offset) : undefined,
      });
    }
    return stored;
  }

  /**
   * The fence, for records of a partition in hand from offset `first` on: throws CheckpointBehindError
   * when the locked checkpoint is below them (and below what was read past just before them), unless
   * the partition was just read again from there and the log has nothing in between.
   */
  fence(
    stored: ReadonlyMap<string, StoredCheckpoint>,
    topic: string,
    partition: number,
    first: string,
  ): void {
    const key = partitionKey(topic, partition);
    const { next } = stored.get(key) ?? {};
    const run = this.skipped.get(key);
    const firstInHand = BigInt(first);
    // What was read past before the chunk counts as in hand: the checkpoint stayed where it began.
    const inHandFrom = run && run.to === firstInHand ? run.from : firstInHand;
    if (next !== undefined && inHandFrom > next && this.rewoundTo.get(key) !== next) {
      throw new CheckpointBehindError(next);
    }
  }

  /**
   * Where the checkpoints of partitions only read past go: to the end of their run, or, when the
   * stored one is below the run's beginning (records before it were lost), nowhere: those partitions
   * are read again from it.
   */
  settleReadPast(
    stored: ReadonlyMap<string, StoredCheckpoint>,
    runs: SkippedRun[],
  ): { updates: CheckpointUpdate[]; rewinds: Rewind[] } {
    const updates: CheckpointUpdate[] = [];
    const rewinds: Rewind[] = [];
    for (const run of runs) {
      const { next } = stored.get(partitionKey(run.topic, run.partition)) ?? {};
      if (next !== undefined && next < run.from) rewinds.push({ ...run, next });
      else updates.push({ topic: run.topic, partition: run.partition, next: run.to });
    }
    return { updates, rewinds };
  }

  /** Moves checkpoints forward (never back), in the transaction that applied the records below them. */
  async move(manager: EntityManager, updates: CheckpointUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    await manager.query(
      `UPDATE consumer_checkpoints c
          SET next_offset = GREATEST(c.next_offset, u.next), updated_at = now()
         FROM unnest($2::text[], $3::int[], $4::bigint[]) AS u(topic, partition, next)
        WHERE c.consumer = $1 AND c.topic = u.topic AND c.partition = u.partition`,
      [
        this.consumer,
        updates.map((u) => u.topic),
        updates.map((u) => u.partition),
        updates.map((u) => u.next.toString()),
      ],
    );
  }

  /**
   * After a commit: the partitions' rows exist, and what was read past there is stored. Only then: a
   * rolled-back transaction takes the checkpoint rows it inserted with it.
   */
  committed(partitions: ReadonlyArray<{ topic: string; partition: number }>): void {
    for (const { topic, partition } of partitions) {
      const key = partitionKey(topic, partition);
      this.knownRows.add(key);
      this.skipped.delete(key);
    }
  }

  /** The partition is read again from `next`, its stored checkpoint. */
  rewound(topic: string, partition: number, next: bigint): void {
    const key = partitionKey(topic, partition);
    this.rewoundTo.set(key, next);
    this.skipped.delete(key);
  }

  /** Notes records `[from, to)` of a partition read past without a transaction. */
  readPast(topic: string, partition: number, from: bigint, to: bigint): void {
    const key = partitionKey(topic, partition);
    const run = this.skipped.get(key);
    if (run) run.to = to;
    else this.skipped.set(key, { topic, partition, from, to, since: Date.now() });
  }

  /**
   * Whether records from `first` on follow what was read past in the partition, or nothing was. After a
   * gap (a seek, records gone from the log) they go through a transaction, which compares them with
   * the stored checkpoint.
   */
  continuesReadPast(topic: string, partition: number, first: string): boolean {
    const run = this.skipped.get(partitionKey(topic, partition));
    return !run || run.to === BigInt(first);
  }

  get hasReadPast(): boolean {
    return this.skipped.size > 0;
  }

  /** Whether records were read past at `due` or before and their checkpoint is still not stored. */
  readPastBy(due: number): boolean {
    for (const run of this.skipped.values()) if (run.since <= due) return true;
    return false;
  }

  /** The runs read past, outside the partitions in `inHand` (partitionKeys) if given. */
  readPastRuns(inHand?: ReadonlySet<string>): SkippedRun[] {
    const runs: SkippedRun[] = [];
    for (const [key, run] of this.skipped) if (!inHand?.has(key)) runs.push(run);
    return runs;
  }

  /** Seeking to the checkpoints (a new assignment) reads again what was read past without storing them. */
  forgetReadPast(): void {
    this.skipped.clear();
  }
}
