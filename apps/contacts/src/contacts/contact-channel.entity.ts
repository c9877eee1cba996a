import type { LinkChannel } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A contact's own id on a channel; one contact of a workspace holds a given id at a time. */
@Entity({ name: 'contact_channels' })
@Index('contact_channels_holder', ['workspaceId', 'channel', 'externalId'], { unique: true })
export class ContactChannelEntity {
  @PrimaryColumn(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @PrimaryColumn({ type: 'text' })
  channel!: LinkChannel;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ name: 'external_id', type: 'text' })
  externalId!: string;

  @Column({ name: 'linked_at', type: 'timestamptz' })
  linkedAt!: Date;
}
