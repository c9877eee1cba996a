import type { BotMode, BotSettings, BotTriggerType, FlowStep } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { ConversationMessage, ConversationStatus, EndReason } from './engine/conversation-engine';

/** A bot (extensions §12, "Bots"), decided from the requests topic. */
@Entity({ name: 'bots' })
@Index('bots_workspace', ['workspaceId', 'id'])
export class BotEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'text' })
  mode!: BotMode;

  @Column({ name: 'trigger_type', type: 'text' })
  triggerType!: BotTriggerType;

  @Column({ name: 'trigger_value', type: 'text', nullable: true })
  triggerValue!: string | null;

  @Column(idColumn({ name: 'target_group_id', nullable: true }))
  targetGroupId!: number | null;

  @Column({ name: 'ai_instructions', type: 'text', nullable: true })
  aiInstructions!: string | null;

  @Column({ name: 'ai_temperature', type: 'double precision', nullable: true })
  aiTemperature!: number | null;

  @Column({ name: 'ai_max_tokens', type: 'integer', nullable: true })
  aiMaxTokens!: number | null;

  @Column({ name: 'flow_definition', type: 'jsonb', nullable: true })
  flowDefinition!: { steps: FlowStep[] } | null;

  @Column({ type: 'jsonb' })
  settings!: BotSettings;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A conversation of a bot with a contact on one channel, moved by the bot inputs in log order. */
@Entity({ name: 'bot_conversations' })
@Index('bot_conversations_bot', ['botId', 'id'])
@Index('bot_conversations_contact_channel', ['contactId', 'channelId', 'status'])
export class BotConversationEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'bot_id' }))
  botId!: number;

  @Column(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @Column(idColumn({ name: 'channel_id' }))
  channelId!: number;

  @Column({ type: 'text' })
  status!: ConversationStatus;

  @Column({ name: 'end_reason', type: 'text', nullable: true })
  endReason!: EndReason | null;

  @Column({ name: 'current_step', type: 'text', nullable: true })
  currentStep!: string | null;

  @Column({ type: 'jsonb' })
  messages!: ConversationMessage[];

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt!: Date | null;

  @Column({ name: 'last_activity_at', type: 'timestamptz' })
  lastActivityAt!: Date;

  @Column({ name: 'failed_answers', type: 'integer' })
  failedAnswers!: number;

  @Column({ type: 'text', nullable: true })
  answer!: string | null;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Column({ type: 'jsonb' })
  awaiting!: string[];

  @Column({ type: 'integer' })
  sent!: number;
}

/** Conversation ids interleave the requests topic's partitions, as run ids do. */
@Entity({ name: 'bot_conversation_counters' })
export class ConversationIdCounterEntity {
  @PrimaryColumn({ type: 'integer' })
  partition!: number;

  @Column({ type: 'integer' })
  next!: number;
}

/**
 * A conversation's expiry or a schedule bot's next tick (DESIGN §5): a job, not a projection. The bot
 * timer worker claims due rows and, in the same transaction, deletes them and appends their
 * automation.bot-timer.fired records.
 */
@Entity({ name: 'bot_timers' })
@Index('bot_timers_due', ['dueAt'])
export class BotTimerEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  kind!: 'expiry' | 'schedule';

  @Column(idColumn({ name: 'conversation_id', nullable: true }))
  conversationId!: number | null;

  @Column(idColumn({ name: 'bot_id', nullable: true }))
  botId!: number | null;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt!: Date;
}

/** A model answer to ask for (a job): the AI worker asks, records the answer in the log, and deletes it. */
@Entity({ name: 'bot_model_calls' })
@Index('bot_model_calls_workspace', ['workspaceId', 'createdAt'])
export class BotModelCallEntity {
  /** The inbound message answered. */
  @PrimaryColumn({ name: 'inbound_message_id', type: 'text' })
  inboundMessageId!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'conversation_id' }))
  conversationId!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** While a worker asks the model; a worker that died leaves it to be asked again after this. */
  @Column({ name: 'leased_until', type: 'timestamptz', nullable: true })
  leasedUntil!: Date | null;
}

/**
 * A schedule tick's audience to page through, or one contact's membership to check for an event bot
 * limited to an audience (a job): the audience worker asks the segments service and records what it
 * answered as automation.bot-audience.recorded.
 */
@Entity({ name: 'bot_audience_walks' })
export class BotAudienceWalkEntity {
  /** The tick's timer id. */
  @PrimaryColumn({ name: 'tick_id', type: 'text' })
  tickId!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'bot_id' }))
  botId!: number;

  @Column(idColumn({ name: 'audience_id' }))
  audienceId!: number;

  /** Set for a membership check: the one contact asked about. */
  @Column(idColumn({ name: 'contact_id', nullable: true }))
  contactId!: number | null;

  /** The last contact id paged. */
  @Column(idColumn({ name: 'after_contact_id' }))
  after!: number;

  /** Pages appended so far (their record ids derive from it). */
  @Column({ type: 'integer' })
  pages!: number;
}
