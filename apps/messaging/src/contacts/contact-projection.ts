import {
  CONTACT_FACT_TYPES,
  CONTACTS_RECORD_TYPES,
  selectRecordTypes,
  type ContactChannelLinkedV1,
  type ContactChannelUnlinkedV1,
  type ContactSnapshotV1,
  type DecodedRecord,
} from '@cms/contracts';
import { workspaceIdOf } from '@cms/kafka';
import { In, type EntityManager, type QueryDeepPartialEntity } from 'typeorm';

import { ContactEntity } from './contact.entity';

/** The contact facts the projection reads: the snapshots, and the channel links that move. */
export const CONTACT_PROJECTION_TYPES = [
  CONTACT_FACT_TYPES.created,
  CONTACT_FACT_TYPES.updated,
  CONTACT_FACT_TYPES.channelLinked,
  CONTACT_FACT_TYPES.channelUnlinked,
] as const;

const PROJECTED = selectRecordTypes(CONTACT_PROJECTION_TYPES, CONTACTS_RECORD_TYPES);

/** Their definitions, for the service's record types. */
export const CONTACT_PROJECTION_RECORD_TYPES = PROJECTED.definitions;

export const isProjectedContactFact = PROJECTED.takes;

/** Rows one INSERT writes at most (10 parameters each, well under Postgres' 65,535). */
const ROWS_PER_STATEMENT = 1000;

const UPDATED_COLUMNS = [
  'workspace_id',
  'name',
  'phone',
  'email',
  'external_id',
  'data',
  'marketing_consent',
  'channels',
  'updated_at',
];

function snapshotRow(record: DecodedRecord<ContactSnapshotV1>): ContactEntity {
  const snapshot = record.data;
  return Object.assign(new ContactEntity(), {
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
  });
}

/** The contact a link fact names: the data carries its id, the envelope its workspace. */
function linkTarget(record: DecodedRecord): number | undefined {
  if (
    record.type === CONTACT_FACT_TYPES.channelLinked ||
    record.type === CONTACT_FACT_TYPES.channelUnlinked
  ) {
    return (record.data as ContactChannelLinkedV1 | ContactChannelUnlinkedV1).contact_id;
  }
  return undefined;
}

/**
 * The messaging service's view of contacts, from cms.contacts.v1: a snapshot (contact.created,
 * contact.updated) replaces the row whole; a channel link sets the contact's id on that channel, an
 * unlink clears it when it is still the one that moved away. Records apply in their order; the rows a
 * run of records touches are written once, with one statement per thousand.
 */
export async function applyContactFacts(
  manager: EntityManager,
  records: readonly DecodedRecord[],
): Promise<void> {
  const rows = new Map<number, ContactEntity>();
  const snapshotFirst = new Set<number>();
  const toLoad = new Set<number>();
  for (const record of records) {
    const linked = linkTarget(record);
    if (linked === undefined) snapshotFirst.add((record.data as ContactSnapshotV1).contact_id);
    else if (!snapshotFirst.has(linked)) toLoad.add(linked);
  }
  if (toLoad.size > 0) {
    const stored = await manager.getRepository(ContactEntity).findBy({ id: In([...toLoad]) });
    for (const row of stored) rows.set(row.id, row);
  }
  const touched = new Set<number>();
  for (const record of records) {
    switch (record.type) {
      case CONTACT_FACT_TYPES.created:
      case CONTACT_FACT_TYPES.updated: {
        const row = snapshotRow(record as DecodedRecord<ContactSnapshotV1>);
        rows.set(row.id, row);
        touched.add(row.id);
        break;
      }
      case CONTACT_FACT_TYPES.channelLinked:
      case CONTACT_FACT_TYPES.channelUnlinked: {
        const fact = record.data as ContactChannelLinkedV1 | ContactChannelUnlinkedV1;
        const row = rows.get(fact.contact_id);
        // A contact of another workspace, or one whose snapshot never came: nothing of ours to change.
        if (!row || row.workspaceId !== workspaceIdOf(record)) break;
        const linking = record.type === CONTACT_FACT_TYPES.channelLinked;
        if (!linking && row.channels[fact.channel] !== fact.external_id) break;
        row.channels = { ...row.channels, [fact.channel]: linking ? fact.external_id : null };
        row.updatedAt = new Date(fact.at);
        touched.add(row.id);
        break;
      }
      default:
        break;
    }
  }
  const changed = [...touched].map((id) => rows.get(id)!);
  for (let start = 0; start < changed.length; start += ROWS_PER_STATEMENT) {
    await manager
      .createQueryBuilder()
      .insert()
      .into(ContactEntity)
      .values(changed.slice(start, start + ROWS_PER_STATEMENT) as QueryDeepPartialEntity<ContactEntity>[])
      .orUpdate(UPDATED_COLUMNS, ['id'])
      .execute();
  }
}
