import type { UndoScope } from '@cms/kafka';
import type { EntityManager, ObjectLiteral } from 'typeorm';

import type { AlertMonitor } from '../../alerts/alert-monitor';
import { loadAlertMonitors, saveAlertMonitors } from '../../alerts/alert-monitor.repository';
import { ChannelEntity } from '../../channels/channel.entity';
import { ContactEntity } from '../../contacts/contact.entity';
import {
  afterClick,
  insertLinks,
  selectLinks,
  updateLinkCounts,
  type CountedClick,
  type LinkRow,
} from '../../links/link-rows';
import { TemplateEntity } from '../../templates/template.entity';
import { EntityRows } from '../entity-rows';
import { EarlyStatusEntity, MessageEntity, type SuppressionEntity } from '../message.entity';
import { fallbackMessageId } from '../message-ids';
import {
  deleteSendJobs,
  deleteTimers,
  deleteEarlyStatuses,
  earlyKey,
  insertEarlyStatuses,
  insertSendJobs,
  insertSuppressions,
  insertTimers,
  MessageRepository,
  type MessageStore,
  type TakenMessage,
  type NewSendJob,
  type NewTimer,
} from '../message.repository';
import { KeyedWrites, Lookup } from './chunk-state';
import { insertMessages, storedValues, updateMessages, UPDATED_COLUMNS } from './message-rows';

/** What a chunk of records can look up: loaded before the records are decided. */
export interface MessageKeys {
  messageIds: Set<string>;
  /** `workspace\0idempotency key`. */
  idempotencyKeys: Set<string>;
  channelIds: Set<number>;
  /** Workspaces whose default channels a record may ask for. */
  defaultWorkspaces: Set<number>;
  templateIds: Set<number>;
  contactIds: Set<number>;
  /** Messages whose tracked links a record adds or clicks. */
  linkMessageIds: Set<string>;
}

export function emptyMessageKeys(): MessageKeys {
  return {
    messageIds: new Set(),
    idempotencyKeys: new Set(),
    channelIds: new Set(),
    defaultWorkspaces: new Set(),
    templateIds: new Set(),
    contactIds: new Set(),
    linkMessageIds: new Set(),
  };
}

function linkKey(messageId: string, linkIndex: number): string {
  return `${messageId}\u0000${linkIndex}`;
}

export function keyOf(workspaceId: number, value: string): string {
  return `${workspaceId}\u0000${value}`;
}

/**
 * The state a chunk of message requests can read, loaded in a few statements, then read and written
 * in memory while the records are decided in order; `flush` writes what they changed with one
 * statement per table and kind of write. A refused record is undone with its undo log.
 */
export class ChunkMessageStore implements MessageStore {
  private readonly undo: Array<() => void> = [];
  private readonly messages: Lookup<string, MessageEntity>;
  private readonly channels: Lookup<number, ChannelEntity>;
  private readonly templates: Lookup<number, TemplateEntity>;
  private readonly contacts: Lookup<number, ContactEntity>;
  /** `workspace\0key` → the message holding it, or null when none does. */
  private readonly idempotency = new Map<string, string | null>();
  private readonly defaultsLoaded = new Set<number>();
  private readonly inserted = new Set<string>();
  private readonly updated = new Set<string>();
  private readonly changedChannels = new Set<number>();
  private readonly sendJobs = new KeyedWrites<NewSendJob>(this.undo);
  private readonly timers = new KeyedWrites<NewTimer>(this.undo);
  private readonly suppressions: SuppressionEntity[] = [];
  /** Provider statuses held (rare here: callbacks are decided one by one) and taken, by key. */
  private readonly earlyStatuses = new KeyedWrites<EarlyStatusEntity>(this.undo);
  /** Delivery monitoring of the chunk's workspaces, read at its first outcome (null: no enabled rule). */
  private readonly monitors = new Map<number, AlertMonitor | null>();
  /** `message\0index` → the link; every link of a message in `linksLoaded` is here. */
  private readonly links = new Map<string, LinkRow>();
  private readonly linksLoaded = new Set<string>();
  private readonly insertedLinks = new Set<string>();
  private readonly changedLinks = new Set<string>();

