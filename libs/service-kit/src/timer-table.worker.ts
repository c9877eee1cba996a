import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';

import { PolledWorker } from './polled-worker';

/** What every worker of a service's job tables is given (see `workerSettings`). */
export interface WorkerSettings {
  dataSource: DataSource;
  /** Where the commit signals that wake it are listened for. */
  wakeOn: { databaseUrl: string; schema: string };
  logger: Logger;
  /** It wrote records to the outbox: the relay may publish. */
  onOutboxWritten(): void;
}

/** A timer worker's settings: the shared ones, its batch and its safety poll. */
export interface TimerWorkerSettings extends WorkerSettings {
  batchSize: number;
  /** The safety poll: the longest sleep when no timer is due (a commit signal or a due time wakes it sooner). */
  pollMs: number;
}

/** The table of timers a worker fires. */
export interface TimerTable {
  /** A row each, with `id` and `due_at` (timestamptz), indexed by `due_at`. */
  table: string;
  /** The columns a fired row brings, besides `due_at`. */
  columns: readonly string[];
  /** The commit signal of new timers (signalOnCommit). */
  signal: string;
}

/** A fired timer: its columns, `due_at`, and `now`, the time of the transaction that fired it. */
export type FiredTimer<R> = R & { due_at: Date; now: Date };

/**
 * Fires the due rows of a table of durable timers (DESIGN §5): takes them with FOR UPDATE SKIP LOCKED
 * and, in the same transaction, deletes them and hands them to `fired`, which appends the records they
 * become to the outbox. No I/O happens in between, so the transaction is the lease: a worker that dies
 * leaves its timers due for the next turn (or another replica), and a timer fires once; one that fell
 * due while the service was down fires as soon as it is back. Between turns it sleeps until the
 * earliest due time, a commit signal of new timers, or the safety poll.
 */
export abstract class TimerTableWorker<R extends object> extends PolledWorker {
  protected constructor(
    private readonly settings: TimerWorkerSettings,
    private readonly timers: TimerTable,
  ) {
    super({
      concurrency: 1,
      pollMs: settings.pollMs,
      logger: settings.logger,
      wakeOn: { ...settings.wakeOn, signal: timers.signal },
    });
  }

  /** In the firing transaction: the records the timers become, appended to the outbox. */
  protected abstract fired(manager: EntityManager, timers: Array<FiredTimer<R>>): Promise<void>;

  protected override async nextDueAt(): Promise<number | undefined> {
    const rows: Array<{ at: number | null }> = await this.settings.dataSource.query(
      `SELECT (extract(epoch FROM min(due_at)) * 1000)::float8 AS at FROM ${this.timers.table}`,
    );
    return rows[0]?.at ?? undefined;
  }

  protected async turn(): Promise<boolean> {
    const { dataSource, batchSize } = this.settings;
    const { table, columns } = this.timers;
    const returning = [...columns, 'due_at'].map((column) => `t.${column}`).join(', ');
    const fired = await dataSource.transaction(async (manager) => {
      const timers = (await manager.query(
        `WITH due AS (
           SELECT id FROM ${table} WHERE due_at <= now()
            ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED
         ), fired AS (
           DELETE FROM ${table} t USING due WHERE t.id = due.id
           RETURNING ${returning}
         )
         SELECT fired.*, now() AS now FROM fired ORDER BY due_at, id`,
        [batchSize],
      )) as Array<FiredTimer<R>>;
      if (timers.length === 0) return 0;
      await this.fired(manager, timers);
      return timers.length;
    });
    if (fired > 0) this.settings.onOutboxWritten();
    return fired === batchSize;
  }
}
