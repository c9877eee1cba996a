import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsNotEmptyObject,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { CONSENT_CHANNELS, IsOptionalNotNull, type ConsentChannel } from '../contacts/channels';

/** The channel types a channel can have: the channels of the specification. */
export const CHANNEL_TYPES = CONSENT_CHANNELS;
export type ChannelType = ConsentChannel;

/** The providers a channel can connect to (extensions §9). */
export const CHANNEL_PROVIDERS = ['sandbox', 'twilio', 'meta', 'telegram', 'smtp', 'web_push'] as const;
export type ChannelProvider = (typeof CHANNEL_PROVIDERS)[number];

/** The statuses a client may set; `failing` is set by the service when a provider refuses the credentials. */
export const SETTABLE_CHANNEL_STATUSES = ['active', 'disabled'] as const;
export const CHANNEL_STATUSES = ['active', 'disabled', 'failing'] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

export const MAX_CHANNEL_NAME_LENGTH = 255;
/** A name made only of white space is no name. */
const NOT_BLANK = /\S/;

/** `POST /api/v1/channels`. Credentials are opened and checked by the messaging service. */
export class CreateChannelBody {
  @IsIn(CHANNEL_TYPES, { message: `type must be one of ${CHANNEL_TYPES.join(', ')}` })
  type!: ChannelType;

  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(MAX_CHANNEL_NAME_LENGTH)
  name!: string;

  @IsIn(CHANNEL_PROVIDERS, { message: `provider must be one of ${CHANNEL_PROVIDERS.join(', ')}` })
  provider!: ChannelProvider;

  @IsOptional()
  @IsObject()
  credentials?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsBoolean()
  is_default?: boolean;
}

/** `PATCH /api/v1/channels/{id}`: only the fields sent change; credentials and metadata are merged. */
export class UpdateChannelBody {
  @IsOptionalNotNull()
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(MAX_CHANNEL_NAME_LENGTH)
  name?: string;

  @IsOptionalNotNull()
  @IsObject()
  credentials?: Record<string, unknown>;

  @IsOptionalNotNull()
  @IsObject()
  metadata?: Record<string, unknown>;

  @IsOptionalNotNull()
  @IsBoolean()
  is_default?: boolean;

  @IsOptionalNotNull()
  @IsIn(SETTABLE_CHANNEL_STATUSES, { message: 'status must be active or disabled' })
  status?: (typeof SETTABLE_CHANNEL_STATUSES)[number];
}

export class PushSubscriptionKeysBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  p256dh!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  auth!: string;
}

/** `POST /api/v1/channels/{id}/push-subscriptions`: the browser's PushSubscription JSON. */
export class CreatePushSubscriptionBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  endpoint!: string;

  @IsObject()
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => PushSubscriptionKeysBody)
  keys!: PushSubscriptionKeysBody;
}

/** `POST /api/v1/channels/{id}/sandbox/inbound`: a message from `from` to a sandbox channel. */
export class SandboxInboundBody {
  @IsString()
  @Matches(NOT_BLANK, { message: 'from must not be blank' })
  @MaxLength(320)
  from!: string;

  @IsString()
  @MaxLength(4096)
  text!: string;
}
