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

/** `POST /api/v1/events`; the Idempotency-Key header travels beside it in the request record. */
export class RecordEventBody {
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
  data?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @Matches(OCCURRED_AT_PATTERN, {
    message:
      'occurred_at must be an ISO 8601 date or a date-time with a time zone, e.g. 2026-03-01T12:00:00Z',
  })
  @IsISO8601({ strict: true })
  occurred_at?: string | null;
}
