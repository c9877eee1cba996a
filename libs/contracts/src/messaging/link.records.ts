import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
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

import { CONSENT_CHANNELS } from '../contacts/channels';
import type { ChannelType } from './channel.bodies';

/** Tracked links (extensions §10): the gateway records a click, the messaging service decides it. */
export const LINK_REQUEST_TYPES = {
  /**
   * From the gateway's `GET /l/<token>`, after the redirects were answered: the clicks of one workspace
   * a gateway took within a few milliseconds, in the order it took them. Nobody waits for it.
   */
  linkClicks: 'link.clicks.recorded',
} as const;

export const LINK_FACT_TYPES = {
  /** The first human click of a tracked link of a message (one per link). */
  linkClicked: 'link.clicked',
} as const;

/** The longest URL a message's link is tracked for; a longer one stays in the body as written. */
export const MAX_TRACKED_URL_LENGTH = 2048;
/** The most links of one message that are tracked; later ones stay as written. */
export const MAX_TRACKED_LINKS = 50;
/** The longest user agent a click record carries (the rest is cut off by the gateway). */
export const MAX_CLICK_USER_AGENT_LENGTH = 512;
/** The most clicks one record carries (about 70 KB at most). */
export const MAX_CLICKS_PER_RECORD = 100;

/** The token of `/l/<token>`: 22 base64url characters (132 bits of an HMAC). */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** A tracked link of a message as its attempt records it: the URL the body had, in order from 0. */
export class TrackedLinkV1 {
  @IsString()
  @MaxLength(MAX_TRACKED_URL_LENGTH)
  url!: string;
}

/** A click on `<PUBLIC_BASE_URL>/l/<token>`, as the gateway took it (the token resolved to the link). */
export class LinkClickV1 {
  @IsString()
  @Matches(/^msg_[0-9a-f]{32}$/)
  message_id!: string;

  @IsInt()
  @Min(0)
  link_index!: number;

  /** The User-Agent header, cut to MAX_CLICK_USER_AGENT_LENGTH; empty when none was sent. */
  @IsString()
  @MaxLength(MAX_CLICK_USER_AGENT_LENGTH)
  user_agent!: string;

  /** When the gateway took the click: the time a rebuild decides it with. */
  @IsISO8601()
  clicked_at!: string;
}

/** Clicks of one workspace's tracked links, in the order the gateway took them. */
export class LinkClicksRecordedV1 {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CLICKS_PER_RECORD)
  @ValidateNested({ each: true })
  @Type(() => LinkClickV1)
  clicks!: LinkClickV1[];
}

/** link.clicked: what the webhook of the same name carries (extensions §10), keyed by the message id. */
export class LinkClickedV1 {
  @IsString()
  message_id!: string;

  @IsString()
  url!: string;

  @IsInt()
  @Min(0)
  link_index!: number;

  /** id, external_id, name, phone, email, as in message.* facts. */
  @IsObject()
  contact!: {
    id: number | null;
    external_id: string | null;
    name: string | null;
    phone: string | null;
    email: string | null;
  };

  @IsIn(CONSENT_CHANNELS)
  channel!: ChannelType;

  @IsOptional()
  @IsObject()
  workflow!: { id: number; name: string; run_id: number; step: string } | null;

  @IsOptional()
  campaign_id!: number | null;

  @IsISO8601()
  clicked_at!: string;

  @IsString()
  user_agent!: string;
}

export const LINK_REQUEST_SCHEMAS = {
  [LINK_REQUEST_TYPES.linkClicks]: LinkClicksRecordedV1,
} as const;

export const LINK_FACT_DEFINITIONS = [
  { type: LINK_FACT_TYPES.linkClicked, version: 1, schema: LinkClickedV1 },
] as const;
