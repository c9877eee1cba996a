import { Allow, IsIn, IsInt, IsISO8601, IsObject, IsOptional, IsString, Min } from 'class-validator';

import type { RecordTypeDefinition } from '../registry/record-type-registry';
import { firstVersions, type PayloadsOf } from '../requests/request-schemas';
import { BOT_REQUEST_SCHEMAS } from './bot.records';
import { RE_ENTRIES, type ReEntry } from './workflow-definition';

/** Requests the automations service decides (cms.requests.v1, key = workspace id). */
export const AUTOMATIONS_REQUEST_TYPES = {
  workflowCreate: 'workflow.create.requested',
  workflowUpdate: 'workflow.update.requested',
  workflowDelete: 'workflow.delete.requested',
} as const;

/** Facts the automations service publishes (cms.automations.v1, key = workspace id). */
export const AUTOMATIONS_FACT_TYPES = {
  workflowCreated: 'workflow.created',
  workflowUpdated: 'workflow.updated',
  workflowDeleted: 'workflow.deleted',
} as const;

// --- bodies -----------------------------------------------------------------------------------

/**
 * `POST /api/v1/workflows` and `PATCH /api/v1/workflows/{id}`: every attribute is read, with its
 * pointers, by readWorkflowDefinition; the class only lets them through the body pipe untouched.
 */
export class WorkflowBody {
  @Allow()
  name?: unknown;

  @IsOptional()
  @Allow()
  enabled?: unknown;

  @Allow()
  trigger?: unknown;

  @Allow()
  steps?: unknown;

  @IsOptional()
  @Allow()
  goal?: unknown;

  @IsOptional()
  @Allow()
  re_entry?: unknown;
}

// --- requests ---------------------------------------------------------------------------------

/** A workflow's definition as readWorkflowDefinition reads it (defaults filled in). */
export class WorkflowDefinitionV1 {
  @IsString()
  name!: string;

  @Allow()
  enabled!: boolean;

  @IsObject()
  trigger!: Record<string, unknown>;

  @Allow()
  steps!: Array<Record<string, unknown>>;

  @Allow()
  goal!: Record<string, unknown> | null;

  @IsIn(RE_ENTRIES)
  re_entry!: ReEntry;
}

/** A new workflow: `enabled` true, `goal` null and `re_entry` after_exit unless sent. */
export class WorkflowCreateRequestedV1 extends WorkflowDefinitionV1 {
  /** Minted by the gateway. */
  @IsInt()
  @Min(1)
  workflow_id!: number;
}

/** Only the attributes sent, read by readWorkflowDefinition in its update mode. */
export class WorkflowUpdateRequestedV1 {
  @IsInt()
  @Min(1)
  workflow_id!: number;

  @IsObject()
  changes!: Record<string, unknown>;
}

export class WorkflowDeleteRequestedV1 {
  @IsInt()
  @Min(1)
  workflow_id!: number;
}

// --- facts ------------------------------------------------------------------------------------

/** `workflow.created` and `workflow.updated`: the workflow whole, as it is after the change. */
export class WorkflowFactV1 extends WorkflowDefinitionV1 {
  @IsInt()
  @Min(1)
  workflow_id!: number;

  @IsInt()
  @Min(1)
  version!: number;

  @IsISO8601()
  at!: string;
}

export class WorkflowDeletedV1 {
  @IsInt()
  @Min(1)
  workflow_id!: number;

  @IsISO8601()
  at!: string;
}

/** The payload class of every request the automations service decides. */
export const AUTOMATIONS_REQUEST_SCHEMAS = {
  [AUTOMATIONS_REQUEST_TYPES.workflowCreate]: WorkflowCreateRequestedV1,
  [AUTOMATIONS_REQUEST_TYPES.workflowUpdate]: WorkflowUpdateRequestedV1,
  [AUTOMATIONS_REQUEST_TYPES.workflowDelete]: WorkflowDeleteRequestedV1,
  ...BOT_REQUEST_SCHEMAS,
} as const;

export type AutomationsRequestPayloads = PayloadsOf<typeof AUTOMATIONS_REQUEST_SCHEMAS>;

export const AUTOMATIONS_RECORD_TYPES: RecordTypeDefinition[] = [
  ...firstVersions(AUTOMATIONS_REQUEST_SCHEMAS),
  { type: AUTOMATIONS_FACT_TYPES.workflowCreated, version: 1, schema: WorkflowFactV1 },
  { type: AUTOMATIONS_FACT_TYPES.workflowUpdated, version: 1, schema: WorkflowFactV1 },
  { type: AUTOMATIONS_FACT_TYPES.workflowDeleted, version: 1, schema: WorkflowDeletedV1 },
];
