import type { UndoScope } from '@cms/kafka';
import { signalOnCommit } from '@cms/service-kit';
import type { EntityManager } from 'typeorm';

import type { AlertMonitor } from '../alerts/alert-monitor';
import { loadAlertMonitor, saveAlertMonitors } from '../alerts/alert-monitor.repository';
import { ChannelEntity } from '../channels/channel.entity';
import { ContactEntity } from '../contacts/contact.entity';
import {
  afterClick,
  insertLinks,
  linkRowOf,
  updateLinkCounts,
  type CountedClick,
  type LinkRow,
} from '../links/link-rows';
import type { TimerEntity } from '../sending/send-job.entity';
import { SEND_JOBS_SIGNAL, TIMERS_SIGNAL } from '../sending/work-signals';
import { TemplateEntity } from '../templates/template.entity';
import { EntityRows } from './entity-rows';
import { EarlyStatusEntity, MessageEntity, type SuppressionEntity } from './message.entity';

/** A timer a decision sets: a sandbox receipt to report, or a route step's wait to end. */
export type NewTimer = Pick<TimerEntity, 'id' | 'workspaceId' | 'messageId' | 'kind' | 'payload' | 'dueAt'>;

/** A message a decision is about, with what it reads beside it. */
export interface TakenMessage {
  message: MessageEntity;
  /** Its channel; timestamps as text (read as JSON). */
  channel: ChannelEntity | null;
  /** Its contact in this service's view; timestamps as text (read as JSON). */
  contact: ContactEntity | null;
}

/** What the decisions read of a template. */
export type TemplateRef = Pick<TemplateEntity, 'id' | 'name' | 'channel'>;

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
  /**
   * A message with its channel and its contact, removing the send job (when `sendJob`) and the
   * timers the record being decided finishes (whether or not the message is there).
   */
  take(
    workspaceId: number,
    id: string,
    finished: { sendJob: boolean; timers: string[] },
  ): Promise<TakenMessage | null>;
  findByIdempotencyKey(workspaceId: number, idempotencyKey: string): Promise<MessageEntity | null>;
  /** Whether a message with this id exists in any workspace. */
  exists(id: string): Promise<boolean>;
  insert(message: MessageEntity): Promise<void>;
  update(id: string, changes: Partial<MessageEntity>): Promise<void>;
  channel(workspaceId: number, id: number): Promise<ChannelEntity | null>;
  defaultChannel(workspaceId: number, type: ChannelEntity['type']): Promise<ChannelEntity | null>;
  template(workspaceId: number, id: number): Promise<TemplateRef | null>;
  contact(workspaceId: number, id: number | null): Promise<ContactEntity | null>;
  /** The send job of a message, unless it has one already. */
  addSendJob(job: NewSendJob): Promise<void>;
  removeSendJob(messageId: string): Promise<void>;
  /** Timers, each unless one with its id is set already. */
  addTimers(timers: NewTimer[]): Promise<void>;
  removeTimers(ids: string[]): Promise<void>;
  setChannelStatus(channel: ChannelEntity, status: ChannelEntity['status'], at: Date): Promise<void>;
  /**
   * An address on the suppression list, unless an entry with its id or for its address is there
   * already; answers whether it was added.
   */
  addSuppression(suppression: SuppressionEntity): Promise<boolean>;
  /** A provider's status for an id no message has yet; one held already is kept as it is. */
  holdEarlyStatus(status: EarlyStatusEntity): Promise<void>;
  /** The statuses held for the provider's id of a message on the channel, no longer held. */
  takeEarlyStatuses(channelId: number, providerMessageId: string): Promise<EarlyStatusEntity[]>;
  /** Delivery monitoring of a workspace as of `at` (extensions §10); null when no rule is enabled. */
  alertMonitor(workspaceId: number, at: Date): Promise<AlertMonitor | null>;
  /** Writes what a monitor counted and decided: at once with statements, at the flush in a chunk. */
  saveAlertMonitor(monitor: AlertMonitor): Promise<void>;
  /** A message's tracked links, each unless it is there already. */
  addLinks(links: LinkRow[]): Promise<void>;
  /** A tracked link of a message of the workspace. */
  link(workspaceId: number, messageId: string, linkIndex: number): Promise<LinkRow | null>;
  /** Counts a click on a link read with `link`; answers the link after it. */
  countClick(link: LinkRow, click: CountedClick): Promise<LinkRow>;
}

