import { ALERT_REQUEST_TYPES, deterministicId, MESSAGING_REQUEST_TYPES } from '@cms/contracts';
import { idFromDatabase } from '@cms/persistence';
import { PolledWorker } from '@cms/service-kit';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

import { appendWorkerRecords, type WorkerRecord } from './worker-records';
import { TIMERS_SIGNAL } from './work-signals';

export interface TimerWorkerOptions {
  dataSource: DataSource;
  requestsTopic: string;
  batchSize: number;
  /** The safety poll: the longest sleep when no timer is due (a commit signal or a due time wakes it sooner). */
  pollMs: number;
  /** Where the commit signal of new timers (TIMERS_SIGNAL) is listened for. */
  wakeOn: { databaseUrl: string; schema: string };
  logger: Logger;
  onOutboxWritten(): void;
}

interface DueTimer {
  id: string;
  workspace_id: string;
  message_id: string;
  kind: 'receipt' | 'timeout' | 'alert';
  payload: { status?: string; step?: number; rule_id?: number };
  due_at: Date;
  now: Date;
}

/** The record a timer becomes: the sandbox's receipt, the end of a route step's wait, an alert's check. */
function recordOf(timer: DueTimer): WorkerRecord {
  const at = new Date(timer.due_at).toISOString();
  const base = {
    id: deterministicId(timer.id, 'fired'),
    workspaceId: idFromDatabase(timer.workspace_id),
    messageId: timer.message_id,
  };
  if (timer.kind === 'receipt') {
    return {
      ...base,
      type: MESSAGING_REQUEST_TYPES.messageReceipt,
      data: { message_id: timer.message_id, status: timer.payload.status, at, source: 'sandbox' },
    };
  }
  if (timer.kind === 'alert') {
    return {
      ...base,
      type: ALERT_REQUEST_TYPES.alertCheck,
      data: { alert_id: timer.message_id, rule_id: timer.payload.rule_id, at },
    };
  }
  return {
    ...base,
    type: MESSAGING_REQUEST_TYPES.messageTimeout,
    data: { message_id: timer.message_id, step: timer.payload.step, at },
  };
}

/**
 * Fires the due timers (DESIGN §5): takes them with FOR UPDATE SKIP LOCKED and, in the same
 * transaction, removes them and appends their records to the outbox; no I/O happens in between, so
 * the transaction is the lease: a worker that dies leaves the timers due for the next one, and a
 * timer fires once.
 */
export class TimerWorker extends PolledWorker {
  constructor(private readonly options: TimerWorkerOptions) {
    super({
      concurrency: 1,
      pollMs: options.pollMs,
      logger: options.logger,
      wakeOn: { ...options.wakeOn, signal: TIMERS_SIGNAL },
    });
  }

  protected override async nextDueAt(): Promise<number | undefined> {
    const rows: Array<{ at: number | null }> = await this.options.dataSource.query(
      'SELECT (extract(epoch FROM min(due_at)) * 1000)::float8 AS at FROM messaging_timers',
    );
    return rows[0]?.at ?? undefined;
  }

  protected async turn(): Promise<boolean> {
    const { dataSource, batchSize, requestsTopic } = this.options;
    const fired = await dataSource.transaction(async (manager) => {
      const timers = (await manager.query(
        `WITH due AS (
           SELECT id FROM messaging_timers WHERE due_at <= now()
            ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED
         ), fired AS (
           DELETE FROM messaging_timers t USING due WHERE t.id = due.id
           RETURNING t.id, t.workspace_id, t.message_id, t.kind, t.payload, t.due_at
         )
         SELECT fired.*, now() AS now FROM fired ORDER BY due_at, id`,
        [batchSize],
      )) as DueTimer[];
      if (timers.length === 0) return 0;
      await appendWorkerRecords(manager, requestsTopic, timers.map(recordOf), new Date(timers[0]!.now));
      return timers.length;
    });
    if (fired > 0) this.options.onOutboxWritten();
    return fired === batchSize;
  }
}
