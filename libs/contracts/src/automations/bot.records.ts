import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { ContactSnapshotV1 } from '../contacts/contact.records';
import { INBOUND_MESSAGE_KEYWORDS, type InboundMessageKeyword } from '../messaging/messaging.records';
import type { RecordTypeDefinition } from '../registry/record-type-registry';
import type { PayloadsOf } from '../requests/request-schemas';
import { BOT_MODES, BOT_TRIGGER_TYPES, type BotMode, type BotTriggerType } from './bot-definition';

/** Requests of bots the automations service decides (cms.requests.v1, key = workspace id). */
export const BOT_REQUEST_TYPES = {
  create: 'bot.create.requested',
  update: 'bot.update.requested',
  delete: 'bot.delete.requested',
} as const;

/** Facts of bots (cms.automations.v1, key = workspace id). */
export const BOT_FACT_TYPES = {
  created: 'bot.created',
  updated: 'bot.updated',
  deleted: 'bot.deleted',
} as const;

/**
 * What moves bot conversations (extensions §12, "Bots"), appended by the automations service itself to
 * the requests topic (key = workspace id), so that one order decides every conversation live and on
 * replay: an inbound message with the contact and the audience memberships as they were when it was
 * read, a conversation's timer or a schedule's tick, a schedule's members, and a model's answer (asked
 * once: a rebuild reads the answer from the log).
 */
export const BOT_INPUT_TYPES = {
  /** From message.received on cms.messaging.v1. */
  inbound: 'automation.inbound.recorded',
  /** From the bot timer worker: a conversation's expiry or a schedule bot's tick. */
  timer: 'automation.bot-timer.fired',
  /** From the schedule worker: a page of a schedule bot's audience at a tick. */
  audience: 'automation.bot-audience.recorded',
  /** From the AI worker: the model's answer to an inbound message, or why there is none. */
  answer: 'automation.bot-answer.recorded',
} as const;

// --- bodies -----------------------------------------------------------------------------------

/** `POST /api/v1/bots` and `PATCH /api/v1/bots/{id}`: every attribute is read by readBotDefinition. */
export class BotBody {
  @Allow() name?: unknown;
  @IsOptional() @Allow() description?: unknown;
  @Allow() mode?: unknown;
  @Allow() trigger_type?: unknown;
  @IsOptional() @Allow() trigger_value?: unknown;
  @IsOptional() @Allow() target_group_id?: unknown;
  @IsOptional() @Allow() ai_instructions?: unknown;
  @IsOptional() @Allow() ai_temperature?: unknown;
  @IsOptional() @Allow() ai_max_tokens?: unknown;
  @IsOptional() @Allow() flow_definition?: unknown;
  @IsOptional() @Allow() settings?: unknown;
  @IsOptional() @Allow() enabled?: unknown;
}

// --- requests ---------------------------------------------------------------------------------

/** A bot's definition as readBotDefinition reads it (a create: defaults filled in). */
export class BotDefinitionV1 {
  @IsString()
  name!: string;

  @IsOptional()
  @IsString()
  description!: string | null;

  @IsIn(BOT_MODES)
  mode!: BotMode;

  @IsIn(BOT_TRIGGER_TYPES)
  trigger_type!: BotTriggerType;

  @IsOptional()
  @IsString()
  trigger_value!: string | null;

  @IsOptional()
  @IsInt()
  @Min(1)
  target_group_id!: number | null;

  @IsOptional()
  @IsString()
  ai_instructions!: string | null;

  @Allow()
  ai_temperature!: number | null;

  @Allow()
  ai_max_tokens!: number | null;

  @Allow()
  flow_definition!: { steps: Array<Record<string, unknown>> } | null;

  @IsObject()
  settings!: Record<string, unknown>;

  @IsBoolean()
  enabled!: boolean;
}

export class BotCreateRequestedV1 extends BotDefinitionV1 {
  /** Minted by the gateway. */
  @IsInt()
  @Min(1)
  bot_id!: number;
}

/** Only the attributes sent (`name`, `mode` and `trigger_type` among them), read by readBotDefinition. */
export class BotUpdateRequestedV1 {
  @IsInt()
  @Min(1)
  bot_id!: number;

  @IsObject()
  changes!: Record<string, unknown>;
}

export class BotDeleteRequestedV1 {
  @IsInt()
  @Min(1)
  bot_id!: number;
}

// --- facts ------------------------------------------------------------------------------------

/** `bot.created` and `bot.updated`: the bot whole, as it is after the change. */
export class BotFactV1 extends BotDefinitionV1 {
  @IsInt()
  @Min(1)
  bot_id!: number;

