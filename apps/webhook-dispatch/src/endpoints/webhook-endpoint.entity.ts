import type { WebhookDisabledReason, WebhookEventType } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A customer's endpoint; the signing secrets rest sealed with SECRETS_KEY, never in the clear. The
 * projection of the requests in the log: a rebuild makes the same rows. Its failure count is not
 * (EndpointFailureEntity).
 */
@Entity({ name: 'webhook_endpoints' })
@Index('webhook_endpoints_workspace', ['workspaceId', 'createdAt'])
export class WebhookEndpointEntity {
  /** Minted by the gateway. */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ name: 'event_types', type: 'text', array: true })
  eventTypes!: WebhookEventType[];

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason!: WebhookDisabledReason | null;

  @Column({ name: 'secret_sealed', type: 'text' })
  secretSealed!: string;

  /** The secret before the last roll; it signs too until previousSecretExpiresAt. */
  @Column({ name: 'previous_secret_sealed', type: 'text', nullable: true })
  previousSecretSealed!: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