  private constructor(private readonly manager: EntityManager) {
    this.messages = new Lookup(
      (ids) => this.select(MessageEntity, 'SELECT * FROM messages WHERE id = ANY ($1::text[])', [ids]),
      (row) => row.id,
    );
    this.channels = new Lookup(
      (ids) => this.select(ChannelEntity, 'SELECT * FROM channels WHERE id = ANY ($1::bigint[])', [ids]),
      (row) => Number(row.id),
    );
    this.templates = new Lookup(
      (ids) => this.select(TemplateEntity, 'SELECT * FROM templates WHERE id = ANY ($1::bigint[])', [ids]),
      (row) => Number(row.id),
    );
    this.contacts = new Lookup(
      (ids) => this.select(ContactEntity, 'SELECT * FROM contacts WHERE id = ANY ($1::bigint[])', [ids]),
      (row) => Number(row.id),
    );
  }

  /** Rows of an entity's table by a plain statement, made entities by its own column metadata. */
  private async select<T extends ObjectLiteral>(
    entity: new () => T,
    sql: string,
    params: unknown[],
  ): Promise<T[]> {
    const rows = EntityRows.of(this.manager, entity);
    const found = (await this.manager.query(sql, params)) as Array<Record<string, unknown>>;
    return found.map((row) => rows.fromRow(row));
  }

  /** A part of a decision refused by the rules leaves nothing behind in the chunk's state. */
  readonly undoScope: UndoScope = async (work) => {
    const mark = this.undo.length;
    try {
      return await work();
    } catch (error) {
      while (this.undo.length > mark) this.undo.pop()!();
      throw error;
    }
  };

  /**
   * Loads what `keys` name: the messages (and those holding the idempotency keys), then the messages
   * their routes would fall back to, the channels (and the workspaces' defaults), templates and
   * contacts they and the requests name.
   */
  static async load(manager: EntityManager, keys: MessageKeys): Promise<ChunkMessageStore> {
    const store = new ChunkMessageStore(manager);
    await store.loadMessages(keys);
    const fallbacks = new Set<string>();
    for (const message of store.messages.rows.values()) {
      keys.channelIds.add(Number(message.channelId));
      if (message.contactId !== null) keys.contactIds.add(Number(message.contactId));
      const route = message.route;
      const next = route?.steps[route.step + 1];
      if (route === null || next === undefined) continue;
      fallbacks.add(fallbackMessageId(message.id, route.step + 1));
      if (next.channel_id !== null) keys.channelIds.add(next.channel_id);
      if (next.template_id !== null) keys.templateIds.add(next.template_id);
    }
    await store.messages.preload(fallbacks);
    await store.loadChannels(keys);
    await store.templates.preload(keys.templateIds);
    await store.contacts.preload(keys.contactIds);
    await store.loadLinks(keys.linkMessageIds);
    return store;
  }

  private async loadMessages(keys: MessageKeys): Promise<void> {
    if (keys.messageIds.size === 0 && keys.idempotencyKeys.size === 0) return;
    const workspaces: number[] = [];
    const idempotencyKeys: string[] = [];
    for (const key of keys.idempotencyKeys) {
      const at = key.indexOf('\u0000');
      workspaces.push(Number(key.slice(0, at)));
      idempotencyKeys.push(key.slice(at + 1));
    }
    const found = await this.select(
      MessageEntity,
      `SELECT * FROM messages WHERE id = ANY ($1::text[])
       UNION ALL SELECT m.* FROM unnest($2::bigint[], $3::text[]) AS k(workspace_id, idempotency_key)
         JOIN messages m ON m.workspace_id = k.workspace_id AND m.idempotency_key = k.idempotency_key`,
      [[...keys.messageIds], workspaces, idempotencyKeys],
    );
    for (const message of found) this.remember(message);
    for (const id of keys.messageIds) if (!this.messages.rows.has(id)) this.messages.absent.add(id);
    for (const key of keys.idempotencyKeys) if (!this.idempotency.has(key)) this.idempotency.set(key, null);
  }

  private async loadChannels(keys: MessageKeys): Promise<void> {
    const ids = [...keys.channelIds];
    const workspaces = [...keys.defaultWorkspaces];
    if (ids.length === 0 && workspaces.length === 0) return;
    const found = await this.select(
      ChannelEntity,
      'SELECT * FROM channels WHERE id = ANY ($1::bigint[]) OR (is_default AND workspace_id = ANY ($2::bigint[]))',
      [ids, workspaces],
    );
    for (const channel of found) {
      this.channels.rows.set(Number(channel.id), channel);
    }
    for (const id of ids) if (!this.channels.rows.has(id)) this.channels.absent.add(id);
    for (const workspace of workspaces) this.defaultsLoaded.add(workspace);
  }

