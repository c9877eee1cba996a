import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

import {
  CONSENT_CHANNELS,
  IsOptionalNotNull,
  type ConsentChannel as ChannelType,
} from '../contacts/channels';
import type { RecordTypeDefinition } from '../registry/record-type-registry';
import { firstVersions, type PayloadsOf } from '../requests/request-schemas';
import { ID_BLOCK_SIZE } from '../rules/field-rules';

/**
 * Segments (extensions §11): audiences made of a filter, of lists of contact ids or of an imported
 * file, the preview of any of them, and imports. Writes are requests the segments service decides
 * (cms.requests.v1, key = workspace id); its facts go on cms.segments.v1.
 */

export const MAX_AUDIENCE_NAME_LENGTH = 255;
/** Ids an `include_contact_ids` or `exclude_contact_ids` list holds at most. */
export const MAX_AUDIENCE_CONTACT_IDS = 10_000;
/** Contacts a preview's sample holds by default and at most. */
export const DEFAULT_PREVIEW_LIMIT = 10;
export const MAX_PREVIEW_LIMIT = 100;
/** An uploaded file: at most 50 MiB and 1,000,000 data rows (extensions §11). */
export const MAX_IMPORT_FILE_BYTES = 50 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 1_000_000;
/** How long an upload's `path` can be processed. */
export const IMPORT_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/** Rows one import request to the contacts service carries. */
export const IMPORT_ROWS_PER_CHUNK = 500;
/** The first errors a job keeps (extensions §11). */
export const MAX_IMPORT_JOB_ERRORS = 100;
/** An upload's opaque reference: `upl_` and 32 hex digits. */
export const IMPORT_PATH_PATTERN = /^upl_[0-9a-f]{32}$/;

const NOT_BLANK = /\S/;

/** An `include_contact_ids` or `exclude_contact_ids` list: optional, of contact ids, bounded. */
function IsContactIdList(): PropertyDecorator {
  const rules = [
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_AUDIENCE_CONTACT_IDS),
    IsInt({ each: true }),
    Min(1, { each: true }),
    Max(Number.MAX_SAFE_INTEGER, { each: true }),
  ];
  return (target, key) => {
    for (const rule of rules) rule(target, key);
  };
}

export const AUDIENCE_SOURCES = ['filters', 'import'] as const;
export type AudienceSource = (typeof AUDIENCE_SOURCES)[number];

export const IMPORT_JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ImportJobStatus = (typeof IMPORT_JOB_STATUSES)[number];

export const SEGMENTS_REQUEST_TYPES = {
  audienceCreate: 'audience.create.requested',
  audienceUpdate: 'audience.update.requested',
  audienceDelete: 'audience.delete.requested',
  importProcess: 'audience-import.process.requested',
  /** Appended by the segments service's import worker: the job's rows can no longer be read. */
  importFail: 'audience-import.fail.requested',
  /**
   * The audience's members as they are now, taken once and written into the log (extensions §13):
   * appended by the broadcasts service when a send starts; nobody waits for it.
   */
  audienceSnapshot: 'audience.snapshot.requested',
} as const;

export const SEGMENTS_FACT_TYPES = {
  audienceCreated: 'audience.created',
  audienceUpdated: 'audience.updated',
  audienceDeleted: 'audience.deleted',
  importQueued: 'audience-import.queued',
  importCompleted: 'audience-import.completed',
  importFailed: 'audience-import.failed',
  /** One part of a snapshot's members, in contact id order (SNAPSHOT_PART_SIZE at most). */
  snapshotPart: 'audience.snapshot.part',
  /** The snapshot is whole: every part is before it in the partition. */
  snapshotTaken: 'audience.snapshot.taken',
} as const;

/** Contact ids in one audience.snapshot.part record (about 40 KB of JSON). */
export const SNAPSHOT_PART_SIZE = 5_000;

// --- bodies -----------------------------------------------------------------------------------

/**
 * `filter_criteria` is read by readFilterCriteria (its own pointers); here only that it is an array
 * when present, so the body's class carries it through untouched.
 */
export class CreateAudienceBody {
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(MAX_AUDIENCE_NAME_LENGTH)
  name!: string;

  @IsOptional()
  @IsArray()
  filter_criteria?: unknown[] | null;

  @IsContactIdList()
  include_contact_ids?: number[] | null;

  @IsContactIdList()
  exclude_contact_ids?: number[] | null;
}

/** `PATCH /api/v1/audiences/{id}`: only the fields sent change; null empties a list or the filter. */
export class UpdateAudienceBody {
  @IsOptionalNotNull()
  @IsString()
  @Matches(NOT_BLANK, { message: 'name must not be blank' })
  @MaxLength(MAX_AUDIENCE_NAME_LENGTH)
  name?: string;

