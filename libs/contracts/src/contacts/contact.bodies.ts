import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

import { IsJsonOfAtMost, IsNotBlank, MAX_DATA_BYTES } from '../rules/field-rules';
import { IsMarketingConsent, IsOptionalNotNull, type MarketingConsentInput } from './channels';

/** Longest name, email, external id and source accepted. */
export const MAX_CONTACT_TEXT = 255;
/** Longest phone accepted as sent (before it is normalised to E.164). */
export const MAX_PHONE_LENGTH = 30;
/** Contacts in one `POST /api/v1/contacts/batch` at most (extensions §1). */
export const MAX_BATCH_CONTACTS = 1000;

/** `POST /api/v1/contacts/upsert`. The contacts service also parses the phone (422 when it cannot). */
export class UpsertContactBody {
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_CONTACT_TEXT)
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_CONTACT_TEXT)
  external_id?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_CONTACT_TEXT)
  source?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_PHONE_LENGTH)
  phone?: string | null;

  @IsOptional()
  @IsEmail()
  @MaxLength(MAX_CONTACT_TEXT)
  email?: string | null;

  @IsOptional()
  @IsObject()
  @IsJsonOfAtMost(MAX_DATA_BYTES)
  data?: Record<string, unknown>;

  @IsOptional()
  @IsMarketingConsent()
  marketing_consent?: MarketingConsentInput;
}

/**
 * `POST /api/v1/contacts/batch`. Only the list itself is checked here: each element is validated by
 * the contacts service against `UpsertContactBody`, so that a bad element fails alone and the answer
 * reports it among the per-element results.
 */
export class BatchUpsertContactsBody {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_CONTACTS)
  @IsObject({ each: true })
  contacts!: Array<Record<string, unknown>>;
}

/** `PUT /api/v1/contacts/{contact_id}`: every field optional; null clears phone, email, external_id, source. */
export class UpdateContactBody {
  @IsOptionalNotNull()
  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_CONTACT_TEXT)
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_CONTACT_TEXT)
  external_id?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_CONTACT_TEXT)
  source?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_PHONE_LENGTH)
  phone?: string | null;

  @IsOptional()
  @IsEmail()
  @MaxLength(MAX_CONTACT_TEXT)
  email?: string | null;

  @IsOptionalNotNull()
  @IsObject()
  @IsJsonOfAtMost(MAX_DATA_BYTES)
  data?: Record<string, unknown>;

  @IsOptionalNotNull()
  @IsMarketingConsent()
  marketing_consent?: MarketingConsentInput;
}

/** `PUT /api/v1/contacts/{contact_id}/channels/{channel}`. */
export class LinkChannelBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_CONTACT_TEXT)
  external_id!: string;
}

/** Contact ids another service asks the contacts service about (internal). */
export class ContactIdsBody {
  @IsArray()
  @ArrayMaxSize(20_000)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(Number.MAX_SAFE_INTEGER, { each: true })
  contact_ids!: number[];
}
