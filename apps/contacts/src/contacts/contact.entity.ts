import type { MarketingConsentInput } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The time each value was last written, by field (`name`, `data.<key>`, `marketing_consent.<channel>`). */
export type ValueTimes = Record<string, string>;

@Entity({ name: 'contacts' })
@Index('contacts_workspace_id', ['workspaceId', 'id'])
// At most one contact of a workspace holds a phone, an external id or an email (extensions §2).
@Index('contacts_workspace_phone', ['workspaceId', 'phone'], { unique: true })
@Index('contacts_workspace_external_id', ['workspaceId', 'externalId'], {
  unique: true,
  where: 'external_id IS NOT NULL',
})
// Unique (workspace_id, lower(email)) where email is set: an expression TypeORM cannot describe, so the
// migration owns it.
@Index('contacts_workspace_email', { synchronize: false })
export class ContactEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  /** E.164 when it could be parsed; as sent otherwise (events only). */
  @Column({ type: 'text', nullable: true })
  phone!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'external_id', type: 'text', nullable: true })
  externalId!: string | null;

  @Column({ type: 'text', nullable: true })
  source!: string | null;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  /** Only the channels anything was ever recorded for. */
  @Column({ name: 'marketing_consent', type: 'jsonb' })
  marketingConsent!: MarketingConsentInput;

  @Column({ name: 'value_times', type: 'jsonb' })
  valueTimes!: ValueTimes;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
