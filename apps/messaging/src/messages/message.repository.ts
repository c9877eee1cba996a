import type { EntityManager, QueryDeepPartialEntity } from 'typeorm';

import { ChannelEntity } from '../channels/channel.entity';
import { ContactEntity } from '../contacts/contact.entity';
import { TimerEntity } from '../sending/send-job.entity';
import { TemplateEntity } from '../templates/template.entity';
import { MessageEntity } from './message.entity';

/** A timer a decision sets: a sandbox receipt to report, or a route step's wait to end. */
export type NewTimer = Pick<TimerEntity, 'id' | 'workspaceId' | 'messageId' | 'kind' | 'payload' | 'dueAt'>;

/** The messages, their send jobs and timers, as the decisions of the requests consumer read and write them. */
export class MessageRepository {
  constructor(private readonly manager: EntityManager) {}

  find(workspaceId: number, id: string): Promise<MessageEntity | null> {
    return this.manager.findOneBy(MessageEntity, { id, workspaceId });
  }

  findByIdempotencyKey(workspaceId: number, idempotencyKey: string): Promise<MessageEntity | null> {
    return this.manager.findOneBy(MessageEntity, { workspaceId, idempotencyKey });
  }

  async exists(id: string): Promise<boolean> {
    return (await this.manager.countBy(MessageEntity, { id })) > 0;
  }

  async insert(message: MessageEntity): Promise<void> {
    await this.manager.insert(MessageEntity, message as QueryDeepPartialEntity<MessageEntity>);
  }

  async update(id: string, changes: Partial<MessageEntity>): Promise<void> {
    await this.manager.update(MessageEntity, { id }, changes as QueryDeepPartialEntity<MessageEntity>);
  }

  channel(workspaceId: number, id: number): Promise<ChannelEntity | null> {
    return this.manager.findOneBy(ChannelEntity, { id, workspaceId });
  }

  defaultChannel(workspaceId: number, type: ChannelEntity['type']): Promise<ChannelEntity | null> {
    return this.manager.findOneBy(ChannelEntity, { workspaceId, type, isDefault: true });
  }

  template(workspaceId: number, id: number): Promise<TemplateEntity | null> {
    return this.manager.findOneBy(TemplateEntity, { id, workspaceId });
  }

  contact(workspaceId: number, id: number | null): Promise<ContactEntity | null> {
    return id === null ? Promise.resolve(null) : this.manager.findOneBy(ContactEntity, { id, workspaceId });
  }

  /** The send job of a message; a rebuild that decides the request again finds it there already. */
  async addSendJob(messageId: string, workspaceId: number, dueAt: Date): Promise<void> {
    await this.manager.query(
      `INSERT INTO messaging_send_jobs (message_id, workspace_id, due_at, state)
       VALUES ($1, $2, $3, 'pending') ON CONFLICT (message_id) DO NOTHING`,
      [messageId, workspaceId, dueAt],
    );
  }

  /** The attempt is on record: the job is done (live, the worker removed it already; in a rebuild, not). */
  async removeSendJob(messageId: string): Promise<void> {
    await this.manager.query('DELETE FROM messaging_send_jobs WHERE message_id = $1', [messageId]);
  }

  async addTimers(timers: NewTimer[]): Promise<void> {
    if (timers.length === 0) return;
    await this.manager.query(
      `INSERT INTO messaging_timers (id, workspace_id, message_id, kind, payload, due_at)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::jsonb[], $6::timestamptz[])
       ON CONFLICT (id) DO NOTHING`,
      [
        timers.map((timer) => timer.id),
        timers.map((timer) => timer.workspaceId),
        timers.map((timer) => timer.messageId),
        timers.map((timer) => timer.kind),
        timers.map((timer) => JSON.stringify(timer.payload)),
        timers.map((timer) => timer.dueAt.toISOString()),
      ],
    );
  }

  async removeTimers(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.manager.query('DELETE FROM messaging_timers WHERE id = ANY ($1::text[])', [ids]);
  }

  async setChannelStatus(channel: ChannelEntity, status: ChannelEntity['status'], at: Date): Promise<void> {
    await this.manager.update(ChannelEntity, { id: channel.id }, { status, updatedAt: at });
  }
}
