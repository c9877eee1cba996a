import type { NotificationSendStatus } from '@cms/contracts';
import { upsertEntities } from '@cms/persistence';
import { In, Not, type EntityManager } from 'typeorm';

import { SendCountsEntity, SendEntity, SendFanoutEntity } from './send.entity';

/** Send ids are numbered per partition of the requests topic: id = (n − 1) × 256 + partition + 1. */
export const SEND_ID_PARTITIONS = 256;

/** The statuses a send no longer leaves. */
export const FINISHED: ReadonlySet<NotificationSendStatus> = new Set(['completed', 'cancelled', 'failed']);

/** The sends, their counters and fan-outs, through the decision's transaction. */
export class SendStore {
  constructor(private readonly manager: EntityManager) {}

  /** A new send's id: the partition's next, in the order the partition's records come (so a rebuild mints the same). */
  async nextId(partition: number): Promise<number> {
    const rows: Array<{ next: string }> = await this.manager.query(
      `INSERT INTO send_id_counters (partition, next) VALUES ($1, 1)
       ON CONFLICT (partition) DO UPDATE SET next = send_id_counters.next + 1
       RETURNING next`,
      [partition],
    );
    return (Number(rows[0]!.next) - 1) * SEND_ID_PARTITIONS + partition + 1;
  }

  async insert(send: SendEntity): Promise<void> {
    await upsertEntities(this.manager, SendEntity, [send]);
  }

  findInWorkspace(workspaceId: number, id: number): Promise<SendEntity | null> {
    return this.manager
      .getRepository(SendEntity)
      .findOne({ where: { id, workspaceId }, lock: { mode: 'pessimistic_write' } });
  }

  /** The status and what comes with it; only the columns the requests consumer owns. */
  async setStatus(
    send: SendEntity,
    status: NotificationSendStatus,
    at: Date,
    also: Partial<Pick<SendEntity, 'audienceSize' | 'deduplicated'>> = {},
  ): Promise<void> {
    send.status = status;
    send.updatedAt = at;
    if (FINISHED.has(status)) send.finishedAt = at;
    Object.assign(send, also);
    await this.manager.getRepository(SendEntity).update(
      { id: send.id },
      {
        status,
        updatedAt: at,
        finishedAt: send.finishedAt,
        audienceSize: send.audienceSize,
        deduplicated: send.deduplicated,
      },
    );
  }

  unfinishedOfNotification(notificationId: number): Promise<SendEntity[]> {
    return this.manager.getRepository(SendEntity).find({
      where: { notificationId, status: Not(In([...FINISHED])) },
      order: { id: 'ASC' },
    });
  }

  /** The send's members start to be asked for (a job: set live only). */
  async startFanout(send: SendEntity, at: Date): Promise<void> {
    await upsertEntities(this.manager, SendFanoutEntity, [
      Object.assign(new SendFanoutEntity(), {
        sendId: send.id,
        workspaceId: send.workspaceId,
        nextPosition: 0,
        dueAt: at,
        recent: [],
      }),
    ]);
  }

  async endFanout(sendId: number): Promise<void> {
    await this.manager.getRepository(SendFanoutEntity).delete({ sendId });
  }
}

/** Reads for the API: sends with their counts. */
export async function sendsWithCounts(
  manager: EntityManager,
  sends: SendEntity[],
): Promise<Array<{ send: SendEntity; counts: SendCountsEntity | null }>> {
  if (sends.length === 0) return [];
  const counts = new Map(
    (await manager.getRepository(SendCountsEntity).findBy({ sendId: In(sends.map((send) => send.id)) })).map(
      (row) => [Number(row.sendId), row],
    ),
  );
  return sends.map((send) => ({ send, counts: counts.get(Number(send.id)) ?? null }));
}
