import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';

import { CHANNEL_TYPES, type ChannelType } from './channel.bodies';

/** The reasons an address is on a workspace's suppression list (extensions §9). */
export const SUPPRESSION_LIST_REASONS = [
  'opted_out',
  'bounced',
  'spam_complaint',
  'invalid_recipient',
  'manual',
] as const;
export type SuppressionListReason = (typeof SUPPRESSION_LIST_REASONS)[number];

/** Who put an address on the list: the customer's API call, an inbound keyword, or a provider. */
export const SUPPRESSION_SOURCES = ['api', 'keyword', 'provider'] as const;
export type SuppressionSource = (typeof SUPPRESSION_SOURCES)[number];

/** A suppression entry's id: `sup_` and 32 hex digits, derived from what added it. */
export const SUPPRESSION_ID_PATTERN = /^sup_[0-9a-f]{32}$/;

/** The longest address an entry takes (an email address is at most 320 characters). */
export const MAX_SUPPRESSION_ADDRESS_LENGTH = 320;

/** A name made only of white space is no address. */
const NOT_BLANK = /\S/;

/** Requests of the suppression list and of inbound messages (cms.requests.v1, key = workspace id). */
export const SUPPRESSION_REQUEST_TYPES = {
  create: 'suppression.create.requested',
  delete: 'suppression.delete.requested',
  /**
   * Appended by the messaging service when it decides an inbound message: the contact the sender was
   * matched to then, so a rebuild links the message to the same contact whatever its contact view holds.
   */
  inboundMatch: 'message.inbound-match.recorded',
} as const;

/** `POST /api/v1/suppressions`: a manual entry. The address is normalised for the channel type. */
export class CreateSuppressionBody {
  @IsIn(CHANNEL_TYPES, { message: `channel must be one of ${CHANNEL_TYPES.join(', ')}` })
  channel!: ChannelType;

  @IsString()
  @Matches(NOT_BLANK, { message: 'address must not be blank' })
  @MaxLength(MAX_SUPPRESSION_ADDRESS_LENGTH)
  address!: string;

  /** Optional; an entry made through the API is `manual` (the other reasons are the system's). */
  @IsOptional()
  @IsIn(['manual'], {
    message: 'reason must be manual when given: the other reasons are added by the system',
  })
  reason?: 'manual';
}

export class SuppressionCreateRequestedV1 extends CreateSuppressionBody {}

export class SuppressionDeleteRequestedV1 {
  @IsString()
  @Matches(SUPPRESSION_ID_PATTERN)
  suppression_id!: string;
}

/** The contact an inbound message's sender was matched to when it was decided (null: none). */
export class MessageInboundMatchRecordedV1 {
  @IsString()
  @Matches(/^msg_[0-9a-f]{32}$/)
  message_id!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  contact_id!: number | null;
}

/** Appended to MESSAGING_REQUEST_SCHEMAS. */
export const SUPPRESSION_REQUEST_SCHEMAS = {
  [SUPPRESSION_REQUEST_TYPES.create]: SuppressionCreateRequestedV1,
  [SUPPRESSION_REQUEST_TYPES.delete]: SuppressionDeleteRequestedV1,
  [SUPPRESSION_REQUEST_TYPES.inboundMatch]: MessageInboundMatchRecordedV1,
} as const;

/**
 * Facts of the suppression list (cms.messaging.v1, subject = the entry id): every entry added (by the
 * API, a keyword or a provider) and every entry removed (by the API or an opt-in keyword), so other
 * services can keep their own view of who may not be messaged (segments' `reachable`).
 */
export const SUPPRESSION_FACT_TYPES = {
  added: 'suppression.added',
  removed: 'suppression.removed',
} as const;

export class SuppressionChangedV1 {
  @IsString()
  @Matches(SUPPRESSION_ID_PATTERN)
  id!: string;

  @IsIn(CHANNEL_TYPES)
  channel!: ChannelType;

  /** Normalised for the channel type, as the list holds it. */
  @IsString()
  @MaxLength(MAX_SUPPRESSION_ADDRESS_LENGTH)
  address!: string;

  @IsIn(SUPPRESSION_LIST_REASONS)
  reason!: SuppressionListReason;

  @IsIn(SUPPRESSION_SOURCES)
  source!: SuppressionSource;

  @IsISO8601()
  at!: string;
}
