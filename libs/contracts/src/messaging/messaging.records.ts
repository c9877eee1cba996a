import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBase64,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';

import { CONSENT_CHANNELS } from '../contacts/channels';
import type { RecordTypeDefinition } from '../registry/record-type-registry';
import { firstVersions, type PayloadsOf } from '../requests/request-schemas';
import { MAX_ID } from '../rules/field-rules';
import { SEALED_SECRET_PATTERN } from '../webhooks/webhook-secret';
import {
  CHANNEL_PROVIDERS,
  CHANNEL_TYPES,
  CreatePushSubscriptionBody,
  SandboxInboundBody,
  SETTABLE_CHANNEL_STATUSES,
  type ChannelProvider,
  type ChannelType,
} from './channel.bodies';
import { LINK_FACT_DEFINITIONS, LINK_REQUEST_SCHEMAS, TrackedLinkV1 } from './link.records';
import { MAX_ROUTE_STEPS, RouteStepBody, SendMessageBody } from './message.bodies';
import {
  SUPPRESSION_FACT_TYPES,
  SUPPRESSION_REQUEST_SCHEMAS,
  SuppressionChangedV1,
} from './suppression.records';
import { CreateTemplateBody, UpdateTemplateBody } from './template.bodies';

/**
 * Requests the messaging service decides (cms.requests.v1, key = workspace id). The gateway mints the
 * integer ids of channels and templates; credentials travel only sealed with SECRETS_KEY (`encryptSecret`
 * of their JSON). The messaging service derives message ids (`msg_…`) from the request record.
 */
export const MESSAGING_REQUEST_TYPES = {
  channelCreate: 'messaging-channel.create.requested',
  channelUpdate: 'messaging-channel.update.requested',
  channelDelete: 'messaging-channel.delete.requested',
  pushSubscriptionCreate: 'push-subscription.create.requested',
  sandboxInbound: 'messaging-channel.sandbox-inbound.requested',
  templateCreate: 'template.create.requested',
  templateUpdate: 'template.update.requested',
  templateDelete: 'template.delete.requested',
  messageSend: 'message.send.requested',
  /** From the gateway, not answered: a provider's callback, verified with the channel's secret. */
  providerCallback: 'provider-callback.received',
  /** Appended by the messaging service's workers (through its outbox); nobody waits for them. */
  messageAttempt: 'message.attempt.recorded',
  messageReceipt: 'message.receipt.recorded',
  messageTimeout: 'message.timeout.recorded',
} as const;

/** Facts the messaging service publishes (cms.messaging.v1; message facts keyed by contact id). */
export const MESSAGING_FACT_TYPES = {
  channelCreated: 'messaging-channel.created',
  channelUpdated: 'messaging-channel.updated',
  channelDeleted: 'messaging-channel.deleted',
  templateCreated: 'template.created',
  templateUpdated: 'template.updated',
  templateDeleted: 'template.deleted',
  messageQueued: 'message.queued',
  messageSent: 'message.sent',
  messageDelivered: 'message.delivered',
  messageRead: 'message.read',
  messageFailed: 'message.failed',
  messageSuppressed: 'message.suppressed',
  messageReceived: 'message.received',
} as const;

// --- requests from clients ---------------------------------------------------------------------

export class MessagingChannelCreateRequestedV1 {
  @IsInt()
  @Min(1)
  channel_id!: number;

  @IsIn(CHANNEL_TYPES)
  type!: ChannelType;

  @IsString()
  @MaxLength(255)
  name!: string;

  @IsIn(CHANNEL_PROVIDERS)
  provider!: ChannelProvider;

  /** The credentials' JSON, sealed; null when none were sent. */
  @IsOptional()
  @Matches(SEALED_SECRET_PATTERN)
  credentials_sealed!: string | null;

  @IsObject()
  metadata!: Record<string, unknown>;

  @IsOptional()
  @IsBoolean()
  is_default?: boolean;
}

export class MessagingChannelUpdateRequestedV1 {
  @IsInt()
  @Min(1)
  channel_id!: number;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  name?: string;

  /** The credentials sent, sealed: merged into the channel's. */
  @IsOptional()
  @Matches(SEALED_SECRET_PATTERN)
  credentials_sealed?: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsBoolean()
  is_default?: boolean;

