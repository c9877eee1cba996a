import { IsISO8601, IsNotEmpty, IsString, IsUUID, MaxLength } from 'class-validator';

import type { RecordTypeDefinition } from '../registry/record-type-registry';
import { firstVersions, type PayloadsOf } from '../requests/request-schemas';

/** Requests the messaging service decides (cms.requests.v1, key = workspace id). */
export const MESSAGING_REQUEST_TYPES = {
  channelCreate: 'messaging-channel.create.requested',
} as const;

/** Facts the messaging service publishes (cms.messaging.v1, key = workspace id). */
export const MESSAGING_FACT_TYPES = {
  channelCreated: 'messaging-channel.created',
} as const;

// --- requests ---------------------------------------------------------------------------------

export class MessagingChannelCreateRequestedV1 {
  /** Minted by the gateway. */
  @IsUUID()
  channel_id!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name!: string;
}

// --- facts ------------------------------------------------------------------------------------

export class MessagingChannelCreatedV1 {
  @IsUUID()
  channel_id!: string;

  @IsString()
  name!: string;

  @IsISO8601()
  at!: string;
}

/** The payload class of every request the messaging service decides. */
export const MESSAGING_REQUEST_SCHEMAS = {
  [MESSAGING_REQUEST_TYPES.channelCreate]: MessagingChannelCreateRequestedV1,
} as const;

export type MessagingRequestPayloads = PayloadsOf<typeof MESSAGING_REQUEST_SCHEMAS>;

export const MESSAGING_RECORD_TYPES: RecordTypeDefinition[] = [
  ...firstVersions(MESSAGING_REQUEST_SCHEMAS),
  { type: MESSAGING_FACT_TYPES.channelCreated, version: 1, schema: MessagingChannelCreatedV1 },
];
