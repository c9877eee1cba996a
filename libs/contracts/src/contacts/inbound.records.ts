import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { EventContactBody, HasContactIdentity } from './event.bodies';

/** A request from an integration's inbound webhook carries at most a header key and a payload id. */
export const MAX_RETRY_KEYS = 2;
/** `integration:<id>:header:<Idempotency-Key>` or `integration:<id>:id:<payload id>`, each part ≤ 255. */
export const MAX_RETRY_KEY_LENGTH = 320;

/**
 * The ids under which an inbound webhook request is recorded once (the Idempotency-Key header and the
 * payload's `id`, derived per integration by the gateway). They live apart from the Idempotency-Key of
 * `POST /api/v1/events`, so a customer's own key can never answer for a webhook request or the reverse.
 */
export function IsRetryKeys(): PropertyDecorator {
  return (target, property) => {
    IsOptional()(target, property);
    IsArray()(target, property);
    ArrayMaxSize(MAX_RETRY_KEYS)(target, property);
    IsString({ each: true })(target, property);
    IsNotEmpty({ each: true })(target, property);
    MaxLength(MAX_RETRY_KEY_LENGTH, { each: true })(target, property);
  };
}

/**
 * A payload of the inbound webhook without an event: adds or updates the contact only. Matched by phone,
 * then external_id, then email, like an event; created under `contact_id` when nothing matches.
 */
export class ContactIngestRequestedV1 {
  @IsObject()
  @HasContactIdentity()
  @ValidateNested()
  @Type(() => EventContactBody)
  contact!: EventContactBody;

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

  @IsInt()
  @Min(1)
  integration_id!: number;

  @IsRetryKeys()
  retry_keys?: string[];
}
