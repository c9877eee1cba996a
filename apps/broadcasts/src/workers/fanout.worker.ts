import {
  createEnvelope,
  deterministicId,
  MESSAGING_REQUEST_TYPES,
  type MessageSendRequestedV1,
  type NotificationRouteStep,
} from '@cms/contracts';
import { appendToOutbox, envelopeRecord, type OutboxRecord } from '@cms/kafka';
import { idFromDatabase } from '@cms/persistence';
import { PolledWorker, type WorkerSettings } from '@cms/service-kit';
import type { EntityManager } from 'typeorm';

import { SOURCE } from '../config';
import { FANOUT_SIGNAL } from '../decisions/broadcasts-decision';
import { batchAllowance, type RecentBatches } from './pacing';

export interface FanoutWorkerOptions extends WorkerSettings {
  requestsTopic: string;
  /** Members asked for at most per send and turn. */
  batchSize: number;
  /** Sends served at most per turn, each one batch. */
  sendsPerTurn: number;
  pollMs: number;
}

interface DueFanout {
  send_id: string;
  workspace_id: string;
  next_position: number;
  recent: RecentBatches;
  route: NotificationRouteStep[];
  variables: Record<string, unknown>;
  purpose: MessageSendRequestedV1['purpose'];
  test_mode: boolean;
  throttle_per_minute: number | null;
  now: Date;
}

/**
 * Makes the messages of sends that are `sending` (extensions §13): each turn takes the sends whose
 * fan-out is due, the longest waiting first, and asks messaging for one batch of each one's next
 * members (message.send.requested with `campaign_id` and `test`, through messaging's own decision
 * path: consent, suppressions, fallback, links), in the transaction that moves the fan-out on. So a
 * send of a million members takes its turn with every other send, `throttle_per_minute` is kept by
 * the batches of the last minute, and a crash loses nothing and asks for no member twice (the request
 * ids come from the send and the member's place, the outbox and the job's position commit together).
 * A send paused, cancelled or finished is not taken; its sends row is held (FOR SHARE) while its
 * batch is written, so a cancel is decided either before the batch or after it.
 */
export class FanoutWorker extends PolledWorker {
  constructor(private readonly options: FanoutWorkerOptions) {
    super({
      concurrency: 1,
      pollMs: options.pollMs,
      logger: options.logger,
      wakeOn: { ...options.wakeOn, signal: FANOUT_SIGNAL },
    });
  }

  protected override async nextDueAt(): Promise<number | undefined> {
    const rows: Array<{ at: number | null }> = await this.options.dataSource.query(
      `SELECT (extract(epoch FROM min(f.due_at)) * 1000)::float8 AS at
         FROM send_fanouts f JOIN sends s ON s.id = f.send_id WHERE s.status = 'sending'`,
    );
    return rows[0]?.at ?? undefined;
  }

  protected async turn(): Promise<boolean> {
    const { dataSource, sendsPerTurn } = this.options;
    const { written, more } = await dataSource.transaction(async (manager) => {
      const due = (await manager.query(
        `SELECT f.send_id, f.workspace_id, f.next_position, f.recent, s.route, s.variables, s.purpose,
                s.test_mode, s.throttle_per_minute, now() AS now
           FROM send_fanouts f JOIN sends s ON s.id = f.send_id
          WHERE f.due_at <= now() AND s.status = 'sending'
          ORDER BY f.due_at, f.send_id
          LIMIT $1
          FOR UPDATE OF f SKIP LOCKED
          FOR SHARE OF s SKIP LOCKED`,
        [sendsPerTurn],
      )) as DueFanout[];
      let records = 0;
      let full = false;
      for (const fanout of due) {
        const batch = await this.batch(manager, fanout);
        records += batch.records;
        full ||= batch.full;
      }
      return { written: records, more: due.length === sendsPerTurn || full };
    });
    if (written > 0) this.options.onOutboxWritten();
    return more;
  }

  /** One batch of a send's next members; the fan-out moved on, paced, or ended when none is left. */
  private async batch(
    manager: EntityManager,
    fanout: DueFanout,
  ): Promise<{ records: number; full: boolean }> {
    const sendId = idFromDatabase(fanout.send_id);
    const now = new Date(fanout.now).getTime();
    const allowance = batchAllowance(fanout.throttle_per_minute, fanout.recent, now, this.options.batchSize);
    if (allowance.size === 0) {
      await manager.query('UPDATE send_fanouts SET due_at = $2, recent = $3 WHERE send_id = $1', [
        sendId,
        new Date(allowance.nextAt),
        JSON.stringify(allowance.recent),
      ]);
      return { records: 0, full: false };
    }
    const members: Array<{ position: number; contact_id: string }> = await manager.query(
      `SELECT position, contact_id FROM send_members
        WHERE send_id = $1 AND position >= $2 ORDER BY position LIMIT $3`,
      [sendId, fanout.next_position, allowance.size],
    );
    if (members.length > 0) await appendToOutbox(manager, this.requests(fanout, sendId, members));
    if (members.length < allowance.size) {
      // Every member has been asked for: the send completes once its messages leave `queued`.
      await manager.query('DELETE FROM send_fanouts WHERE send_id = $1', [sendId]);
      return { records: members.length, full: false };
    }
    const recent: RecentBatches = [...allowance.recent, [now, members.length]];
    await manager.query(
      'UPDATE send_fanouts SET next_position = $2, due_at = $3, recent = $4 WHERE send_id = $1',
      [
        sendId,
        members.at(-1)!.position + 1,
        new Date(allowance.paceAfter(members.length)),
        JSON.stringify(recent),
      ],
    );
    return { records: members.length, full: true };
  }

  private requests(
    fanout: DueFanout,
    sendId: number,
    members: Array<{ position: number; contact_id: string }>,
  ): OutboxRecord[] {
    const workspaceId = String(idFromDatabase(fanout.workspace_id));
    const time = new Date(fanout.now).toISOString();
    return members.map((member) => {
      const contactId = idFromDatabase(member.contact_id);
      const data: MessageSendRequestedV1 = {
        contact_id: contactId,
        route: fanout.route as MessageSendRequestedV1['route'],
        variables: fanout.variables,
        purpose: fanout.purpose,
        campaign_id: sendId,
        test: fanout.test_mode,
      };
      return envelopeRecord(
        this.options.requestsTopic,
        createEnvelope({
          id: deterministicId('notification-send', sendId, 'member', member.position),
          type: MESSAGING_REQUEST_TYPES.messageSend,
          source: SOURCE,
          workspaceid: workspaceId,
          subject: String(contactId),
          time,
          data,
        }),
      );
    });
  }
}
