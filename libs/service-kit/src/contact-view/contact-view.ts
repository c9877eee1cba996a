import {
  CONTACT_FACT_TYPES,
  CONTACTS_RECORD_TYPES,
  selectRecordTypes,
  TAG_FACT_TYPES,
  type ContactTagsChangedV1,
  type ContactChannelLinkedV1,
  type ContactChannelUnlinkedV1,
  type ContactSnapshotV1,
  type DecodedRecord,
  type RecordTypeDefinition,
} from '@cms/contracts';
import { workspaceIdOf, type ChunkRecord } from '@cms/kafka';
import { upsertEntities } from '@cms/persistence';
import { In, type EntityManager, type FindOptionsWhere } from 'typeorm';

import type { ContactViewEntity, ContactViewOptionalFields, ContactViewRow } from './contact-view.entity';

/** The facts of cms.contacts.v1 every view of contacts is made of: the snapshots, and the channel links that move. */
export const CONTACT_VIEW_FACT_TYPES = [
  CONTACT_FACT_TYPES.created,
  CONTACT_FACT_TYPES.updated,
  CONTACT_FACT_TYPES.channelLinked,
  CONTACT_FACT_TYPES.channelUnlinked,
] as const;

/** The rows of a run of records: those read before it, and those its records made or changed. */
export interface ContactViewRows<E extends ContactViewRow> {
  /** The contact, when the view has it in that workspace (another workspace's contact is none of its). */
  inWorkspace(workspaceId: number, contactId: number): E | undefined;
  /** The rows of the workspace the run holds (not every row the workspace has). */
  ofWorkspace(workspaceId: number): Iterable<E>;
  /** Marks a row the service's record changed: it is written with the run, `changed` sees it. */
  change(row: E, at: ChunkRecord): void;
}

/** What a service adds to one run of records, in their order; a run's state lives in it. */
export interface ContactViewRun<E extends ContactViewRow> {
  /** Each time a record changes a row (a snapshot, a link that moves, the service's own `change`). */
  changed?(row: E, at: ChunkRecord): void;
  /** A record of the service's own types (`alsoReads`), in its place in the run. */
  apply?(at: ChunkRecord, rows: ContactViewRows<E>): void;
  /** Once the run's rows are written, in the same transaction. */
  written?(manager: EntityManager): Promise<void>;
}

/** What a service's view reads besides the snapshots and links, and how. */
export interface ContactViewHooks<E extends ContactViewRow> {
  /** More facts of cms.contacts.v1, applied in the same runs (tags, events). */
  alsoReads: readonly string[];
  /** The contact whose stored row a record of those types changes: read with the run's other rows. */
  contactOf?(record: DecodedRecord): number | undefined;
  /** The state of one run; `config` is the service's configuration when its consumer was given its token. */
  begin(config: unknown): ContactViewRun<E>;
}

function linkFact(record: DecodedRecord): (ContactChannelLinkedV1 | ContactChannelUnlinkedV1) | undefined {
  return record.type === CONTACT_FACT_TYPES.channelLinked ||
    record.type === CONTACT_FACT_TYPES.channelUnlinked
    ? (record.data as ContactChannelLinkedV1 | ContactChannelUnlinkedV1)
    : undefined;
}

function isSnapshot(record: DecodedRecord): boolean {
  return record.type === CONTACT_FACT_TYPES.created || record.type === CONTACT_FACT_TYPES.updated;
}

/**
 * A service's own view of contacts, from cms.contacts.v1: a snapshot (contact.created,
 * contact.updated) replaces the row whole; a channel link sets the contact's id on that channel, an
 * unlink clears it when it is still the one that moved away; a link of a contact whose snapshot never
 * came, or of another workspace, changes nothing. Records apply in their order; the stored rows a run
 * changes are read at once, and every row it touches is written once, a thousand to a statement.
 *
 * The service chooses the columns (its entity, see contactViewColumns) and may read more facts of
 * the topic in the same runs (its hooks).
 */
export class ContactView<E extends ContactViewRow> {
  /** The record types its consumer handles. */
  readonly types: readonly string[];
  /** Their definitions, for the service's record types. */
  readonly recordTypes: RecordTypeDefinition[];
  readonly takes: (record: DecodedRecord) => boolean;
  /** A view that keeps `tagIds` follows contact.tags.changed too. */
  private readonly keepsTags: boolean;

  constructor(
    private readonly entity: ContactViewEntity<E>,
    private readonly hooks?: ContactViewHooks<E>,
  ) {
    this.keepsTags = entity.keeps.includes('tagIds');
    this.types = [
      ...CONTACT_VIEW_FACT_TYPES,
      ...(this.keepsTags ? [TAG_FACT_TYPES.contactTagsChanged] : []),
      ...(hooks?.alsoReads ?? []),
    ];
    const selection = selectRecordTypes(this.types, CONTACTS_RECORD_TYPES);
    this.recordTypes = selection.definitions;
    this.takes = selection.takes;
  }

