import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Matches,
  Min,
} from 'class-validator';

import type { RecordTypeDefinition } from '../registry/record-type-registry';
import { firstVersions, type PayloadsOf } from '../requests/request-schemas';

export const PLANS = ['starter', 'pro', 'business', 'agency'] as const;
export type Plan = (typeof PLANS)[number];

export const PERMISSIONS = ['read', 'create', 'update', 'delete'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Requests the gateway decides itself (cms.requests.v1). */
export const GATEWAY_REQUEST_TYPES = {
  workspaceCreate: 'workspace.create.requested',
  workspaceUpdate: 'workspace.update.requested',
  apiKeyCreate: 'apikey.create.requested',
  apiKeyDelete: 'apikey.delete.requested',
} as const;

/** Facts the gateway publishes (cms.gateway.v1) for services that need to know workspaces and plans. */
export const GATEWAY_FACT_TYPES = {
  workspaceCreated: 'workspace.created',
  workspaceUpdated: 'workspace.updated',
  apiKeyCreated: 'apikey.created',
  apiKeyDeleted: 'apikey.deleted',
} as const;

export class WorkspaceCreateRequestedV1 {
  @IsInt()
  @Min(1)
  workspace_id!: number;

  @IsString()
  @Length(1, 255)
  name!: string;

  @IsIn(PLANS)
  plan!: Plan;

  /**
   * The plan's stored-contacts limit as the gateway configures it, so that services judge every later
   * request of the workspace by it, in log order. Absent in records written before it was added.
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  contact_limit?: number;
}

export class WorkspaceUpdateRequestedV1 {
  @IsInt()
  @Min(1)
  workspace_id!: number;

  @IsOptional()
  @IsString()
  @Length(1, 255)
  name?: string;

  @IsOptional()
  @IsIn(PLANS)
  plan?: Plan;

  /**
   * The plan's stored-contacts limit as the gateway configures it, so that services judge every later
   * request of the workspace by it, in log order. Set when `plan` is; absent in records written before it was added.
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  contact_limit?: number;
}

export class ApiKeyCreateRequestedV1 {
  @IsInt()
  @Min(1)
  api_key_id!: number;

  @IsInt()
  @Min(1)
  workspace_id!: number;

  @IsString()
  @Length(1, 255)
  name!: string;

  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(PERMISSIONS, { each: true })
  permissions!: Permission[];

  /** SHA-256 of the key, hex: the key itself never enters the log. */
  @Matches(/^[0-9a-f]{64}$/)
  key_hash!: string;

  /** The recognisable start of the key, shown in listings. */
  @IsString()
  @Length(1, 32)
  key_prefix!: string;
}

export class ApiKeyDeleteRequestedV1 {
  @IsInt()
  @Min(1)
  api_key_id!: number;
}

export class WorkspaceFactV1 {
  @IsInt()
  @Min(1)
  workspace_id!: number;

  @IsString()
  name!: string;

  @IsIn(PLANS)
  plan!: Plan;

  @IsISO8601()
  at!: string;
}

export class ApiKeyCreatedV1 {
  @IsInt()
  @Min(1)
  api_key_id!: number;

  @IsInt()
  @Min(1)
  workspace_id!: number;

  @IsString()
  name!: string;

  @IsArray()
  @IsIn(PERMISSIONS, { each: true })
  permissions!: Permission[];

  @IsISO8601()
  at!: string;
}

export class ApiKeyDeletedV1 {
  @IsInt()
  @Min(1)
  api_key_id!: number;

  @IsInt()
  @Min(1)
  workspace_id!: number;

  @IsISO8601()
  at!: string;
}

/** The payload class of every workspace and API key request the gateway decides. */
export const GATEWAY_REQUEST_SCHEMAS = {
  [GATEWAY_REQUEST_TYPES.workspaceCreate]: WorkspaceCreateRequestedV1,
  [GATEWAY_REQUEST_TYPES.workspaceUpdate]: WorkspaceUpdateRequestedV1,
  [GATEWAY_REQUEST_TYPES.apiKeyCreate]: ApiKeyCreateRequestedV1,
  [GATEWAY_REQUEST_TYPES.apiKeyDelete]: ApiKeyDeleteRequestedV1,
} as const;

export type GatewayRequestPayloads = PayloadsOf<typeof GATEWAY_REQUEST_SCHEMAS>;

export const GATEWAY_RECORD_TYPES: RecordTypeDefinition[] = [
  ...firstVersions(GATEWAY_REQUEST_SCHEMAS),
  { type: GATEWAY_FACT_TYPES.workspaceCreated, version: 1, schema: WorkspaceFactV1 },
  { type: GATEWAY_FACT_TYPES.workspaceUpdated, version: 1, schema: WorkspaceFactV1 },
  { type: GATEWAY_FACT_TYPES.apiKeyCreated, version: 1, schema: ApiKeyCreatedV1 },
  { type: GATEWAY_FACT_TYPES.apiKeyDeleted, version: 1, schema: ApiKeyDeletedV1 },
];
