import {
  EVENT_FACT_TYPES,
  TAG_FACT_TYPES,
  type EventRecordedV1,
  type TagDeletedV1,
  type TagFactV1,
} from '@cms/contracts';
import { workspaceIdOf, type ChunkRecord } from '@cms/kafka';
import {
  ContactView,
  contactViewConsumer,
  type ContactViewRows,
  type ContactViewRun,
} from '@cms/service-kit';
import type { EntityManager } from 'typeorm';

import { CONTACTS_TRANSPORT } from '../transports';
import { ContactEntity, ContactEventEntity, TagEntity } from './contact.entity';
import { RevisionMarks } from './revision-marks';

/** Rows one statement writes at most. */
const ROWS_PER_STATEMENT = 1000;

/** The offset of a record: the revision of what it changes. */
function revisionOf(at: ChunkRecord): number {
  return Number(at.context.offset);
}

/**
 * What the segments view keeps besides the snapshots, links and contacts' tags, from a run of records in
 * their order: the tags themselves and events. Every change carries the offset of its
 * record as its revision, and moves the workspace's revision to it.
 */
class SegmentsViewRun implements ContactViewRun<ContactEntity> {
  private readonly events: ContactEventEntity[] = [];
  private readonly tags = new Map<number, TagEntity>();
  private readonly deletedTags: Array<{ workspaceId: number; tagId: number; revision: number }> = [];
  private readonly marks = new RevisionMarks();

  changed(row: ContactEntity, at: ChunkRecord): void {
    row.revision = revisionOf(at);
    this.marks.contacts(row.workspaceId, row.revision);
  }

  apply(at: ChunkRecord, rows: ContactViewRows<ContactEntity>): void {
    const { record } = at;
    const workspaceId = workspaceIdOf(record);
    const revision = revisionOf(at);
    switch (record.type) {
      case TAG_FACT_TYPES.created:
      case TAG_FACT_TYPES.updated: {
        const fact = record.data as TagFactV1;
        this.tags.set(fact.tag_id, {
          id: fact.tag_id,
          workspaceId,
          name: fact.name,
          color: fact.color ?? null,
        });
        break;
      }
      case TAG_FACT_TYPES.deleted: {
        const { tag_id: tagId } = record.data as TagDeletedV1;
        this.tags.delete(tagId);
        for (const row of rows.ofWorkspace(workspaceId)) {
          if (!row.tagIds.includes(tagId)) continue;
          row.tagIds = row.tagIds.filter((id) => id !== tagId);
          rows.change(row, at);
        }
        this.deletedTags.push({ workspaceId, tagId, revision });
        this.marks.contacts(workspaceId, revision);
        break;
      }
      case EVENT_FACT_TYPES.recorded: {
        const fact = record.data as EventRecordedV1;
        this.events.push({
          eventId: fact.event_id,
          workspaceId,
          contactId: fact.contact_id,
          name: fact.name,
          occurredAt: new Date(fact.occurred_at),
          revision,
        });
        this.marks.contacts(workspaceId, revision);
        break;
      }
      default:
        break;
    }
  }

  /** After the contacts: a deleted tag leaves every stored contact of the workspace, then goes. */
  async written(manager: EntityManager): Promise<void> {
    for (const { workspaceId, tagId, revision } of this.deletedTags) {
      // The stored contacts that still have it (those of this run had it removed above).
      await manager.query(
        `UPDATE contacts SET tag_ids = array_remove(tag_ids, $2::bigint), revision = $3
          WHERE workspace_id = $1 AND tag_ids @> ARRAY[$2::bigint]`,
        [workspaceId, tagId, revision],
      );
      await manager.query('DELETE FROM tags WHERE id = $1 AND workspace_id = $2', [tagId, workspaceId]);
    }
    await writeEvents(manager, this.events);
    if (this.tags.size > 0) {
      await manager
        .createQueryBuilder()
        .insert()
        .into(TagEntity)
        .values([...this.tags.values()])
        .orUpdate(['name', 'color'], ['id'])
        .execute();
    }
    await this.marks.write(manager);
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

/**
 * The segments service's view of contacts (import decisions of the topic go elsewhere): the kit's
 * snapshots and links, with the source, tags and creation time filters read, and the contacts' tags,
 * the tags and the events, each change with its revision.
 */
export const CONTACT_VIEW = new ContactView(ContactEntity, {
  alsoReads: [
    TAG_FACT_TYPES.created,
    TAG_FACT_TYPES.updated,
    TAG_FACT_TYPES.deleted,
    EVENT_FACT_TYPES.recorded,
  ],
  begin: () => new SegmentsViewRun(),
});

/** A run of contact facts (an import makes a million) is applied with a few statements. */
export const CONTACT_VIEW_CONSUMER = contactViewConsumer(CONTACT_VIEW, CONTACTS_TRANSPORT);
