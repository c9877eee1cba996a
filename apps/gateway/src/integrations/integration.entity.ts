import type { FieldMappingTarget } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export interface FieldMapping {
  source: string;
  target: FieldMappingTarget;
}

/** The config as stored and answered: both members always present. */
export interface IntegrationConfig {
  sync_frequency: string | null;
  field_mappings: FieldMapping[];
}

/**
 * An integration and its inbound webhook. The URL token is kept only as its SHA-256; the signing secret
 * and the credentials rest sealed with SECRETS_KEY.
 */
@Entity({ name: 'integrations' })
@Index('integrations_workspace', ['workspaceId', 'id'])
export class IntegrationEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'jsonb' })
  config!: IntegrationConfig;

  @Column({ name: 'credentials_sealed', type: 'text', nullable: true })
  credentialsSealed!: string | null;

  @Column({ name: 'signing_secret_sealed', type: 'text' })
  signingSecretSealed!: string;

  @Index('integrations_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