  @IsOptional()
  @IsArray()
  filter_criteria?: unknown[] | null;

  @IsContactIdList()
  include_contact_ids?: number[] | null;

  @IsContactIdList()
  exclude_contact_ids?: number[] | null;
}

/** `POST /api/v1/audience/preview`: every field optional. */
export class PreviewAudienceBody {
  @IsOptional()
  @IsArray()
  filter_criteria?: unknown[] | null;

  @IsContactIdList()
  include_contact_ids?: number[] | null;

  @IsContactIdList()
  exclude_contact_ids?: number[] | null;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_PREVIEW_LIMIT)
  limit?: number | null;
}

/** The file columns that identify a row: each names a column of the upload, or is null. */
export class ImportMappingBody {
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  phone?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  email?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  name?: string | null;
}

/** `POST /api/v1/audience-import/process` (specification fields). */
export class ProcessImportBody {
  @IsString()
  @MaxLength(64)
  path!: string;

  @IsObject()
  @ValidateNested()
  @Type(() => ImportMappingBody)
  mapping!: ImportMappingBody;

  @IsString()
  @Matches(NOT_BLANK, { message: 'audience_name must not be blank' })
  @MaxLength(MAX_AUDIENCE_NAME_LENGTH)
  audience_name!: string;

  @IsOptional()
  @IsBoolean()
  create_new_entities?: boolean | null;
}

// --- requests ---------------------------------------------------------------------------------

export class AudienceCreateRequestedV1 extends CreateAudienceBody {
  /** Minted by the gateway. */
  @IsInt()
  @Min(1)
  audience_id!: number;
}

export class AudienceUpdateRequestedV1 extends UpdateAudienceBody {
  @IsInt()
  @Min(1)
  audience_id!: number;
}

export class AudienceDeleteRequestedV1 {
  @IsInt()
  @Min(1)
  audience_id!: number;
}

export class ImportProcessRequestedV1 extends ProcessImportBody {
  /** Minted by the gateway. */
  @IsInt()
  @Min(1)
  job_id!: number;

  /** Minted by the gateway: the audience the job fills. */
  @IsInt()
  @Min(1)
  audience_id!: number;

  /** The workspace plan's stored-contacts limit as the gateway saw it (as on contact upserts). */
  @IsInt()
  @Min(0)
  contact_limit!: number;

  /**
   * The first ids of the blocks of contact ids the gateway reserved for the rows (ID_BLOCK_SIZE each,
   * in order): data row r may create the contact `id_blocks[⌊(r−1)/size⌋] + (r−1) mod size`.
   */
  @IsArray()
  @ArrayMaxSize(Math.ceil(MAX_IMPORT_ROWS / ID_BLOCK_SIZE))
  @IsInt({ each: true })
  @Min(1, { each: true })
  id_blocks!: number[];

  /**
   * The upload as the gateway read it (its `row_count` and `expires_at`): the record carries what the
   * decision needs of it, so that deciding it again from the log (a rebuild, after the upload is long
   * gone) decides the same.
   */
  @IsInt()
  @Min(0)
  @Max(MAX_IMPORT_ROWS)
  rows_total!: number;

  @IsISO8601()
  upload_expires_at!: string;
}

/** Why an import job's rows could not all be sent to the contacts service. */
export const IMPORT_FAILURE_REASONS = ['upload_unavailable'] as const;
export type ImportFailureReason = (typeof IMPORT_FAILURE_REASONS)[number];

/** From the import worker, not a client: nobody waits for it. */
export class ImportFailRequestedV1 {
  @IsInt()
  @Min(1)
  job_id!: number;

  @IsIn(IMPORT_FAILURE_REASONS)
  reason!: ImportFailureReason;
}

// --- facts ------------------------------------------------------------------------------------

/** An audience as its facts carry it (the resource without `size`, which moves with contacts). */
export class AudienceFactV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsString()
  name!: string;

  @IsString()
  source!: AudienceSource;

  @IsArray()
  filter_criteria!: unknown[];

  @IsArray()
  include_contact_ids!: number[];

  @IsArray()
  exclude_contact_ids!: number[];

  @IsISO8601()
  created_at!: string;

  @IsISO8601()
  updated_at!: string;
}

export class AudienceDeletedV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsISO8601()
  at!: string;
}

/** An import job as its facts carry it (GET /api/v1/audience-import/jobs/{id}). */
export class ImportJobFactV1 {
  @IsInt()
  @Min(1)
  id!: number;

