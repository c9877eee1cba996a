import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { CONSENT_CHANNELS, type ConsentChannel } from './channels';
import { MAX_IDEMPOTENCY_KEY, RecordedEventBody } from './event.bodies';
import { IsRetryKeys } from './inbound.records';

export const EVENT_REQUEST_TYPES = {
  record: 'event.record.requested',
} as const;

export const EVENT_FACT_TYPES = {
  /** The automations service starts the workflows listening for `name` from this. */
  recorded: 'event.recorded',
} as const;

export const CONSENT_FACT_TYPES = {
  granted: 'consent.granted',
  revoked: 'consent.revoked',
} as const;

export const CONSENT_STATUSES = ['granted', 'revoked'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

/**
 * Where a consent change came from: `api` for the public API (events and contact endpoints), `keyword`
 * for an opt-out or opt-in word a contact sent to a channel, `provider` for a provider's opt-out.
 */
export const CONSENT_SOURCES = ['api', 'keyword', 'provider'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

// --- requests ---------------------------------------------------------------------------------

export class EventRecordRequestedV1 extends RecordedEventBody {
  /** Minted by the gateway; not used when the Idempotency-Key was seen before. */
  @IsInt()
  @Min(1)
  event_id!: number;

  /** Minted by the gateway; used only when no contact matches and one is created. */
  @IsInt()
  @Min(1)
  contact_id!: number;

  /**
   * The workspace plan's stored-contacts limit as the gateway's cached key saw it: used only for a
   * workspace whose plan records carry no limit (the limit of the latest one is used otherwise).
   */
  @IsInt()
  @Min(0)
  contact_limit!: number;

  /** The Idempotency-Key header, when the client sent one. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_IDEMPOTENCY_KEY)
  idempotency_key?: string;

  /** Set when the event came through an integration's inbound webhook; the answer is then `{event_id, contact_id}`. */
  @IsOptional()
  @IsInt()
  @Min(1)
  integration_id?: number;

  /** The inbound webhook's retry ids (see IsRetryKeys); the Idempotency-Key above stays unset then. */
  @IsRetryKeys()
  retry_keys?: string[];
}

// --- facts ------------------------------------------------------------------------------------

export class EventRecordedV1 {
  @IsInt()
  @Min(1)
  event_id!: number;

  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  contact_id!: number;

  @IsObject()
  data!: Record<string, unknown>;

  @IsISO8601()
  occurred_at!: string;

  @IsISO8601()
  received_at!: string;

  @IsOptional()
  @IsString()
  idempotency_key!: string | null;
}

/** The contact as outbound webhooks show it. */
export class ConsentContactV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsOptional()
  @IsString()
  external_id!: string | null;

  @IsOptional()
  @IsString()
  name!: string | null;

  @IsOptional()
  @IsString()
  phone!: string | null;

  @IsOptional()
  @IsString()
  email!: string | null;
}

/** consent.granted and consent.revoked: the data of the webhook events of the same names. */
export class ConsentChangedV1 {
  @IsIn(CONSENT_CHANNELS)
  channel!: ConsentChannel;

  @IsIn(CONSENT_STATUSES)
  status!: ConsentStatus;

  @IsIn(CONSENT_SOURCES)
  source!: ConsentSource;

  @IsObject()
  @ValidateNested()
  @Type(() => ConsentContactV1)
  contact!: ConsentContactV1;

  @IsISO8601()
  occurred_at!: string;
}