/** How long a provider's status waits for the attempt that names its message. */
export const EARLY_STATUS_HOLD_MS = 60 * 60 * 1000;

/**
 * The messages, their send jobs and timers, as the decisions of the requests consumer read and write
 * them: one plain statement each, since every message goes through several decisions.
 */
export class MessageRepository implements MessageStore {
  private readonly messages: EntityRows<MessageEntity>;
  private readonly channels: EntityRows<ChannelEntity>;
  private readonly contacts: EntityRows<ContactEntity>;
  private readonly earlyStatuses: EntityRows<EarlyStatusEntity>;

  constructor(private readonly manager: EntityManager) {
    this.earlyStatuses = EntityRows.of(manager, EarlyStatusEntity);
    this.messages = EntityRows.of(manager, MessageEntity);
    this.channels = EntityRows.of(manager, ChannelEntity);
    this.contacts = EntityRows.of(manager, ContactEntity);
  }

  private async one<T>(
    rows: { fromRow(row: Record<string, unknown>): T },
    sql: string,
    params: unknown[],
  ): Promise<T | null> {
    const [row] = (await this.manager.query(sql, params)) as Array<Record<string, unknown>>;
    return row === undefined ? null : rows.fromRow(row);
  }

  find(workspaceId: number, id: string): Promise<MessageEntity | null> {
    return this.one(this.messages, 'SELECT * FROM messages WHERE id = $1 AND workspace_id = $2', [
      id,
      workspaceId,
    ]);
  }

  /**
   * A message with its channel and its contact (as this service knows them), in one statement that
   * also removes the send job and timers the record being decided finishes.
   */
  async take(
    workspaceId: number,
    id: string,
    finished: { sendJob: boolean; timers: string[] },
  ): Promise<TakenMessage | null> {
    const [row] = (await this.manager.query(
      `WITH job AS (DELETE FROM messaging_send_jobs WHERE $3::boolean AND message_id = $1),
            timer AS (DELETE FROM messaging_timers WHERE id = ANY ($4::text[]))
       SELECT m.*, row_to_json(c) AS taken_channel, row_to_json(ct) AS taken_contact
         FROM messages m
         LEFT JOIN channels c ON c.id = m.channel_id AND c.workspace_id = m.workspace_id
         LEFT JOIN contacts ct ON ct.id = m.contact_id AND ct.workspace_id = m.workspace_id
        WHERE m.id = $1 AND m.workspace_id = $2`,
      [id, workspaceId, finished.sendJob, finished.timers],
    )) as Array<Record<string, unknown>>;
    if (row === undefined) return null;
    const channel = row['taken_channel'] as Record<string, unknown> | null;
    const contact = row['taken_contact'] as Record<string, unknown> | null;
    return {
      message: this.messages.fromRow(row),
      channel: channel === null ? null : this.channels.fromRow(channel),
      contact: contact === null ? null : this.contacts.fromRow(contact),
    };
  }

  findByIdempotencyKey(workspaceId: number, idempotencyKey: string): Promise<MessageEntity | null> {
    return this.one(
      this.messages,
      'SELECT * FROM messages WHERE workspace_id = $1 AND idempotency_key = $2',
      [workspaceId, idempotencyKey],
    );
  }

  async exists(id: string): Promise<boolean> {
    const rows = (await this.manager.query('SELECT 1 FROM messages WHERE id = $1', [id])) as unknown[];
    return rows.length > 0;
  }

  async insert(message: MessageEntity): Promise<void> {
    const { columns, values } = this.messages.values(message);
    const placeholders = values.map((_, index) => `$${index + 1}`);
    await this.manager.query(
      `INSERT INTO messages (${columns.join(', ')}) VALUES (${placeholders.join(', ')})`,
      values,
    );
  }

