import { idColumn } from '@cms/persistence';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One retry id of a request that came through an integration's inbound webhook (`integration:<id>:header:<key>`
 * or `integration:<id>:id:<payload id>`), and the ids it was answered with: a repeat answers these and
 * records nothing. Written by the decision that recorded the request, so a rebuild makes the same rows.
 */
@Entity({ name: 'inbound_receipts' })
export class InboundReceiptEntity {
  @PrimaryColumn(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column(idColumn({ name: 'integration_id' }))
  integrationId!: number;

  /** Null when the payload had no event and only added or updated the contact. */
  @Column(idColumn({ name: 'event_id', nullable: true }))
  eventId!: number | null;

  @Column(idColumn({ name: 'contact_id' }))
  contactId!: number;

  /** The time of the request record that was recorded. */
  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