  /** Applies a run of records, in their order, in the transaction of `manager`. */
  async apply(manager: EntityManager, records: readonly ChunkRecord[], config?: unknown): Promise<void> {
    const stored = await this.storedRows(manager, records);
    const run = this.hooks?.begin(config) ?? {};
    await this.write(manager, this.fold(records, stored, run));
    await run.written?.(manager);
  }

  /**
   * The rows a run leaves, given the stored rows it reads: the rows it changed, in the order it
   * first changed them.
   */
  fold(records: readonly ChunkRecord[], stored: readonly E[], run: ContactViewRun<E> = {}): E[] {
    const rows = new Map<number, E>(stored.map((row) => [row.id, row]));
    const touched = new Set<number>();
    const change = (row: E, at: ChunkRecord): void => {
      touched.add(row.id);
      run.changed?.(row, at);
    };
    const view: ContactViewRows<E> = {
      inWorkspace: (workspaceId, contactId) => {
        const row = rows.get(contactId);
        return row?.workspaceId === workspaceId ? row : undefined;
      },
      ofWorkspace: function* (workspaceId) {
        for (const row of rows.values()) if (row.workspaceId === workspaceId) yield row;
      },
      change,
    };
    for (const at of records) {
      const { record } = at;
      const link = linkFact(record);
      if (isSnapshot(record)) {
        const row = this.snapshotRow(record as DecodedRecord<ContactSnapshotV1>);
        rows.set(row.id, row);
        change(row, at);
      } else if (record.type === TAG_FACT_TYPES.contactTagsChanged && this.keepsTags) {
        const fact = record.data as ContactTagsChangedV1;
        const row = view.inWorkspace(workspaceIdOf(record), fact.contact_id);
        if (!row) continue;
        (row as E & { tagIds: number[] }).tagIds = [...fact.tag_ids];
        change(row, at);
      } else if (link) {
        const row = view.inWorkspace(workspaceIdOf(record), link.contact_id);
        // A contact of another workspace, or one whose snapshot never came: nothing of ours to change.
        if (!row) continue;
        const linking = record.type === CONTACT_FACT_TYPES.channelLinked;
        if (!linking && row.channels[link.channel] !== link.external_id) continue;
        row.channels = { ...row.channels, [link.channel]: linking ? link.external_id : null };
        row.updatedAt = new Date(link.at);
        change(row, at);
      } else {
        run.apply?.(at, view);
      }
    }
    return [...touched].map((id) => rows.get(id)!);
  }

  /** The stored rows the run's links (and the service's facts) change before a snapshot of theirs replaces them. */
  private async storedRows(manager: EntityManager, records: readonly ChunkRecord[]): Promise<E[]> {
    const fromSnapshot = new Set<number>();
    const toLoad = new Set<number>();
    for (const { record } of records) {
      const changed =
        linkFact(record)?.contact_id ??
        (record.type === TAG_FACT_TYPES.contactTagsChanged
          ? (record.data as ContactTagsChangedV1).contact_id
          : this.hooks?.contactOf?.(record));
      if (changed !== undefined && !fromSnapshot.has(changed)) toLoad.add(changed);
      if (isSnapshot(record)) fromSnapshot.add((record.data as ContactSnapshotV1).contact_id);
    }
    if (toLoad.size === 0) return [];
    return manager.getRepository<E>(this.entity).findBy({ id: In([...toLoad]) } as FindOptionsWhere<E>);
  }

  private snapshotRow(record: DecodedRecord<ContactSnapshotV1>): E {
    const snapshot = record.data;
    return Object.assign(new this.entity(), {
      id: snapshot.contact_id,
      workspaceId: workspaceIdOf(record),
      name: snapshot.name ?? null,
      phone: snapshot.phone ?? null,
      email: snapshot.email ?? null,
      externalId: snapshot.external_id ?? null,
      data: snapshot.data,
      marketingConsent: snapshot.marketing_consent,
      channels: snapshot.channels,
      updatedAt: new Date(snapshot.updated_at),
      ...this.optionalFields(snapshot),
    });
  }

  /** The optional fields of the snapshot its entity keeps. */
  private optionalFields(snapshot: ContactSnapshotV1): Partial<ContactViewOptionalFields> {
    const fields: Partial<ContactViewOptionalFields> = {};
    for (const field of this.entity.keeps) {
      switch (field) {
        case 'source':
          fields.source = snapshot.source ?? null;
          break;
        case 'tagIds':
          fields.tagIds = snapshot.tag_ids;
          break;
        case 'createdAt':
          fields.createdAt = new Date(snapshot.created_at);
          break;
      }
    }
    return fields;
  }

  private async write(manager: EntityManager, rows: readonly E[]): Promise<void> {
    await upsertEntities(manager, this.entity, rows);
  }
}