  async update(id: string, changes: Partial<MessageEntity>): Promise<void> {
    const { columns, values } = this.messages.values(changes);
    if (columns.length === 0) return;
    const assignments = columns.map((column, index) => `${column} = $${index + 2}`);
    await this.manager.query(`UPDATE messages SET ${assignments.join(', ')} WHERE id = $1`, [id, ...values]);
  }

  channel(workspaceId: number, id: number): Promise<ChannelEntity | null> {
    return this.one(this.channels, 'SELECT * FROM channels WHERE id = $1 AND workspace_id = $2', [
      id,
      workspaceId,
    ]);
  }

  defaultChannel(workspaceId: number, type: ChannelEntity['type']): Promise<ChannelEntity | null> {
    return this.one(
      this.channels,
      'SELECT * FROM channels WHERE workspace_id = $1 AND type = $2 AND is_default',
      [workspaceId, type],
    );
  }

  template(workspaceId: number, id: number): Promise<TemplateRef | null> {
    return this.one(
      {
        fromRow: (row) => ({
          id: Number(row['id']),
          name: row['name'] as string,
          channel: row['channel'] as TemplateRef['channel'],
        }),
      },
      'SELECT id, name, channel FROM templates WHERE id = $1 AND workspace_id = $2',
      [id, workspaceId],
    );
  }

  contact(workspaceId: number, id: number | null): Promise<ContactEntity | null> {
    if (id === null) return Promise.resolve(null);
    return this.one(this.contacts, 'SELECT * FROM contacts WHERE id = $1 AND workspace_id = $2', [
      id,
      workspaceId,
    ]);
  }

