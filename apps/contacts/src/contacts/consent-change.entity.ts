import type { ConsentChannel, ConsentSource } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Every change of a contact's marketing consent on a channel, with where it came from and when. */
@Entity({ name: 'consent_changes' })
@Index('consent_changes_contact', ['contactId', 'occurredAt'])
export class ConsentChangeEntity {
  /** Derived from the request record, the contact and the channel, so a rebuild makes the same rows. */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @Column({ type: 'text' })
  channel!: ConsentChannel;

  @Column({ type: 'boolean' })
  granted!: boolean;

  /** The value before: null when nothing had been recorded. */
  @Column({ type: 'boolean', nullable: true })
  previous!: boolean | null;

  @Column({ type: 'text' })
  source!: ConsentSource;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;

  @Column({ name: 'recorded_at', type: 'timestamptz' })
  recordedAt!: Date;
}
