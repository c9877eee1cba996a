import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import { IsOptionalNotNull } from '../contacts/channels';
import { CHANNEL_TYPES, type ChannelType } from './channel.bodies';

export const MAX_TEMPLATE_NAME_LENGTH = 255;
/** A template's body, html or subject: Liquid source. */
export const MAX_TEMPLATE_TEXT_LENGTH = 256 * 1024;
/** BCP 47 as far as a form can tell: a language subtag and optional subtags. */
export const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*$/;
const NOT_BLANK = /\S/;

/** A WhatsApp template approved at Meta, its parameters rendered like a body. */
export class ProviderTemplateBody {
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(512)
  name!: string;

  @IsString()
  @Matches(LANGUAGE_TAG, { message: 'language must be a BCP 47 language tag' })
  language!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(4096, { each: true })
  parameters?: string[];
}

/** `POST /api/v1/templates`. `body` is required unless `provider_template` is given (decided by the service). */
export class CreateTemplateBody {
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(MAX_TEMPLATE_NAME_LENGTH)
  name!: string;

  @IsIn(CHANNEL_TYPES, { message: `channel must be one of ${CHANNEL_TYPES.join(', ')}` })
  channel!: ChannelType;

  @IsOptional()
  @IsString()
  @Matches(LANGUAGE_TAG, { message: 'language must be a BCP 47 language tag' })
  language?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEMPLATE_TEXT_LENGTH)
  body?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEMPLATE_TEXT_LENGTH)
  subject?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEMPLATE_TEXT_LENGTH)
  html?: string | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ProviderTemplateBody)
  provider_template?: ProviderTemplateBody | null;

  @IsOptional()
  @IsBoolean()
  track_links?: boolean;
}

/** `PATCH /api/v1/templates/{id}`: only the fields sent change; null clears body, subject, html, provider_template. */
export class UpdateTemplateBody {
  @IsOptionalNotNull()
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(MAX_TEMPLATE_NAME_LENGTH)
  name?: string;

  @IsOptionalNotNull()
  @IsIn(CHANNEL_TYPES, { message: `channel must be one of ${CHANNEL_TYPES.join(', ')}` })
  channel?: ChannelType;

  @IsOptionalNotNull()
  @IsString()
  @Matches(LANGUAGE_TAG, { message: 'language must be a BCP 47 language tag' })
  language?: string;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEMPLATE_TEXT_LENGTH)
  body?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEMPLATE_TEXT_LENGTH)
  subject?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_TEMPLATE_TEXT_LENGTH)
  html?: string | null;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ProviderTemplateBody)
  provider_template?: ProviderTemplateBody | null;

  @IsOptionalNotNull()
  @IsBoolean()
  track_links?: boolean;
}

/** `POST /api/v1/templates/{id}/render`: renders without sending. */
export class RenderTemplateBody {
  @IsOptional()
  @IsInt()
  @Min(1)
  contact_id?: number;

  @IsOptional()
  @IsObject()
  variables?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  event?: Record<string, unknown>;
}
