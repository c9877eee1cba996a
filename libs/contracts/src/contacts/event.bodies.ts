import { Type } from 'class-transformer';
import {
  IsEmail,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';

import { IsJsonOfAtMost, IsNotLaterThanAnHourAfterReceipt, MAX_DATA_BYTES } from '../rules/field-rules';
import { IsMarketingConsent, type MarketingConsentInput } from './channels';
import { MAX_CONTACT_TEXT, MAX_PHONE_LENGTH } from './contact.bodies';

/** Lowercase letters, digits and `. _ : -`, up to 100 characters. */
export const EVENT_NAME_PATTERN = /^[a-z0-9._:-]{1,100}$/;

/**
 * A calendar date, or a date-time with seconds optional and a zone (`Z` or `±hh:mm`): a time without a
 * zone would mean a different instant on every server.
 */
export const OCCURRED_AT_PATTERN =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

/**
 * An optional event time as the log carries it: every consumer checks it again on read, so nothing
 * here may depend on the clock (a replay reads the same record years later).
 */
function IsEventTime(): PropertyDecorator {
  return (target, property) => {
    IsOptional()(target, property);
    IsString()(target, property);
    Matches(OCCURRED_AT_PATTERN, {
      message:
        'occurred_at must be an ISO 8601 date or a date-time with a time zone, e.g. 2026-03-01T12:00:00Z',
    })(target, property);
    IsISO8601({ strict: true })(target, property);
  };
}

/** Longest Idempotency-Key header accepted. */
export const MAX_IDEMPOTENCY_KEY = 255;

/** Who an event is about; matched by phone, then external_id, then email. */
export class EventContactBody {
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CONTACT_TEXT)
  external_id?: string | null;

  /** Any format; kept as sent when it cannot be read as a phone number. */
  @IsOptional()
  @IsString()
  @MaxLength(MAX_PHONE_LENGTH)
  phone?: string | null;

  @IsOptional()
  @IsEmail()
  @MaxLength(MAX_CONTACT_TEXT)
  email?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_CONTACT_TEXT)
  name?: string | null;

  @IsOptional()
  @IsObject()
  @IsJsonOfAtMost(MAX_DATA_BYTES)
  data?: Record<string, unknown>;

  @IsOptional()
  @IsMarketingConsent()
  marketing_consent?: MarketingConsentInput;
}

function present(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** The contact of an event names at least one of external_id, phone or email. */
export function hasContactIdentity(contact: unknown): boolean {
  if (typeof contact !== 'object' || contact === null) return false;
  const { external_id, phone, email } = contact as Record<string, unknown>;
  return present(external_id) || present(phone) || present(email);
}

/** The contact names at least one of external_id, phone or email. */
export function HasContactIdentity(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'hasContactIdentity',
      validator: {
        validate: hasContactIdentity,
        defaultMessage: () => 'contact needs at least one of external_id, phone or email',
      },
    },
    options,
  );
}

/**
 * `POST /api/v1/events` as the request record carries it (the Idempotency-Key header travels beside
 * it): every rule of the edge but the clock's.
 */
export class RecordedEventBody {
  @IsString()
  @Matches(EVENT_NAME_PATTERN, {
    message: 'name must be 1 to 100 lowercase letters, digits or the characters . _ : -',
  })
  name!: string;

  @IsObject()
  @HasContactIdentity()
  @ValidateNested()
  @Type(() => EventContactBody)
  contact!: EventContactBody;

  @IsOptional()
  @IsObject()
  @IsJsonOfAtMost(MAX_DATA_BYTES)
  data?: Record<string, unknown>;

  @IsEventTime()
  occurred_at?: string | null;
}

/**
 * `POST /api/v1/events` (and an inbound webhook's event) as the gateway receives it: also an
 * `occurred_at` at most an hour after receipt, since a contact's values written with a later time
 * would win over every write until then.
 */
export class RecordEventBody extends RecordedEventBody {
  // class-validator lets a subclass's rules of a property replace the inherited ones: all are repeated.
  @IsEventTime()
  @IsNotLaterThanAnHourAfterReceipt()
  declare occurred_at?: string | null;
}
