import type { MarketingConsentInput } from '@cms/contracts';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The time each value was last written, by field (`name`, `data.<key>`, `marketing_consent.<channel>`). */
export type ValueTimes = Record<string, string>;

@Entity({ name: 'contacts' })
@Index('contacts_workspace_id', ['workspaceId', 'id'])
@Index('contacts_workspace_phone', ['workspaceId', 'phone'], { unique: true })
@Index('contacts_workspace_external_id', ['workspaceId', 'externalId'])
// (workspace_id, lower(email)): an expression TypeORM cannot describe, so the migration owns it.
@Index('contacts_workspace_email', { synchronize: false })
export class ContactEntity {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'workspace_id', type: 'integer' })
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
