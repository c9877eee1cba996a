import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';

/**
 * Imports (extensions §11): the segments service's import worker appends (through its outbox) the rows
 * of a job, a chunk at a time, as requests the contacts service decides like any write: matched by
 * phone, then email, as an event's contact is; an unmatched row creates a contact (within the plan's
 * limit) when the job says so. Nobody waits; the decision of every row comes back as one fact.
 */
export const IMPORT_ROWS_REQUEST_TYPE = 'contact.import-rows.requested';
export const IMPORT_ROWS_FACT_TYPE = 'contact.import-rows.decided';

/** Rows a request carries at most (IMPORT_ROWS_PER_CHUNK of segments, with room). */
export const MAX_IMPORT_ROWS_PER_REQUEST = 1_000;

export const IMPORT_ROW_SKIP_REASONS = [
  'no_identifier',
  'invalid_phone',
  'invalid_email',
  'no_match',
  'plan_limit',
] as const;
export type ImportRowSkipReason = (typeof IMPORT_ROW_SKIP_REASONS)[number];

export const IMPORT_ROW_OUTCOMES = ['created', 'matched', 'skipped'] as const;
export type ImportRowOutcome = (typeof IMPORT_ROW_OUTCOMES)[number];

/** One data row, with the values of its mapped columns as the file holds them (trimmed; empty → null). */
export class ImportRowV1 {
  /** The 1-based data row. */
  @IsInt()
  @Min(1)
  row!: number;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  phone!: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  email!: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  name!: string | null;

  /** The id the contact gets if this row creates one (reserved by the gateway for the row). */
  @IsInt()
  @Min(1)
  contact_id!: number;
}

export class ContactImportRowsRequestedV1 {
  @IsInt()
  @Min(1)
  job_id!: number;

  /** 0-based; a chunk is decided once, whatever the log holds twice. */
  @IsInt()
  @Min(0)
  chunk!: number;

  @IsBoolean()
  create_new_entities!: boolean;

  /** As on ContactUpsertRequestedV1: used only for a workspace whose plan records carry no limit. */
  @IsInt()
  @Min(0)
  contact_limit!: number;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_IMPORT_ROWS_PER_REQUEST)
  @ValidateNested({ each: true })
  @Type(() => ImportRowV1)
  rows!: ImportRowV1[];
}

/** What a row came to: the contact it matched or created, or why it was skipped. */
export class ImportRowDecisionV1 {
  @IsInt()
  @Min(1)
  row!: number;

  @IsIn(IMPORT_ROW_OUTCOMES)
  outcome!: ImportRowOutcome;

  @IsOptional()
  @IsInt()
  @Min(1)
  contact_id!: number | null;

  @IsOptional()
  @IsIn(IMPORT_ROW_SKIP_REASONS)
  reason!: ImportRowSkipReason | null;
}

/** cms.contacts.v1, subject = the job id: every row of one chunk, in row order. */
export class ContactImportRowsDecidedV1 {
  @IsInt()
  @Min(1)
  job_id!: number;

  @IsInt()
  @Min(0)
  chunk!: number;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ImportRowDecisionV1)
  rows!: ImportRowDecisionV1[];
}

/** Appended to CONTACTS_REQUEST_SCHEMAS. */
export const IMPORT_ROWS_REQUEST_SCHEMAS = {
  [IMPORT_ROWS_REQUEST_TYPE]: ContactImportRowsRequestedV1,
} as const;
