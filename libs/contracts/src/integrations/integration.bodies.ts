import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateBy,
  ValidateNested,
  type ValidationOptions,
} from 'class-validator';

import { IsNotBlank } from '../rules/field-rules';

/** The contact details a field mapping can point at (extensions §5). */
export const FIELD_MAPPING_TARGETS = [
  'name',
  'phone',
  'email',
  'external_id',
  'first_name',
  'last_name',
  'marketing_consent',
] as const;
export type FieldMappingTarget = (typeof FIELD_MAPPING_TARGETS)[number];

/** `contact.phone`, `answers.0.email`, `Full Name`: segments split by dots, none empty. */
export const DOT_PATH_PATTERN = /^[^.]+(?:\.[^.]+)*$/;
export const MAX_DOT_PATH_LENGTH = 255;
export const MAX_FIELD_MAPPINGS = 50;
export const MAX_INTEGRATION_TYPE_LENGTH = 100;
export const MAX_INTEGRATION_NAME_LENGTH = 255;
export const MAX_SYNC_FREQUENCY_LENGTH = 100;
/** Credentials are sealed into the log and the database; a larger object is a mistake, not a credential. */
export const MAX_CREDENTIALS_BYTES = 16 * 1024;

/** One `config.field_mappings` element: where in an inbound payload a contact detail sits. */
export class FieldMappingBody {
  @IsString()
  @Length(1, MAX_DOT_PATH_LENGTH)
  @Matches(DOT_PATH_PATTERN, { message: 'source must be a dot path such as contact.phone' })
  source!: string;

  @IsIn(FIELD_MAPPING_TARGETS, {
    message: `target must be one of ${FIELD_MAPPING_TARGETS.join(', ')}`,
  })
  target!: FieldMappingTarget;
}

export class IntegrationConfigBody {
  @IsOptional()
  @IsString()
  @MaxLength(MAX_SYNC_FREQUENCY_LENGTH)
  sync_frequency?: string | null;

  /** Tried in order: the first mapping of a target whose source holds a value wins. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_FIELD_MAPPINGS)
  @ValidateNested({ each: true })
  @Type(() => FieldMappingBody)
  field_mappings?: FieldMappingBody[];
}

function credentialsProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'credentials must be an object';
  }
  if (Buffer.byteLength(JSON.stringify(value), 'utf8') > MAX_CREDENTIALS_BYTES) {
    return `credentials must be at most ${MAX_CREDENTIALS_BYTES} bytes of JSON`;
  }
  return undefined;
}

function IsCredentials(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCredentials',
      validator: {
        validate: (value: unknown) => credentialsProblem(value) === undefined,
        defaultMessage: (args) => credentialsProblem(args?.value) ?? 'credentials must be an object',
      },
    },
    options,
  );
}

/** `POST /api/v1/integrations`. */
export class CreateIntegrationBody {
  @IsString()
  @Length(1, MAX_INTEGRATION_TYPE_LENGTH)
  type!: string;

  @IsString()
  @IsNotBlank()
  @MaxLength(MAX_INTEGRATION_NAME_LENGTH)
  name!: string;

  /** Stored sealed; never answered, never in the log in the clear. */
  @IsOptional()
  @IsCredentials()
  credentials?: Record<string, unknown>;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => IntegrationConfigBody)
  config?: IntegrationConfigBody;
}