  @IsString()
  status!: ImportJobStatus;

  @IsInt()
  @Min(1)
  audience_id!: number;

  @IsInt()
  rows_total!: number;

  @IsInt()
  rows_processed!: number;

  @IsInt()
  contacts_created!: number;

  @IsInt()
  contacts_matched!: number;

  @IsInt()
  rows_skipped!: number;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ImportRowErrorV1)
  errors!: ImportRowErrorV1[];

  @IsISO8601()
  created_at!: string;

  @IsOptional()
  @IsISO8601()
  started_at!: string | null;

  @IsOptional()
  @IsISO8601()
  finished_at!: string | null;
}

export class ImportRowErrorV1 {
  /** The 1-based data row. */
  @IsInt()
  @Min(1)
  row!: number;

  @IsString()
  reason!: string;
}

/**
 * Take the audience's members now. Members whose recipient address for `channel` compares equal
 * (E.164 phone for sms, whatsapp and rcs; the email in lower case; the linked channel id for
 * telegram, messenger and instagram; the contact itself for web_push) count once: the one with the
 * lowest contact id is kept, the others are `deduplicated`.
 */
export class AudienceSnapshotRequestedV1 {
  /** The caller's id for the snapshot (a notification send's id): the facts carry it back. */
  @IsInt()
  @Min(1)
  snapshot_id!: number;

  @IsInt()
  @Min(1)
  audience_id!: number;

  @IsIn(CONSENT_CHANNELS)
  channel!: ChannelType;
}

export class AudienceSnapshotPartV1 {
  @IsInt()
  @Min(1)
  snapshot_id!: number;

  @IsInt()
  @Min(1)
  audience_id!: number;

  /** 0, 1, 2, … */
  @IsInt()
  @Min(0)
  part!: number;

  @IsArray()
  @ArrayMaxSize(SNAPSHOT_PART_SIZE)
  @IsInt({ each: true })
  @Min(1, { each: true })
  contact_ids!: number[];
}

export class AudienceSnapshotTakenV1 {
  @IsInt()
  @Min(1)
  snapshot_id!: number;

  @IsInt()
  @Min(1)
  audience_id!: number;

  /** False when the workspace has no such audience (then every count is 0). */
  @IsBoolean()
  found!: boolean;

  @IsInt()
  @Min(0)
  parts!: number;

  /** Members before deduplication. */
  @IsInt()
  @Min(0)
  audience_size!: number;

  /** Members left out because another member has the same recipient address. */
  @IsInt()
  @Min(0)
  deduplicated!: number;

  @IsISO8601()
  at!: string;
}

export const SEGMENTS_REQUEST_SCHEMAS = {
  [SEGMENTS_REQUEST_TYPES.audienceCreate]: AudienceCreateRequestedV1,
  [SEGMENTS_REQUEST_TYPES.audienceUpdate]: AudienceUpdateRequestedV1,
  [SEGMENTS_REQUEST_TYPES.audienceDelete]: AudienceDeleteRequestedV1,
  [SEGMENTS_REQUEST_TYPES.importProcess]: ImportProcessRequestedV1,
  [SEGMENTS_REQUEST_TYPES.importFail]: ImportFailRequestedV1,
  [SEGMENTS_REQUEST_TYPES.audienceSnapshot]: AudienceSnapshotRequestedV1,
} as const;

export type SegmentsRequestPayloads = PayloadsOf<typeof SEGMENTS_REQUEST_SCHEMAS>;

export const SEGMENTS_RECORD_TYPES: RecordTypeDefinition[] = [
  ...firstVersions(SEGMENTS_REQUEST_SCHEMAS),
  { type: SEGMENTS_FACT_TYPES.audienceCreated, version: 1, schema: AudienceFactV1 },
  { type: SEGMENTS_FACT_TYPES.audienceUpdated, version: 1, schema: AudienceFactV1 },
  { type: SEGMENTS_FACT_TYPES.audienceDeleted, version: 1, schema: AudienceDeletedV1 },
  { type: SEGMENTS_FACT_TYPES.importQueued, version: 1, schema: ImportJobFactV1 },
  { type: SEGMENTS_FACT_TYPES.importCompleted, version: 1, schema: ImportJobFactV1 },
  { type: SEGMENTS_FACT_TYPES.importFailed, version: 1, schema: ImportJobFactV1 },
  { type: SEGMENTS_FACT_TYPES.snapshotPart, version: 1, schema: AudienceSnapshotPartV1 },
  { type: SEGMENTS_FACT_TYPES.snapshotTaken, version: 1, schema: AudienceSnapshotTakenV1 },
];
