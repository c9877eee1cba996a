import type { UndoScope } from '@cms/kafka';
import type { EntityManager, QueryDeepPartialEntity } from 'typeorm';

import { ChannelEntity } from '../channels/channel.entity';
import { ContactEntity } from '../contacts/contact.entity';
import { TimerEntity } from '../sending/send-job.entity';
import { TemplateEntity } from '../templates/template.entity';
import { MessageEntity, SuppressionEntity } from './message.entity';

/** A timer a decision sets: a sandbox receipt to report, or a route step's wait to end. */
export type NewTimer = Pick<TimerEntity, 'id' | 'workspaceId' | 'messageId' | 'kind' | 'payload' | 'dueAt'>;

/**
 * What the message rules read and write: the messages, their channels, templates and contacts, their
 * send jobs, timers and suppressions. A record decided on its own reads and writes with statements
 * (MessageRepository); a record of a chunk, the chunk's state in memory (ChunkMessageStore). The rules
 * see only this, so they are the same on both paths.
 */
export interface MessageStore {
  /** How a refused part of a decision is undone when the store holds its writes itself. */
  readonly undoScope?: UndoScope;
  find(workspaceId: number, id: string): Promise<MessageEntity | null>;
  findByIdempotencyKey(workspaceId: number, idempotencyKey: string): Promise<MessageEntity | null>;
  /** Whether a message with this id exists in any workspace. */
  exists(id: string): Promise<boolean>;
  insert(message: MessageEntity): Promise<void>;
  update(id: string, changes: Partial<MessageEntity>): Promise<void>;
  channel(workspaceId: number, id: number): Promise<ChannelEntity | null>;
  defaultChannel(workspaceId: number, type: ChannelEntity['type']): Promise<ChannelEntity | null>;
  template(workspaceId: number, id: number): Promise<TemplateEntity | null>;
  contact(workspaceId: number, id: number | null): Promise<ContactEntity | null>;
  /** The send job of a message, unless it has one already. */
  addSendJob(messageId: string, workspaceId: number, dueAt: Date): Promise<void>;
  removeSendJob(messageId: string): Promise<void>;
  /** Timers, each unless one with its id is set already. */
  addTimers(timers: NewTimer[]): Promise<void>;
  removeTimers(ids: string[]): Promise<void>;
  setChannelStatus(channel: ChannelEntity, status: ChannelEntity['status'], at: Date): Promise<void>;
  /** An address on the suppression list, unless it is there already. */
  addSuppression(suppression: SuppressionEntity): Promise<void>;
}

/** The messages, their send jobs and timers, read and written with statements in the decision's transaction. */
export class MessageRepository implements MessageStore {
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
  addSendJob(messageId: string, workspaceId: number, dueAt: Date): Promise<void> {
    return insertSendJobs(this.manager, [{ messageId, workspaceId, dueAt }]);
  }

  /** The attempt is on record: the job is done (live, the worker removed it already; in a rebuild, not). */
  removeSendJob(messageId: string): Promise<void> {
    return deleteSendJobs(this.manager, [messageId]);
  }

  addTimers(timers: NewTimer[]): Promise<void> {
    return insertTimers(this.manager, timers);
  }

  removeTimers(ids: string[]): Promise<void> {
    return deleteTimers(this.manager, ids);
  }

  async addSuppression(suppression: SuppressionEntity): Promise<void> {
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(SuppressionEntity)
      .values(suppression)
      .orIgnore()
      .execute();
  }

  async setChannelStatus(channel: ChannelEntity, status: ChannelEntity['status'], at: Date): Promise<void> {
    await this.manager.update(ChannelEntity, { id: channel.id }, { status, updatedAt: at });
  }
}

/** A send job a decision adds. */
export interface NewSendJob {
  messageId: string;
  workspaceId: number;
  dueAt: Date;
}

/** Send jobs, due at their time; one a message has already is kept as it is. */
export async function insertSendJobs(manager: EntityManager, jobs: NewSendJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await manager.query(
    `INSERT INTO messaging_send_jobs (message_id, workspace_id, due_at, state)
     SELECT id, workspace_id, due_at, 'pending'
       FROM unnest($1::text[], $2::bigint[], $3::timestamptz[]) AS u(id, workspace_id, due_at)
     ON CONFLICT (message_id) DO NOTHING`,
    [
      jobs.map((job) => job.messageId),
      jobs.map((job) => job.workspaceId),
      jobs.map((job) => job.dueAt.toISOString()),
    ],
  );
}

export async function deleteSendJobs(manager: EntityManager, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await manager.query('DELETE FROM messaging_send_jobs WHERE message_id = ANY ($1::text[])', [messageIds]);
}

/** Timers; one whose id is set already is kept as it is. */
export async function insertTimers(manager: EntityManager, timers: NewTimer[]): Promise<void> {
  if (timers.length === 0) return;
  await manager.query(
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

export async function deleteTimers(manager: EntityManager, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await manager.query('DELETE FROM messaging_timers WHERE id = ANY ($1::text[])', [ids]);
}