  private remember(message: MessageEntity): void {
    const known = this.messages.rows.get(message.id);
    if (known === undefined) this.messages.rows.set(message.id, message);
    const row = known ?? message;
    if (row.idempotencyKey !== null) {
      this.idempotency.set(keyOf(Number(row.workspaceId), row.idempotencyKey), row.id);
    }
  }

  async find(workspaceId: number, id: string): Promise<MessageEntity | null> {
    const message = await this.messages.get(id);
    return message !== null && Number(message.workspaceId) === workspaceId ? { ...message } : null;
  }

  async take(
    workspaceId: number,
    id: string,
    finished: { sendJob: boolean; timers: string[] },
  ): Promise<TakenMessage | null> {
    if (finished.sendJob) this.sendJobs.remove(id);
    for (const timer of finished.timers) this.timers.remove(timer);
    const message = await this.find(workspaceId, id);
    if (message === null) return null;
    return {
      message,
      channel: await this.channel(workspaceId, Number(message.channelId)),
      contact: await this.contact(workspaceId, message.contactId === null ? null : Number(message.contactId)),
    };
  }

  async findByIdempotencyKey(workspaceId: number, idempotencyKey: string): Promise<MessageEntity | null> {
    const key = keyOf(workspaceId, idempotencyKey);
    if (!this.idempotency.has(key)) {
      const [found = null] = await this.select(
        MessageEntity,
        'SELECT * FROM messages WHERE workspace_id = $1 AND idempotency_key = $2',
        [workspaceId, idempotencyKey],
      );
      if (found === null) this.idempotency.set(key, null);
      else this.remember(found);
    }
    const id = this.idempotency.get(key) ?? null;
    return id === null ? null : this.find(workspaceId, id);
  }

  async exists(id: string): Promise<boolean> {
    return (await this.messages.get(id)) !== null;
  }

  async insert(message: MessageEntity): Promise<void> {
    if ((await this.messages.get(message.id)) !== null) {
      throw new Error(`message ${message.id} exists already`);
    }
    const key =
      message.idempotencyKey === null ? null : keyOf(Number(message.workspaceId), message.idempotencyKey);
    const heldBy = key === null ? undefined : this.idempotency.get(key);
    this.messages.rows.set(message.id, storedValues(message) as MessageEntity);
    this.messages.absent.delete(message.id);
    this.inserted.add(message.id);
    if (key !== null) this.idempotency.set(key, message.id);
    this.undo.push(() => {
      this.messages.rows.delete(message.id);
      this.messages.absent.add(message.id);
      this.inserted.delete(message.id);
      if (key === null) return;
      if (heldBy === undefined) this.idempotency.delete(key);
      else this.idempotency.set(key, heldBy);
    });
  }

  async update(id: string, changes: Partial<MessageEntity>): Promise<void> {
    const previous = this.messages.rows.get(id);
    if (previous === undefined) throw new Error(`message ${id} was not read before it changed`);
    for (const property of Object.keys(changes)) {
      if (!UPDATED_COLUMNS.has(property)) {
        throw new Error(`a chunk does not write the ${property} of a message`);
      }
    }
    const wasUpdated = this.updated.has(id);
    this.messages.rows.set(id, { ...previous, ...storedValues(changes) });
    if (!this.inserted.has(id)) this.updated.add(id);
    this.undo.push(() => {
      this.messages.rows.set(id, previous);
      if (!wasUpdated) this.updated.delete(id);
    });
  }

  async channel(workspaceId: number, id: number): Promise<ChannelEntity | null> {
    const channel = await this.channels.get(id);
    return channel !== null && Number(channel.workspaceId) === workspaceId ? { ...channel } : null;
  }

