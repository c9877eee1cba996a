import { Type } from 'class-transformer';
import {
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import type { RecordTypeDefinition } from '../registry/record-type-registry';
import { firstVersions, type PayloadsOf } from '../requests/request-schemas';
import { SEALED_SECRET_PATTERN } from '../webhooks/webhook-secret';
import {
  IntegrationConfigBody,
  MAX_INTEGRATION_NAME_LENGTH,
  MAX_INTEGRATION_TYPE_LENGTH,
} from './integration.bodies';

/** Requests the gateway decides itself (cms.requests.v1, key = workspace id). */
export const INTEGRATION_REQUEST_TYPES = {
  create: 'integration.create.requested',
} as const;

/** Facts the gateway publishes on cms.gateway.v1; they never carry a secret, a credential or the token. */
export const INTEGRATION_FACT_TYPES = {
  created: 'integration.created',
} as const;

/**
 * `POST /api/v1/integrations` as the log keeps it: the credentials and the signing secret sealed with
 * SECRETS_KEY (`encryptSecret`), the URL token only as its SHA-256. The clear values exist only in the
 * gateway's answer to the client who created the integration.
 */
export class IntegrationCreateRequestedV1 {
  @IsInt()
  @Min(1)
  integration_id!: number;

  @IsString()
  @Length(1, MAX_INTEGRATION_TYPE_LENGTH)
  type!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_INTEGRATION_NAME_LENGTH)
  name!: string;

  /** Normalised: both members present (`sync_frequency` null, `field_mappings` [] when not given). */
  @IsObject()
  @ValidateNested()
  @Type(() => IntegrationConfigBody)
  config!: IntegrationConfigBody;

  /** The credentials object as JSON, sealed; null when none were given. */
  @IsOptional()
  @Matches(SEALED_SECRET_PATTERN)
  credentials_sealed!: string | null;

  @Matches(SEALED_SECRET_PATTERN)
  signing_secret_sealed!: string;

  /** SHA-256 of the URL token, hex. */
  @Matches(/^[0-9a-f]{64}$/)
  token_hash!: string;
}

export class IntegrationCreatedV1 {
  @IsInt()
  @Min(1)
  integration_id!: number;

  @IsInt()
  @Min(1)
  workspace_id!: number;

  @IsString()
  type!: string;

  @IsString()
  name!: string;

  @IsISO8601()
  at!: string;
}

/** The payload class of every integration request the gateway decides. */
export const INTEGRATION_REQUEST_SCHEMAS = {
  [INTEGRATION_REQUEST_TYPES.create]: IntegrationCreateRequestedV1,
} as const;

export type IntegrationRequestPayloads = PayloadsOf<typeof INTEGRATION_REQUEST_SCHEMAS>;

export const INTEGRATION_RECORD_TYPES: RecordTypeDefinition[] = [
  ...firstVersions(INTEGRATION_REQUEST_SCHEMAS),
  { type: INTEGRATION_FACT_TYPES.created, version: 1, schema: IntegrationCreatedV1 },
];
