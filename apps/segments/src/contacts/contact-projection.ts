import {
  CONTACT_FACT_TYPES,
  CONTACTS_RECORD_TYPES,
  selectRecordTypes,
  EVENT_FACT_TYPES,
  TAG_FACT_TYPES,
  type ContactChannelLinkedV1,
  type ContactChannelUnlinkedV1,
  type ContactSnapshotV1,
  type ContactTagsChangedV1,
  type DecodedRecord,
  type EventRecordedV1,
  type TagDeletedV1,
  type TagFactV1,
} from '@cms/contracts';
import { workspaceIdOf, type ChunkRecord } from '@cms/kafka';
import { In, type EntityManager } from 'typeorm';

import { ContactEntity, ContactEventEntity, TagEntity } from './contact.entity';
import { RevisionMarks } from './revision-marks';

/** The facts of cms.contacts.v1 the view is made of (import decisions go elsewhere). */
export const CONTACT_VIEW_TYPES = [
  CONTACT_FACT_TYPES.created,
  CONTACT_FACT_TYPES.updated,
  CONTACT_FACT_TYPES.channelLinked,
  CONTACT_FACT_TYPES.channelUnlinked,
  TAG_FACT_TYPES.contactTagsChanged,
  TAG_FACT_TYPES.created,
  TAG_FACT_TYPES.updated,
  TAG_FACT_TYPES.deleted,
  EVENT_FACT_TYPES.recorded,
] as const;

const VIEWED = selectRecordTypes(CONTACT_VIEW_TYPES, CONTACTS_RECORD_TYPES);

export const CONTACT_VIEW_RECORD_TYPES = VIEWED.definitions;

export const isContactViewFact = VIEWED.takes;

/** Rows one statement writes at most. */
const ROWS_PER_STATEMENT = 1000;

const CONTACT_COLUMNS = [
  'workspace_id',
  'name',
  'phone',
  'email',
  'external_id',
  'source',
  'data',
  'marketing_consent',
  'channels',
  'tag_ids',
  'created_at',
  'updated_at',
  'revision',
];

function snapshotRow(workspaceId: number, snapshot: ContactSnapshotV1, revision: number): ContactEntity {
  return Object.assign(new ContactEntity(), {
    id: snapshot.contact_id,
    workspaceId,
    name: snapshot.name ?? null,
    phone: snapshot.phone ?? null,
    email: snapshot.email ?? null,
    externalId: snapshot.external_id ?? null,
    source: snapshot.source ?? null,
    data: snapshot.data,
    marketingConsent: snapshot.marketing_consent,
    channels: snapshot.channels,
    tagIds: snapshot.tag_ids,
    createdAt: new Date(snapshot.created_at),
    updatedAt: new Date(snapshot.updated_at),
    revision,
  });
}

/** The stored contact a fact about one contact changes (links, tags): the data names it. */
function changedContact(record: DecodedRecord): number | undefined {
  switch (record.type) {
    case CONTACT_FACT_TYPES.channelLinked:
    case CONTACT_FACT_TYPES.channelUnlinked:
    case TAG_FACT_TYPES.contactTagsChanged:
      return (record.data as { contact_id: number }).contact_id;
    default:
      return undefined;
  }
}

/**
 * Applies a run of cms.contacts.v1 records to the view, in their order, with a few statements: the
 * contacts they touch are read once and written once (each with the offset of the last record that
 * changed it as its revision), events and tags are written in bulk, and a deleted tag leaves every
 * contact of the workspace. The workspace's revision moves to the last offset that changed its view.
 */
