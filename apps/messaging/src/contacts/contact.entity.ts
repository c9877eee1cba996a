import type { ContactChannels, MarketingConsent } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The messaging service's own view of a contact, from the contact snapshots of cms.contacts.v1: what
 * sending needs (recipient addresses, consent, channel links, the fields templates read).
 */
@Entity({ name: 'contacts' })
@Index('contacts_workspace_phone', ['workspaceId', 'phone'])
@Index('contacts_workspace_email', ['workspaceId', 'email'])
export class ContactEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text', nullable: true })
  phone!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'external_id', type: 'text', nullable: true })
  externalId!: string | null;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Column({ name: 'marketing_consent', type: 'jsonb' })
  marketingConsent!: MarketingConsent;

  @Column({ type: 'jsonb' })
  channels!: ContactChannels;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