  async defaultChannel(workspaceId: number, type: ChannelEntity['type']): Promise<ChannelEntity | null> {
    if (!this.defaultsLoaded.has(workspaceId)) {
      const found = await this.select(
        ChannelEntity,
        'SELECT * FROM channels WHERE workspace_id = $1 AND is_default',
        [workspaceId],
      );
      for (const channel of found) {
        if (!this.channels.rows.has(Number(channel.id))) this.channels.rows.set(Number(channel.id), channel);
      }
      this.defaultsLoaded.add(workspaceId);
    }
    for (const channel of this.channels.rows.values()) {
      if (Number(channel.workspaceId) === workspaceId && channel.type === type && channel.isDefault) {
        return { ...channel };
      }
    }
    return null;
  }

  async template(workspaceId: number, id: number): Promise<TemplateEntity | null> {
    const template = await this.templates.get(id);
    return template !== null && Number(template.workspaceId) === workspaceId ? template : null;
  }

  async contact(workspaceId: number, id: number | null): Promise<ContactEntity | null> {
    if (id === null) return null;
    const contact = await this.contacts.get(id);
    return contact !== null && Number(contact.workspaceId) === workspaceId ? contact : null;
  }

  async addSendJob(job: NewSendJob): Promise<void> {
    this.sendJobs.add(job.messageId, job);
  }

  async removeSendJob(messageId: string): Promise<void> {
    this.sendJobs.remove(messageId);
  }

  async addTimers(timers: NewTimer[]): Promise<void> {
    for (const timer of timers) this.timers.add(timer.id, timer);
  }

  async removeTimers(ids: string[]): Promise<void> {
    for (const id of ids) this.timers.remove(id);
  }

  async setChannelStatus(channel: ChannelEntity, status: ChannelEntity['status'], at: Date): Promise<void> {
    const id = Number(channel.id);
    const previous = this.channels.rows.get(id);
    if (previous === undefined) throw new Error(`channel ${id} was not read before it changed`);
    const wasChanged = this.changedChannels.has(id);
    this.channels.rows.set(id, { ...previous, status, updatedAt: new Date(at.getTime()) });
    this.changedChannels.add(id);
    this.undo.push(() => {
      this.channels.rows.set(id, previous);
      if (!wasChanged) this.changedChannels.delete(id);
    });
  }

  /**
   * As the statement's ON CONFLICT DO NOTHING at the flush: an entry with the id or for the address,
   * stored or added earlier in the chunk, is kept as it is. Rare (a provider's opt-out, bounce or
   * complaint), so the table is read for each.
   */
  async addSuppression(suppression: SuppressionEntity): Promise<boolean> {
    const { id, workspaceId, channel, address } = suppression;
    const clashes = (entry: SuppressionEntity): boolean =>
      entry.id === id ||
      (Number(entry.workspaceId) === Number(workspaceId) &&
        entry.channel === channel &&
        entry.address === address);
    if (this.suppressions.some(clashes)) return false;
    const stored = (await this.manager.query(
      'SELECT 1 FROM suppressions WHERE id = $1 OR (workspace_id = $2 AND channel = $3 AND address = $4)',
      [id, workspaceId, channel, address],
    )) as unknown[];
    if (stored.length > 0) return false;
    this.suppressions.push({ ...suppression });
    this.undo.push(() => this.suppressions.pop());
    return true;
  }

  async holdEarlyStatus(status: EarlyStatusEntity): Promise<void> {
    this.earlyStatuses.add(earlyKey(status.channelId, status.providerMessageId, status.status), {
      ...status,
    });
  }

  /** Read when an attempt names a provider id (never for the sandbox); given up when the chunk is written. */
  async takeEarlyStatuses(channelId: number, providerMessageId: string): Promise<EarlyStatusEntity[]> {
    const stored = await this.select(
      EarlyStatusEntity,
      'SELECT * FROM early_statuses WHERE channel_id = $1 AND provider_message_id = $2',
      [channelId, providerMessageId],
    );
    const held = new Map(
      stored.map((row) => [earlyKey(row.channelId, row.providerMessageId, row.status), row]),
    );
    for (const key of this.earlyStatuses.removed) held.delete(key);
    for (const [key, row] of this.earlyStatuses.pending()) {
      if (Number(row.channelId) === channelId && row.providerMessageId === providerMessageId)
        held.set(key, row);
    }
    for (const key of held.keys()) this.earlyStatuses.remove(key);
    return [...held.values()];
  }

