import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One retry id of a request that came through an integration's inbound webhook (`integration:<id>:header:<key>`
 * or `integration:<id>:id:<payload id>`), and the ids it was answered with: a repeat answers these and
 * records nothing. Written by the decision that recorded the request, so a rebuild makes the same rows.
 */
@Entity({ name: 'inbound_receipts' })
export class InboundReceiptEntity {
  @PrimaryColumn({ name: 'workspace_id', type: 'integer' })
  workspaceId!: number;

  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ name: 'integration_id', type: 'integer' })
  integrationId!: number;

  /** Null when the payload had no event and only added or updated the contact. */
  @Column({ name: 'event_id', type: 'integer', nullable: true })
  eventId!: number | null;

  @Column({ name: 'contact_id', type: 'integer' })
  contactId!: number;

  /** The time of the request record that was recorded. */
  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
