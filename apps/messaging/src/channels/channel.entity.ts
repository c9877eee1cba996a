import type { ChannelProvider, ChannelStatus, ChannelType } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A channel (provider connection): the projection of the requests in the log. */
@Entity({ name: 'channels' })
@Index('channels_workspace', ['workspaceId', 'id'])
// Partial (WHERE is_default): one default channel per type; the migration owns it.
@Index('channels_default_per_type', { synchronize: false })
export class ChannelEntity {
  /** Minted by the gateway. */
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  type!: ChannelType;

  @Column({ type: 'text' })
  provider!: ChannelProvider;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  status!: ChannelStatus;

  @Column({ name: 'is_default', type: 'boolean' })
  isDefault!: boolean;

  /** The credentials' JSON sealed with SECRETS_KEY, as the request carried it (merged ones resealed). */
  @Column({ name: 'credentials_sealed', type: 'text', nullable: true })
  credentialsSealed!: string | null;

  @Column({ type: 'jsonb' })
  metadata!: Record<string, unknown>;

  /** SHA-256 (hex) of the token of its callback URL; the token itself is derived from SECRETS_KEY. */
  @Index('channels_callback_token', { unique: true })
  @Column({ name: 'callback_token_hash', type: 'text' })
  callbackTokenHash!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A browser's push subscription on a browser_push channel; `subscriber_id` is what a contact links. */
@Entity({ name: 'push_subscriptions' })
@Index('push_subscriptions_channel_endpoint', ['channelId', 'endpoint'], { unique: true })
export class PushSubscriptionEntity {
  @PrimaryColumn({ name: 'subscriber_id', type: 'text' })
  subscriberId!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'channel_id' }))
  channelId!: number;

  @Column({ type: 'text' })
  endpoint!: string;

  @Column({ type: 'text' })
  p256dh!: string;

  @Column({ type: 'text' })
  auth!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