  /**
   * At the chunk's first outcome, the monitors of every workspace whose messages the chunk read, with
   * one statement: their later outcomes in the chunk need none.
   */
  async alertMonitor(workspaceId: number, at: Date): Promise<AlertMonitor | null> {
    if (!this.monitors.has(workspaceId)) {
      const workspaces = new Set([workspaceId]);
      for (const message of this.messages.rows.values()) {
        const id = Number(message.workspaceId);
        if (!this.monitors.has(id)) workspaces.add(id);
      }
      const loaded = await loadAlertMonitors(this.manager, [...workspaces], at, this.undo);
      for (const id of workspaces) this.monitors.set(id, loaded.get(id) ?? null);
    }
    return this.monitors.get(workspaceId)!;
  }

  /** The monitors are written once, at the flush. */
  saveAlertMonitor(): Promise<void> {
    return Promise.resolve();
  }

  /** The links of messages not read yet, all in one statement. */
  private async loadLinks(messageIds: Iterable<string>): Promise<void> {
    const wanted = [...messageIds].filter((id) => !this.linksLoaded.has(id));
    if (wanted.length === 0) return;
    for (const link of await selectLinks(this.manager, wanted)) {
      this.links.set(linkKey(link.messageId, link.linkIndex), link);
    }
    for (const id of wanted) this.linksLoaded.add(id);
  }

  async addLinks(links: LinkRow[]): Promise<void> {
    await this.loadLinks(links.map((link) => link.messageId));
    for (const link of links) {
      const key = linkKey(link.messageId, link.linkIndex);
      // As the statement's ON CONFLICT DO NOTHING: a link there already is kept as it is.
      if (this.links.has(key)) continue;
      this.links.set(key, { ...link });
      this.insertedLinks.add(key);
      this.undo.push(() => {
        this.links.delete(key);
        this.insertedLinks.delete(key);
      });
    }
  }

  async link(workspaceId: number, messageId: string, linkIndex: number): Promise<LinkRow | null> {
    await this.loadLinks([messageId]);
    const link = this.links.get(linkKey(messageId, linkIndex));
    return link !== undefined && link.workspaceId === workspaceId ? { ...link } : null;
  }

  async countClick(link: LinkRow, click: CountedClick): Promise<LinkRow> {
    const key = linkKey(link.messageId, link.linkIndex);
    const previous = this.links.get(key);
    if (previous === undefined) throw new Error(`link ${key} was not read before it was clicked`);
    const counted = afterClick(previous, click);
    const wasChanged = this.changedLinks.has(key);
    this.links.set(key, counted);
    this.changedLinks.add(key);
    this.undo.push(() => {
      this.links.set(key, previous);
      if (!wasChanged) this.changedLinks.delete(key);
    });
    return { ...counted };
  }

  /** Writes what the chunk's records changed: a statement per table and kind of write. */
  async flush(manager: EntityManager): Promise<void> {
    const rows = (ids: Set<string>): MessageEntity[] => [...ids].map((id) => this.messages.rows.get(id)!);
    await insertMessages(manager, rows(this.inserted));
    await updateMessages(manager, rows(this.updated));
    await deleteSendJobs(manager, this.sendJobs.removed);
    await insertSendJobs(manager, this.sendJobs.inserted);
    await deleteTimers(manager, this.timers.removed);
    await insertTimers(manager, this.timers.inserted);
    await insertSuppressions(manager, this.suppressions);
    await deleteEarlyStatuses(manager, this.earlyStatuses.removed);
    await insertEarlyStatuses(manager, this.earlyStatuses.inserted);
    const monitors = [...this.monitors.values()].filter((monitor) => monitor !== null);
    if (monitors.length > 0) await saveAlertMonitors(manager, monitors);
    // A link made in the chunk is inserted with the clicks it got there; the others are updated.
    await insertLinks(
      manager,
      [...this.insertedLinks].map((key) => this.links.get(key)!),
    );
    await updateLinkCounts(
      manager,
      [...this.changedLinks].filter((key) => !this.insertedLinks.has(key)).map((key) => this.links.get(key)!),
    );
    const statements = new MessageRepository(manager);
    for (const id of this.changedChannels) {
      const channel = this.channels.rows.get(id)!;
      await statements.setChannelStatus(channel, channel.status, channel.updatedAt);
    }
  }
}
