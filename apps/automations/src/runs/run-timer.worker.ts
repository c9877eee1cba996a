import {
  createEnvelope,
  deterministicId,
  RUN_INPUT_TYPES,
  type AutomationTimerFiredV1,
} from '@cms/contracts';
import { appendToOutbox, envelopeRecord } from '@cms/kafka';
import { idFromDatabase } from '@cms/persistence';
import { PolledWorker } from '@cms/service-kit';
import type { Logger } from 'pino';
import { In, type DataSource } from 'typeorm';

import { SOURCE } from '../config';
import { ContactEntity } from '../contacts/contact.entity';
import { contactSnapshot } from './run-inputs';
import { RUN_TIMERS_SIGNAL } from './run-book';

export interface RunTimerWorkerOptions {
  dataSource: DataSource;
  requestsTopic: string;
  batchSize: number;
  /** The safety poll: the longest sleep when no timer is due (a commit signal or a due time wakes it sooner). */
  pollMs: number;
  wakeOn: { databaseUrl: string; schema: string };
  logger: Logger;
  onOutboxWritten(): void;
}

interface DueTimer {
  id: string;
  workspace_id: string;
  run_id: string;
  contact_id: string;
  due_at: Date;
  now: Date;
}

/**
 * Fires the runs' due timers (DESIGN §5, extensions §12): takes them with FOR UPDATE SKIP LOCKED and,
 * in the same transaction, deletes them and appends their automation.timer.fired records, each with
 * the contact as the service's view has it then, to the outbox for the requests topic. No I/O happens
 * in between, so the transaction is the lease: a worker that dies leaves its timers due for the next
 * turn (or another replica), and a timer fires once; one that fell due while the service was down
 * fires as soon as it is back. The runs consumer decides the record in the workspace's order.
 */
export class RunTimerWorker extends PolledWorker {
  constructor(private readonly options: RunTimerWorkerOptions) {
    super({
      concurrency: 1,
      pollMs: options.pollMs,
      logger: options.logger,
      wakeOn: { ...options.wakeOn, signal: RUN_TIMERS_SIGNAL },
    });
  }

  protected override async nextDueAt(): Promise<number | undefined> {
    const rows: Array<{ at: number | null }> = await this.options.dataSource.query(
      'SELECT (extract(epoch FROM min(due_at)) * 1000)::float8 AS at FROM run_timers',
    );
    return rows[0]?.at ?? undefined;
  }

  protected async turn(): Promise<boolean> {
    const { dataSource, batchSize, requestsTopic } = this.options;
    const fired = await dataSource.transaction(async (manager) => {
      const timers = (await manager.query(
        `WITH due AS (
           SELECT id FROM run_timers WHERE due_at <= now()
            ORDER BY due_at LIMIT $1 FOR UPDATE SKIP LOCKED
         ), fired AS (
           DELETE FROM run_timers t USING due WHERE t.id = due.id
           RETURNING t.id, t.workspace_id, t.run_id, t.contact_id, t.due_at
         )
         SELECT fired.*, now() AS now FROM fired ORDER BY due_at, id`,
        [batchSize],
      )) as DueTimer[];
      if (timers.length === 0) return 0;
      const contactIds = [...new Set(timers.map((timer) => idFromDatabase(timer.contact_id)!))];
      const contacts = new Map(
        (await manager.getRepository(ContactEntity).findBy({ id: In(contactIds) })).map((row) => [
          row.id,
          row,
        ]),
      );
      const time = new Date(timers[0]!.now).toISOString();
      await appendToOutbox(
        manager,
        timers.map((timer) => {
          const workspaceId = idFromDatabase(timer.workspace_id)!;
          const contact = contacts.get(idFromDatabase(timer.contact_id)!);
          const data: AutomationTimerFiredV1 = {
            timer_id: timer.id,
            run_id: idFromDatabase(timer.run_id)!,
            due_at: new Date(timer.due_at).toISOString(),
            contact: contact && contact.workspaceId === workspaceId ? contactSnapshot(contact) : null,
          };
          return envelopeRecord(
            requestsTopic,
            createEnvelope({
              id: deterministicId(timer.id, 'fired'),
              type: RUN_INPUT_TYPES.timer,
              source: SOURCE,
              workspaceid: String(workspaceId),
              subject: String(data.run_id),
              time,
              data,
            }),
          );
        }),
      );
      return timers.length;
    });
    if (fired > 0) this.options.onOutboxWritten();
    return fired === batchSize;
  }
}
