import { idColumn } from '@cms/persistence';
import { contactViewColumns } from '@cms/service-kit';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The segments service's own view of a contact, from cms.contacts.v1: every field a filter reads.
 * `revision` is the workspace's revision when the row last changed (see WorkspaceRevisionEntity).
 */
@Entity({ name: 'contacts' })
@Index('contacts_workspace_revision', ['workspaceId', 'revision'])
export class ContactEntity extends contactViewColumns('source', 'tagIds', 'createdAt') {
  @Column(idColumn())
  revision!: number;
}

/** An event of a contact, as far as filters read it: its name and when it happened. */
@Entity({ name: 'contact_events' })
@Index('contact_events_workspace_revision', ['workspaceId', 'revision'])
export class ContactEventEntity {
  @PrimaryColumn(idColumn({ name: 'event_id' }))
  eventId!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column(idColumn())
  revision!: number;
}

/** An entry of the messaging service's suppression list, from cms.messaging.v1 (kept, inactive, once removed). */
@Entity({ name: 'suppressions' })
@Index('suppressions_workspace_revision', ['workspaceId', 'revision'])
export class SuppressionEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  channel!: string;

  @Column({ type: 'text' })
  address!: string;

  @Column({ type: 'boolean' })
  active!: boolean;

  @Column(idColumn())
  revision!: number;
}

/** A tag, for the contacts a preview answers (`tags`: id, name, color). */
@Entity({ name: 'tags' })
export class TagEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  color!: string | null;
}

/**
 * How far a workspace's view has come: the offset of the last record of cms.contacts.v1 (contacts,
 * events) and of cms.messaging.v1 (suppressions) that changed it. A workspace's records are all in one
 * partition (key = workspace id) and applied in order, so every changed row carries the offset of the
 * record that changed it as its `revision`, revisions commit in increasing order, and a reader that saw
 * revision r misses nothing by reading the rows above r. Offsets are the same on a replay: a rebuilt
 * view has the same revisions as the live one.
 */
@Entity({ name: 'workspace_revisions' })
export class WorkspaceRevisionEntity {
  @PrimaryColumn(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'contacts_revision' }))
  contactsRevision!: number;

  @Column(idColumn({ name: 'suppressions_revision' }))
  suppressionsRevision!: number;
}
