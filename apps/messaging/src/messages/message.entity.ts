import type {
  ChannelType,
  InboundMessageKeyword,
  MessageFailureV1,
  MessagePurpose,
  SuppressionListReason,
  SuppressionSource,
  WaitForStatus,
} from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One status change of a message, late ones included. */
export interface MessageHistoryEntry {
  status: string;
  at: string;
  /** api, sandbox, provider, service (the send worker's decision), timeout. */
  source: string;
  /** Set when the change came too late to move the status. */
  ignored?: boolean;
}

/** A step of the route a message belongs to, as resolved when the route was accepted. */
export interface RouteStep {
  channel_id: number | null;
  channel: ChannelType;
  /** Null on a bot's text message, whose route is this one step. */
  template_id: number | null;
  wait_for: WaitForStatus | null;
  timeout_ms: number | null;
}

/** The route of the message: every step, the one this message is, and what the sender gave. */
export interface MessageRoute {
  steps: RouteStep[];
  step: number;
  variables: Record<string, unknown>;
  purpose: MessagePurpose;
  /** The events a workflow's templates see (absent on a message of `POST /api/v1/messages`). */
  event?: TemplateEvent | null;
  waited_event?: TemplateEvent | null;
  /** A bot's text, sent exactly as written instead of a template (extensions §12). */
  text?: string;
}

/** An event as a template sees it: `{{ event.name }}`, `{{ event.data.<path> }}`. */
export interface TemplateEvent {
  id?: number;
  name: string;
  data: Record<string, unknown>;
}

/** A message, outbound or inbound, with its whole history: the projection of the log. */
@Entity({ name: 'messages' })
@Index('messages_workspace_created', ['workspaceId', 'createdAt', 'id'])
@Index('messages_provider_id', ['channelId', 'providerMessageId'])
// Partial (WHERE idempotency_key IS NOT NULL): the migration owns it.
@Index('messages_idempotency', { synchronize: false })
export class MessageEntity {
  /** `msg_` and 32 hex digits, derived from the record that made it. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  direction!: 'outbound' | 'inbound';

  @Column({ type: 'text' })
  status!: string;

  @Column({ name: 'channel_type', type: 'text' })
  channelType!: ChannelType;

  @Column(idColumn({ name: 'channel_id' }))
  channelId!: number;

  @Column(idColumn({ name: 'template_id', nullable: true }))
  templateId!: number | null;

  @Column({ name: 'template_name', type: 'text', nullable: true })
  templateName!: string | null;

  @Column(idColumn({ name: 'contact_id', nullable: true }))
  contactId!: number | null;

  @Column({ type: 'text', nullable: true })
  recipient!: string | null;

  @Column({ type: 'text', nullable: true })
  body!: string | null;

  @Column({ type: 'text', nullable: true })
  subject!: string | null;

  @Column({ type: 'text', nullable: true })
  html!: string | null;

  @Column({ name: 'provider_message_id', type: 'text', nullable: true })
  providerMessageId!: string | null;

  @Column({ type: 'jsonb', nullable: true })
  workflow!: { id: number; name: string; run_id: number; step: string } | null;

  /** The notification send that made it (extensions §13); every message of its route carries it. */
  @Column(idColumn({ name: 'campaign_id', nullable: true }))
  campaignId!: number | null;

  /** The bot conversation that made it (extensions §12); null for every other message. */
  @Column({ type: 'jsonb', nullable: true })
  bot!: { id: number; name: string; conversation_id: number } | null;

  /** Made by a notification's test send (extensions §13); false for every other message. */
  @Column({ type: 'boolean', default: false })
  test!: boolean;

  @Column({ name: 'fallback_from', type: 'text', nullable: true })
  fallbackFrom!: string | null;

  /**
   * The channel's opt-out or opt-in keyword an inbound message's text was, as its decision found it
   * (extensions §9), for its message.received; null for every other message.
   */
  @Column({ type: 'text', nullable: true })
  keyword!: InboundMessageKeyword | null;

  @Column({ type: 'jsonb', nullable: true })
  failure!: { code: string; reason: string; fix: string; provider_code: string | null } | null;

  @Column({ type: 'jsonb', nullable: true })
  suppression!: { reason: string; detail: string } | null;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;

  @Column({ name: 'read_at', type: 'timestamptz', nullable: true })
  readAt!: Date | null;

  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true })
  failedAt!: Date | null;

  @Column({ type: 'jsonb' })
  history!: MessageHistoryEntry[];

  /** Null for inbound messages. */
  @Column({ type: 'jsonb', nullable: true })
  route!: MessageRoute | null;

  @Column({ name: 'idempotency_key', type: 'text', nullable: true })
  idempotencyKey!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** An address that may not be messaged on a channel type of the workspace. */
@Entity({ name: 'suppressions' })
@Index('suppressions_address', ['workspaceId', 'channel', 'address'], { unique: true })
export class SuppressionEntity {
  /** Derived from the record that added it. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  channel!: ChannelType;

  @Column({ type: 'text' })
  address!: string;

  @Column({ type: 'text' })
  reason!: SuppressionListReason;

  @Column({ type: 'text' })
  source!: SuppressionSource;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/**
 * A provider's status for a provider message id no message of the channel has yet: the callback can
 * be decided before the send worker's attempt that learns the id. Held until that attempt applies it,
 * for an hour at most (a provider also reports messages sent around the service).
 */
@Entity({ name: 'early_statuses' })
export class EarlyStatusEntity {
  @PrimaryColumn(idColumn({ name: 'channel_id' }))
  channelId!: number;

  @PrimaryColumn({ name: 'provider_message_id', type: 'text' })
  providerMessageId!: string;

  @PrimaryColumn({ type: 'text' })
  status!: 'sent' | 'delivered' | 'read' | 'failed';

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  /** When it happened, as the provider reported it (or when its callback came): ISO 8601, kept as given. */
  @Column({ type: 'text' })
  at!: string;

  @Column({ type: 'jsonb', nullable: true })
  failure!: MessageFailureV1 | null;
}