  /** The send job of a message; a rebuild that decides the request again finds it there already. */
  addSendJob(job: NewSendJob): Promise<void> {
    return insertSendJobs(this.manager, [job]);
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

  async addSuppression(suppression: SuppressionEntity): Promise<boolean> {
    return (await insertSuppressions(this.manager, [suppression])) > 0;
  }

  /** Holds the status, and lets go of the channel's statuses held longer than EARLY_STATUS_HOLD_MS. */
  async holdEarlyStatus(status: EarlyStatusEntity): Promise<void> {
    await this.manager.query('DELETE FROM early_statuses WHERE channel_id = $1 AND at::timestamptz < $2', [
      status.channelId,
      new Date(Date.parse(status.at) - EARLY_STATUS_HOLD_MS).toISOString(),
    ]);
    await insertEarlyStatuses(this.manager, [status]);
  }

  async takeEarlyStatuses(channelId: number, providerMessageId: string): Promise<EarlyStatusEntity[]> {
    const [rows] = (await this.manager.query(
      'DELETE FROM early_statuses WHERE channel_id = $1 AND provider_message_id = $2 RETURNING *',
      [channelId, providerMessageId],
    )) as [Array<Record<string, unknown>>, number];
    return rows.map((row) => this.earlyStatuses.fromRow(row));
  }

  /** Read afresh for each status change: a record decided on its own has no chunk to share it with. */
  alertMonitor(workspaceId: number, at: Date): Promise<AlertMonitor | null> {
    return loadAlertMonitor(this.manager, workspaceId, at, []);
  }

  saveAlertMonitor(monitor: AlertMonitor): Promise<void> {
    return saveAlertMonitors(this.manager, [monitor]);
  }

  addLinks(links: LinkRow[]): Promise<void> {
    return insertLinks(this.manager, links);
  }

  link(workspaceId: number, messageId: string, linkIndex: number): Promise<LinkRow | null> {
    return this.one(
      { fromRow: linkRowOf },
      'SELECT * FROM message_links WHERE message_id = $1 AND link_index = $2 AND workspace_id = $3',
      [messageId, linkIndex, workspaceId],
    );
  }

  async countClick(link: LinkRow, click: CountedClick): Promise<LinkRow> {
    const counted = afterClick(link, click);
    await updateLinkCounts(this.manager, [counted]);
    return counted;
  }

  async setChannelStatus(channel: ChannelEntity, status: ChannelEntity['status'], at: Date): Promise<void> {
    await this.manager.query('UPDATE channels SET status = $2, updated_at = $3 WHERE id = $1', [
      channel.id,
      status,
      at,
    ]);
  }
}

/** A send job a decision adds. */
export interface NewSendJob {
  messageId: string;
  workspaceId: number;
  dueAt: Date;
  /** A notification send's message: its job waits in the bulk lane. */
  bulk: boolean;
}

/**
 * Send jobs, due at their time; one a message has already is kept as it is. The send worker is woken
 * as the transaction commits (SEND_JOBS_SIGNAL).
 */
export async function insertSendJobs(manager: EntityManager, jobs: NewSendJob[]): Promise<void> {
  if (jobs.length === 0) return;
  await signalOnCommit(manager, SEND_JOBS_SIGNAL);
  await manager.query(
    `INSERT INTO messaging_send_jobs (message_id, workspace_id, due_at, state, bulk)
     SELECT id, workspace_id, due_at, 'pending', bulk
       FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::boolean[]) AS u(id, workspace_id, due_at, bulk)
     ON CONFLICT (message_id) DO NOTHING`,
    [
      jobs.map((job) => job.messageId),
      jobs.map((job) => job.workspaceId),
      jobs.map((job) => job.dueAt.toISOString()),
      jobs.map((job) => job.bulk),
    ],
  );
}

export async function deleteSendJobs(manager: EntityManager, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  await manager.query('DELETE FROM messaging_send_jobs WHERE message_id = ANY ($1::text[])', [messageIds]);
}

/**
 * Timers; one whose id is set already is kept as it is. The timer worker is woken as the transaction
 * commits (TIMERS_SIGNAL), to sleep until the earliest timer.
 */
export async function insertTimers(manager: EntityManager, timers: NewTimer[]): Promise<void> {
  if (timers.length === 0) return;
  await signalOnCommit(manager, TIMERS_SIGNAL);
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

/**
 * Addresses on the suppression list; one there already (by id or address) is kept as it is. Answers
 * how many were added.
 */
export async function insertSuppressions(
  manager: EntityManager,
  suppressions: SuppressionEntity[],
): Promise<number> {
  if (suppressions.length === 0) return 0;
  const inserted = (await manager.query(
    `INSERT INTO suppressions (id, workspace_id, channel, address, reason, source, created_at)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[],
                          $7::timestamptz[])
     ON CONFLICT DO NOTHING
     RETURNING id`,
    [
      suppressions.map((row) => row.id),
      suppressions.map((row) => row.workspaceId),
      suppressions.map((row) => row.channel),
      suppressions.map((row) => row.address),
      suppressions.map((row) => row.reason),
      suppressions.map((row) => row.source),
      suppressions.map((row) => row.createdAt.toISOString()),
    ],
  )) as unknown[];
  return inserted.length;
}

/** Provider statuses held for their messages; one held already is kept as it is. */
export async function insertEarlyStatuses(
  manager: EntityManager,
  statuses: EarlyStatusEntity[],
): Promise<void> {
  if (statuses.length === 0) return;
  await manager.query(
    `INSERT INTO early_statuses (channel_id, provider_message_id, status, workspace_id, at, failure)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::jsonb[])
     ON CONFLICT DO NOTHING`,
    [
      statuses.map((row) => row.channelId),
      statuses.map((row) => row.providerMessageId),
      statuses.map((row) => row.status),
      statuses.map((row) => row.workspaceId),
      statuses.map((row) => row.at),
      statuses.map((row) => (row.failure === null ? null : JSON.stringify(row.failure))),
    ],
  );
}

/** Held provider statuses by their keys (earlyKey). */
export async function deleteEarlyStatuses(manager: EntityManager, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const parts = keys.map((key) => key.split('\u0000'));
  await manager.query(
    `DELETE FROM early_statuses e USING unnest($1::bigint[], $2::text[], $3::text[]) AS k(channel_id, id, status)
      WHERE e.channel_id = k.channel_id AND e.provider_message_id = k.id AND e.status = k.status`,
    [parts.map((part) => part[0]), parts.map((part) => part[1]), parts.map((part) => part[2])],
  );
}

/** `channel\0provider id\0status`: a held status's key. */
export function earlyKey(channelId: number, providerMessageId: string, status: string): string {
  return `${Number(channelId)}\u0000${providerMessageId}\u0000${status}`;
}