export async function applyContactFacts(
  manager: EntityManager,
  records: readonly ChunkRecord[],
): Promise<void> {
  const rows = new Map<number, ContactEntity>();
  const fromSnapshot = new Set<number>();
  const toLoad = new Set<number>();
  for (const { record } of records) {
    const changed = changedContact(record);
    if (changed !== undefined && !fromSnapshot.has(changed)) toLoad.add(changed);
    if (record.type === CONTACT_FACT_TYPES.created || record.type === CONTACT_FACT_TYPES.updated)
      fromSnapshot.add((record.data as ContactSnapshotV1).contact_id);
  }
  if (toLoad.size > 0) {
    const stored = await manager.getRepository(ContactEntity).findBy({ id: In([...toLoad]) });
    for (const row of stored) rows.set(row.id, row);
  }
  const touched = new Set<number>();
  const events: ContactEventEntity[] = [];
  const tags = new Map<number, TagEntity>();
  const deletedTags: Array<{ workspaceId: number; tagId: number; revision: number }> = [];
  const marks = new RevisionMarks();
  for (const { record, context } of records) {
    const workspaceId = workspaceIdOf(record);
    const revision = Number(context.offset);
    switch (record.type) {
      case CONTACT_FACT_TYPES.created:
      case CONTACT_FACT_TYPES.updated: {
        const row = snapshotRow(workspaceId, record.data as ContactSnapshotV1, revision);
        rows.set(row.id, row);
        touched.add(row.id);
        marks.contacts(workspaceId, revision);
        break;
      }
      case CONTACT_FACT_TYPES.channelLinked:
      case CONTACT_FACT_TYPES.channelUnlinked: {
        const fact = record.data as ContactChannelLinkedV1 | ContactChannelUnlinkedV1;
        const row = rows.get(fact.contact_id);
        // A contact of another workspace, or one whose snapshot never came: nothing of ours to change.
        if (!row || row.workspaceId !== workspaceId) break;
        const linking = record.type === CONTACT_FACT_TYPES.channelLinked;
        if (!linking && row.channels[fact.channel] !== fact.external_id) break;
        row.channels = { ...row.channels, [fact.channel]: linking ? fact.external_id : null };
        row.updatedAt = new Date(fact.at);
        row.revision = revision;
        touched.add(row.id);
        marks.contacts(workspaceId, revision);
        break;
      }
      case TAG_FACT_TYPES.contactTagsChanged: {
        const fact = record.data as ContactTagsChangedV1;
        const row = rows.get(fact.contact_id);
        if (!row || row.workspaceId !== workspaceId) break;
        row.tagIds = [...fact.tag_ids];
        row.revision = revision;
        touched.add(row.id);
        marks.contacts(workspaceId, revision);
        break;
      }
      case TAG_FACT_TYPES.created:
      case TAG_FACT_TYPES.updated: {
        const fact = record.data as TagFactV1;
        tags.set(fact.tag_id, { id: fact.tag_id, workspaceId, name: fact.name, color: fact.color ?? null });
        break;
      }
      case TAG_FACT_TYPES.deleted: {
        const { tag_id: tagId } = record.data as TagDeletedV1;
        tags.delete(tagId);
        for (const row of rows.values()) {
          if (row.workspaceId !== workspaceId || !row.tagIds.includes(tagId)) continue;
          row.tagIds = row.tagIds.filter((id) => id !== tagId);
          row.revision = revision;
          touched.add(row.id);
        }
        deletedTags.push({ workspaceId, tagId, revision });
        marks.contacts(workspaceId, revision);
        break;
      }
      case EVENT_FACT_TYPES.recorded: {
        const fact = record.data as EventRecordedV1;
        events.push({
          eventId: fact.event_id,
          workspaceId,
          contactId: fact.contact_id,
          name: fact.name,
          occurredAt: new Date(fact.occurred_at),
          revision,
        });
        marks.contacts(workspaceId, revision);
        break;
      }
      default:
        break;
    }
  }
  await writeContacts(
    manager,
    [...touched].map((id) => rows.get(id)!),
  );
  for (const { workspaceId, tagId, revision } of deletedTags) {
    // The stored contacts that still have it (those of this run had it removed above).
    await manager.query(
      `UPDATE contacts SET tag_ids = array_remove(tag_ids, $2::bigint), revision = $3
        WHERE workspace_id = $1 AND tag_ids @> ARRAY[$2::bigint]`,
      [workspaceId, tagId, revision],
    );
    await manager.query('DELETE FROM tags WHERE id = $1 AND workspace_id = $2', [tagId, workspaceId]);
  }
  await writeEvents(manager, events);
  if (tags.size > 0) {
    await manager
      .createQueryBuilder()
      .insert()
      .into(TagEntity)
      .values([...tags.values()])
      .orUpdate(['name', 'color'], ['id'])
      .execute();
  }
  await marks.write(manager);
}

/** A contact as a row of `jsonb_populate_recordset(NULL::contacts, …)`. */
function contactRow(contact: ContactEntity): Record<string, unknown> {
  return {
    id: contact.id,
    workspace_id: contact.workspaceId,
    name: contact.name,
    phone: contact.phone,
    email: contact.email,
    external_id: contact.externalId,
    source: contact.source,
    data: contact.data,
    marketing_consent: contact.marketingConsent,
    channels: contact.channels,
    tag_ids: contact.tagIds,
    created_at: contact.createdAt.toISOString(),
    updated_at: contact.updatedAt.toISOString(),
    revision: contact.revision,
  };
}

/**
 * The rows as one JSON parameter each statement: an import writes a million contacts here, and an
 * insert built by the ORM from entities spent more of the service's time than anything else.
 */
const UPSERT_CONTACTS = `INSERT INTO contacts (id, ${CONTACT_COLUMNS.join(', ')})
  SELECT id, ${CONTACT_COLUMNS.join(', ')} FROM jsonb_populate_recordset(NULL::contacts, $1::jsonb)
  ON CONFLICT (id) DO UPDATE SET ${CONTACT_COLUMNS.map((column) => `${column} = EXCLUDED.${column}`).join(', ')}`;

async function writeContacts(manager: EntityManager, changed: ContactEntity[]): Promise<void> {
  for (let start = 0; start < changed.length; start += ROWS_PER_STATEMENT) {
    await manager.query(UPSERT_CONTACTS, [
      JSON.stringify(changed.slice(start, start + ROWS_PER_STATEMENT).map(contactRow)),
    ]);
  }
}

async function writeEvents(manager: EntityManager, events: ContactEventEntity[]): Promise<void> {
  for (let start = 0; start < events.length; start += ROWS_PER_STATEMENT) {
    const slice = events.slice(start, start + ROWS_PER_STATEMENT);
    await manager.query(
      `INSERT INTO contact_events (event_id, workspace_id, contact_id, name, occurred_at, revision)
       SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::timestamptz[], $6::bigint[])
       ON CONFLICT DO NOTHING`,
      [
        slice.map((event) => event.eventId),
        slice.map((event) => event.workspaceId),
        slice.map((event) => event.contactId),
        slice.map((event) => event.name),
        slice.map((event) => event.occurredAt.toISOString()),
        slice.map((event) => event.revision),
      ],
    );
  }
}