  @IsOptional()
  @IsIn(SETTABLE_CHANNEL_STATUSES)
  status?: (typeof SETTABLE_CHANNEL_STATUSES)[number];
}

export class MessagingChannelDeleteRequestedV1 {
  @IsInt()
  @Min(1)
  channel_id!: number;
}

export class PushSubscriptionCreateRequestedV1 extends CreatePushSubscriptionBody {
  @IsInt()
  @Min(1)
  channel_id!: number;
}

export class MessagingChannelSandboxInboundRequestedV1 extends SandboxInboundBody {
  @IsInt()
  @Min(1)
  channel_id!: number;

  /** Minted by the gateway: the contact an unknown sender on a phone channel is created as. */
  @IsOptional()
  @IsInt()
  @Min(1)
  contact_id?: number;

  /** The plan's stored-contacts limit as the gateway saw it (see ContactUpsertRequestedV1). */
  @IsOptional()
  @IsInt()
  @Min(0)
  contact_limit?: number;
}

export class TemplateCreateRequestedV1 extends CreateTemplateBody {
  @IsInt()
  @Min(1)
  template_id!: number;
}

export class TemplateUpdateRequestedV1 extends UpdateTemplateBody {
  @IsInt()
  @Min(1)
  template_id!: number;
}

export class TemplateDeleteRequestedV1 {
  @IsInt()
  @Min(1)
  template_id!: number;
}

/** The workflow step that made a message (extensions §9 `workflow`, §12 `send`). */
export class MessageWorkflowV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  run_id!: number;

  @IsString()
  step!: string;
}

/** An event a workflow's template sees (`{{ event.name }}`, `{{ event.data.total }}`, `waited_event`). */
export class TemplateEventV1 {
  @IsOptional()
  @IsInt()
  @Min(1)
  id?: number;

  @IsString()
  name!: string;

  @IsObject()
  data!: Record<string, unknown>;
}

/** The bot conversation that made a message (extensions §12, What bots send). */
export class MessageBotV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  conversation_id!: number;
}

/** The longest `text` a request carries: a bot's answer, sent as written. */
export const MAX_MESSAGE_TEXT_LENGTH = 4096;

/*
 * The request record's classes extend the API's bodies with `template_id` and `route` left out of their
 * types (the validation rules are inherited all the same), so each can declare them anew: a step of a
 * request that carries its `text` names no template, which the API's RouteStepBody always requires.
 */
const RouteStepFields = RouteStepBody as new () => Omit<RouteStepBody, 'template_id'>;
const SendMessageFields = SendMessageBody as new () => Omit<SendMessageBody, 'route'>;

/** A route step of a request: as the API's, except on the one step of a `text`, which has no template. */
export class MessageRouteStepV1 extends RouteStepFields {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  template_id?: number;
}

/**
 * What is wrong with how a request's route says what to send, or undefined: every step names its
 * template, unless the request carries a `text`, which goes out on a route of one step that names its
 * channel by `channel_id` and no template.
 */
export function routeContentProblem(request: { route?: unknown; text?: unknown }): string | undefined {
  // The route's own rules (an array of 1 to 4 steps) speak for a route that is none.
  if (!Array.isArray(request.route)) return undefined;
  const steps = request.route as Array<Partial<MessageRouteStepV1> | null>;
  if (request.text === undefined) {
    const bare = steps.findIndex((step) => step?.template_id === undefined);
    return bare === -1 ? undefined : `route step ${bare} names no template_id`;
  }
  const [step] = steps;
  if (steps.length !== 1 || !step) return 'a text is sent on a route of exactly one step';
  if (step.channel_id === undefined) return 'the step of a text names its channel by channel_id';
  if (step.template_id !== undefined) return 'the step of a text names no template_id';
  return undefined;
}

/** The route of a request says what to send in one way only (routeContentProblem). */
function IsRouteOfItsContent(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isRouteOfItsContent',
      validator: {
        validate: (_route: unknown, args) => routeContentProblem(args?.object ?? {}) === undefined,
        defaultMessage: (args) => routeContentProblem(args?.object ?? {}) ?? 'route is not valid',
      },
    },
    options,
  );
}