  @IsISO8601()
  at!: string;
}

export class BotDeletedV1 {
  @IsInt()
  @Min(1)
  bot_id!: number;

  @IsISO8601()
  at!: string;
}

// --- inputs -----------------------------------------------------------------------------------

export class BotInboundRecordedV1 {
  @IsString()
  @Matches(/^msg_[0-9a-f]{32}$/)
  message_id!: string;

  @IsInt()
  @Min(1)
  channel_id!: number;

  /** The channel's type. */
  @IsString()
  channel!: string;

  /** The contact the sender was matched to; null when none was. */
  @IsOptional()
  @IsInt()
  @Min(1)
  contact_id!: number | null;

  /** The contact as the service's view had it when the message was read; null when the view had none. */
  @IsOptional()
  @ValidateNested()
  @Type(() => ContactSnapshotV1)
  contact!: ContactSnapshotV1 | null;

  @IsOptional()
  @IsString()
  text!: string | null;

  /** An opt-out or opt-in keyword of the channel (§9): never a bot's. */
  @IsOptional()
  @IsIn(INBOUND_MESSAGE_KEYWORDS)
  keyword!: InboundMessageKeyword | null;

  /** For each audience a bot of the workspace is limited to: whether the contact was a member. */
  @IsObject()
  memberships!: Record<string, boolean>;

  @IsISO8601()
  at!: string;
}

export const BOT_TIMER_KINDS = ['expiry', 'schedule'] as const;
export type BotTimerKind = (typeof BOT_TIMER_KINDS)[number];

export class BotTimerFiredV1 {
  @IsString()
  timer_id!: string;

  @IsIn(BOT_TIMER_KINDS)
  kind!: BotTimerKind;

  /** The conversation an expiry is of. */
  @IsOptional()
  @IsInt()
  @Min(1)
  conversation_id?: number;

  /** The schedule bot a tick is of. */
  @IsOptional()
  @IsInt()
  @Min(1)
  bot_id?: number;

  @IsISO8601()
  due_at!: string;
}

/** A page of a schedule bot's audience at one tick, with each member as the service's view had it. */
export class BotAudienceRecordedV1 {
  @IsInt()
  @Min(1)
  bot_id!: number;

  /** The tick's timer id: every page of one tick carries it. */
  @IsString()
  tick_id!: string;

  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => ContactSnapshotV1)
  contacts!: ContactSnapshotV1[];

  /** The audience was gone or the segments service refused: the tick starts nothing more. */
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  error?: string;

  @IsBoolean()
  last!: boolean;
}

export class BotAnswerRecordedV1 {
  @IsInt()
  @Min(1)
  conversation_id!: number;

  /** The inbound message answered. */
  @IsString()
  inbound_message_id!: string;

  @IsOptional()
  @IsString()
  content!: string | null;

  /** `ai_error` or `ai_unavailable` when there is no content. */
  @IsOptional()
  @IsIn(['ai_error', 'ai_unavailable'])
  failure!: 'ai_error' | 'ai_unavailable' | null;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  detail?: string | null;

  @IsISO8601()
  at!: string;
}

/** The payload class of every request of bots. */
export const BOT_REQUEST_SCHEMAS = {
  [BOT_REQUEST_TYPES.create]: BotCreateRequestedV1,
  [BOT_REQUEST_TYPES.update]: BotUpdateRequestedV1,
  [BOT_REQUEST_TYPES.delete]: BotDeleteRequestedV1,
} as const;

export type BotRequestPayloads = PayloadsOf<typeof BOT_REQUEST_SCHEMAS>;

/** Their requests are among AUTOMATIONS_REQUEST_SCHEMAS (and so AUTOMATIONS_RECORD_TYPES). */
export const BOT_RECORD_TYPES: RecordTypeDefinition[] = [
  { type: BOT_FACT_TYPES.created, version: 1, schema: BotFactV1 },
  { type: BOT_FACT_TYPES.updated, version: 1, schema: BotFactV1 },
  { type: BOT_FACT_TYPES.deleted, version: 1, schema: BotDeletedV1 },
  { type: BOT_INPUT_TYPES.inbound, version: 1, schema: BotInboundRecordedV1 },
  { type: BOT_INPUT_TYPES.timer, version: 1, schema: BotTimerFiredV1 },
  { type: BOT_INPUT_TYPES.audience, version: 1, schema: BotAudienceRecordedV1 },
  { type: BOT_INPUT_TYPES.answer, version: 1, schema: BotAnswerRecordedV1 },
];