/**
 * `POST /api/v1/messages`, after the gateway found the contact; or a service's message: a workflow's
 * `send` step, made by the automations service with `workflow` and the events its templates see; a
 * notification send's, with `campaign_id` and `test`; a bot's, with `bot` and, for an answer it sends
 * as written, `text`. The public body has none of those fields (the edge refuses them), so only the
 * services set them.
 */
export class MessageSendRequestedV1 extends SendMessageFields {
  // Declared anew for its steps' class: the base's rules of the same kind give way to these.
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ROUTE_STEPS)
  @ValidateNested({ each: true })
  @Type(() => MessageRouteStepV1)
  @IsRouteOfItsContent()
  route!: MessageRouteStepV1[];

  @IsOptional()
  @IsString()
  @MaxLength(255)
  idempotency_key?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => MessageWorkflowV1)
  workflow?: MessageWorkflowV1;

  @IsOptional()
  @ValidateNested()
  @Type(() => TemplateEventV1)
  event?: TemplateEventV1;

  @IsOptional()
  @ValidateNested()
  @Type(() => TemplateEventV1)
  waited_event?: TemplateEventV1 | null;

  /** A notification send's message (extensions §13): the send's id, answered as `campaign_id`. */
  @IsOptional()
  @IsInt()
  @Min(1)
  campaign_id?: number;

  /** A notification's test send: the message is marked `test: true`. */
  @IsOptional()
  @IsBoolean()
  test?: boolean;

  /** A bot's message (extensions §12): answered as `bot` on the message and its facts. */
  @IsOptional()
  @ValidateNested()
  @Type(() => MessageBotV1)
  bot?: MessageBotV1;

  /** The body, sent exactly as written (no template, no Liquid), on the route's one step. Never null. */
  @ValidateIf((request: { text?: unknown }) => request.text !== undefined)
  @IsString()
  @Length(1, MAX_MESSAGE_TEXT_LENGTH)
  text?: string;
}

/** At most this many contact ids are minted for one provider callback. */
export const MAX_CALLBACK_CONTACT_IDS = 100;

/** A provider's callback as it arrived, after the gateway had the messaging service verify it. */
export class ProviderCallbackReceivedV1 {
  @IsInt()
  @Min(1)
  channel_id!: number;

  @IsString()
  @MaxLength(255)
  content_type!: string;

  @IsString()
  @IsBase64()
  body_base64!: string;

  @IsISO8601()
  received_at!: string;

  /** Minted by the gateway, one per inbound message in the body: for unknown senders on phone channels. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CALLBACK_CONTACT_IDS)
  @IsInt({ each: true })
  @Min(1, { each: true })
  contact_ids?: number[];

  /** The plan's stored-contacts limit as the gateway saw it (see ContactUpsertRequestedV1). */
  @IsOptional()
  @IsInt()
  @Min(0)
  contact_limit?: number;
}

// --- requests from the service's workers ---------------------------------------------------------

export const ATTEMPT_OUTCOMES = ['sent', 'failed', 'suppressed'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

export const SUPPRESSION_REASONS = [
  'no_recipient',
  'suppressed_address',
  'no_consent',
  'render_error',
] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

export class MessageFailureV1 {
  @IsString()
  code!: string;

  @IsOptional()
  @IsString()
  provider_code!: string | null;

  /** What the provider or the service said, for the customer (`reason` and `fix` come from the code). */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  detail?: string | null;
}

export class MessageSuppressionV1 {
  @IsIn(SUPPRESSION_REASONS)
  reason!: SuppressionReason;

  @IsString()
  @MaxLength(2048)
  detail!: string;
}

/** What the send worker did with a message: sent it, or why not. */
export class MessageAttemptRecordedV1 {
  @IsString()
  @Matches(/^msg_[0-9a-f]{32}$/)
  message_id!: string;

  @IsIn(ATTEMPT_OUTCOMES)
  outcome!: AttemptOutcome;

  @IsOptional()
  @IsString()
  recipient!: string | null;

  @IsOptional()
  @IsString()
  body!: string | null;

  @IsOptional()
  @IsString()
  subject?: string | null;

  @IsOptional()
  @IsString()
  html?: string | null;

  @IsOptional()
  @IsString()
  provider_message_id?: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => MessageFailureV1)
  failure?: MessageFailureV1 | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => MessageSuppressionV1)
  suppression?: MessageSuppressionV1 | null;

  @IsISO8601()
  attempted_at!: string;

  /** The links of the body tracked at render time (extensions §10), `link_index` = place; absent without any. */
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => TrackedLinkV1)
  links?: TrackedLinkV1[];
}

export const RECEIPT_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

/** A status the provider (or the sandbox) reported for a sent message. */
export class MessageReceiptRecordedV1 {
  @IsString()
  message_id!: string;

  @IsIn(RECEIPT_STATUSES)
  status!: ReceiptStatus;

  @IsISO8601()
  at!: string;

  @IsIn(['sandbox', 'provider'])
  source!: 'sandbox' | 'provider';

  @IsOptional()
  @ValidateNested()
  @Type(() => MessageFailureV1)
  failure?: MessageFailureV1 | null;
}

/** A route step's `wait_for` status did not come within its `timeout`. */
export class MessageTimeoutRecordedV1 {
  @IsString()
  message_id!: string;

  @IsInt()
  @Min(0)
  step!: number;

  @IsISO8601()
  at!: string;
}

// --- facts ------------------------------------------------------------------------------------

/** What an inbound message's text can be besides a message (extensions §9): an opt-out or an opt-in. */
export const INBOUND_MESSAGE_KEYWORDS = ['opt_out', 'opt_in'] as const;
export type InboundMessageKeyword = (typeof INBOUND_MESSAGE_KEYWORDS)[number];

export class MessagingChannelFactV1 {
  @IsInt()
  @Min(1)
  channel_id!: number;

  @IsIn(CHANNEL_TYPES)
  type!: ChannelType;

  @IsIn(CHANNEL_PROVIDERS)
  provider!: ChannelProvider;

  @IsString()
  name!: string;

  @IsString()
  status!: string;

  @IsBoolean()
  is_default!: boolean;

  @IsISO8601()
  at!: string;
}

export class MessagingTemplateFactV1 {
  @IsInt()
  @Min(1)
  template_id!: number;

  @IsString()
  name!: string;

  @IsIn(CHANNEL_TYPES)
  channel!: ChannelType;

  @IsISO8601()
  at!: string;
}

export class MessagingDeletedV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsISO8601()
  at!: string;
}

/**
 * message.queued … message.received: the message after the change, with everything the message.*
 * webhooks carry (the specification's data of message.* events), so a consumer needs nothing else.
 */
export class MessageFactV1 {
  @IsString()
  id!: string;

  @IsIn(['outbound', 'inbound'])
  direction!: 'outbound' | 'inbound';

  /** The stage the fact reports. */
  @IsString()
  status!: string;

  @IsIn(CONSENT_CHANNELS)
  channel!: ChannelType;

  @IsInt()
  @Min(1)
  channel_id!: number;

  @IsOptional()
  @IsString()
  recipient!: string | null;

  @IsOptional()
  @IsString()
  template!: string | null;

  @IsOptional()
  @IsObject()
  workflow!: { id: number; name: string; run_id: number; step: string } | null;

  @IsOptional()
  campaign_id!: number | string | null;

  /**
   * The bot conversation that made it (extensions §12), null for every other message. Absent from the
   * facts published before messages were marked, none of them a bot's: read as null.
   */
  @IsOptional()
  @ValidateNested()
  @Type(() => MessageBotV1)
  bot?: MessageBotV1 | null;

  /**
   * Made by a notification's test send (extensions §13). Absent from the facts published before
   * messages were marked, all of them of messages no test send made: read as false.
   */
  @IsOptional()
  @IsBoolean()
  test?: boolean;

  @IsOptional()
  @IsString()
  fallback_from!: string | null;

  @IsOptional()
  @IsObject()
  failure!: { code: string; reason: string; fix: string; provider_code: string | null } | null;

  @IsOptional()
  @IsObject()
  suppression!: { reason: string; detail: string } | null;

  /** id, external_id, name, phone, email; id null for an inbound message no contact matches. */
  @IsObject()
  contact!: {
    id: number | null;
    external_id: string | null;
    name: string | null;
    phone: string | null;
    email: string | null;
  };

  @IsOptional()
  @IsISO8601()
  sent_at!: string | null;

  @IsOptional()
  @IsISO8601()
  delivered_at!: string | null;

  @IsOptional()
  @IsISO8601()
  read_at!: string | null;

  @IsOptional()
  @IsISO8601()
  failed_at!: string | null;

  /** The inbound text (message.received) or the rendered body. */
  @IsOptional()
  @IsString()
  body?: string | null;

  /**
   * Of an inbound message (message.received): the channel's opt-out or opt-in keyword its text was
   * (extensions §9, Suppressions and consent from channels), or null. Absent from outbound messages'
   * facts and from those published before inbound messages were marked.
   */
  @IsOptional()
  @IsIn(INBOUND_MESSAGE_KEYWORDS)
  keyword?: InboundMessageKeyword | null;

  @IsISO8601()
  at!: string;
}

/** The payload class of every request the messaging service decides. */
export const MESSAGING_REQUEST_SCHEMAS = {
  [MESSAGING_REQUEST_TYPES.channelCreate]: MessagingChannelCreateRequestedV1,
  [MESSAGING_REQUEST_TYPES.channelUpdate]: MessagingChannelUpdateRequestedV1,
  [MESSAGING_REQUEST_TYPES.channelDelete]: MessagingChannelDeleteRequestedV1,
  [MESSAGING_REQUEST_TYPES.pushSubscriptionCreate]: PushSubscriptionCreateRequestedV1,
  [MESSAGING_REQUEST_TYPES.sandboxInbound]: MessagingChannelSandboxInboundRequestedV1,
  [MESSAGING_REQUEST_TYPES.templateCreate]: TemplateCreateRequestedV1,
  [MESSAGING_REQUEST_TYPES.templateUpdate]: TemplateUpdateRequestedV1,
  [MESSAGING_REQUEST_TYPES.templateDelete]: TemplateDeleteRequestedV1,
  [MESSAGING_REQUEST_TYPES.messageSend]: MessageSendRequestedV1,
  [MESSAGING_REQUEST_TYPES.providerCallback]: ProviderCallbackReceivedV1,
  [MESSAGING_REQUEST_TYPES.messageAttempt]: MessageAttemptRecordedV1,
  [MESSAGING_REQUEST_TYPES.messageReceipt]: MessageReceiptRecordedV1,
  [MESSAGING_REQUEST_TYPES.messageTimeout]: MessageTimeoutRecordedV1,
  ...SUPPRESSION_REQUEST_SCHEMAS,
  ...LINK_REQUEST_SCHEMAS,
} as const;

export type MessagingRequestPayloads = PayloadsOf<typeof MESSAGING_REQUEST_SCHEMAS>;

/** The message facts that become message.* webhooks. */
export const MESSAGE_WEBHOOK_FACT_TYPES = [
  MESSAGING_FACT_TYPES.messageSent,
  MESSAGING_FACT_TYPES.messageDelivered,
  MESSAGING_FACT_TYPES.messageRead,
  MESSAGING_FACT_TYPES.messageFailed,
  MESSAGING_FACT_TYPES.messageSuppressed,
] as const;

export const MESSAGING_RECORD_TYPES: RecordTypeDefinition[] = [
  ...firstVersions(MESSAGING_REQUEST_SCHEMAS),
  { type: SUPPRESSION_FACT_TYPES.added, version: 1, schema: SuppressionChangedV1 },
  { type: SUPPRESSION_FACT_TYPES.removed, version: 1, schema: SuppressionChangedV1 },
  { type: MESSAGING_FACT_TYPES.channelCreated, version: 1, schema: MessagingChannelFactV1 },
  { type: MESSAGING_FACT_TYPES.channelUpdated, version: 1, schema: MessagingChannelFactV1 },
  { type: MESSAGING_FACT_TYPES.channelDeleted, version: 1, schema: MessagingDeletedV1 },
  { type: MESSAGING_FACT_TYPES.templateCreated, version: 1, schema: MessagingTemplateFactV1 },
  { type: MESSAGING_FACT_TYPES.templateUpdated, version: 1, schema: MessagingTemplateFactV1 },
  { type: MESSAGING_FACT_TYPES.templateDeleted, version: 1, schema: MessagingDeletedV1 },
  ...[
    MESSAGING_FACT_TYPES.messageQueued,
    ...MESSAGE_WEBHOOK_FACT_TYPES,
    MESSAGING_FACT_TYPES.messageReceived,
  ].map((type) => ({ type, version: 1, schema: MessageFactV1 })),
  ...LINK_FACT_DEFINITIONS,
];
