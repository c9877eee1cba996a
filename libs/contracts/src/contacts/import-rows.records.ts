import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  isIn,
  isInt,
  IsOptional,
  IsString,
  MaxLength,
  maxLength,
  Min,
  ValidateBy,
  type ValidationOptions,
} from 'class-validator';

/**
 * Imports (extensions §11): the segments service's import worker appends (through its outbox) the rows
 * of a job, a chunk at a time, as requests the contacts service decides like any write: matched by
 * phone, then email, as an event's contact is; an unmatched row creates a contact (within the plan's
 * limit) when the job says so. Nobody waits; the decision of every row comes back as one fact.
 */
export const IMPORT_ROWS_REQUEST_TYPE = 'contact.import-rows.requested';
export const IMPORT_ROWS_FACT_TYPE = 'contact.import-rows.decided';
/** A chunk the contacts service could never decide: its job can never complete. */
export const IMPORT_ROWS_REFUSED_FACT_TYPE = 'contact.import-rows.refused';

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

/** Characters a row's value holds at most (as MaxLength counts them). */
export const MAX_IMPORT_VALUE_LENGTH = 1024;

/** One data row, with the values of its mapped columns as the file holds them (trimmed; empty → null). */
export class ImportRowV1 {
  /** The 1-based data row. */
  @IsInt()
  @Min(1)
  row!: number;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_IMPORT_VALUE_LENGTH)
  phone!: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_IMPORT_VALUE_LENGTH)
  email!: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(MAX_IMPORT_VALUE_LENGTH)
  name!: string | null;

  /** The id the contact gets if this row creates one (reserved by the gateway for the row). */
  @IsInt()
  @Min(1)
  contact_id!: number;
}

const IMPORT_ROW_TEXT = ['phone', 'email', 'name'] as const;

/** What breaks the rules of ImportRowV1 in `row`, if anything: the same rules, checked in place. */
function importRowProblem(row: unknown): string | undefined {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return 'must be an object';
  const values = row as Record<string, unknown>;
  if (!isInt(values.row) || (values.row as number) < 1) return 'row must be an integer of at least 1';
  if (!isInt(values.contact_id) || (values.contact_id as number) < 1) {
    return 'contact_id must be an integer of at least 1';
  }
  for (const field of IMPORT_ROW_TEXT) {
    const value = values[field];
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string') return `${field} must be a string`;
    if (!maxLength(value, MAX_IMPORT_VALUE_LENGTH)) {
      return `${field} must be shorter than or equal to ${MAX_IMPORT_VALUE_LENGTH} characters`;
    }
  }
  return undefined;
}

/**
 * Every element meets `problemOf` (the rules of the element's class, checked in place). The rows of a
 * chunk and of its decision are checked so rather than as nested instances: a chunk is up to 1,000
 * rows, and class-transformer and class-validator took 40 µs a row making and checking an instance of
 * each, a third of what deciding the row takes in all (an import is up to 1,000,000 rows).
 */
function EachRow(
  name: string,
  problemOf: (row: unknown) => string | undefined,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (rows: unknown) => Array.isArray(rows) && rows.every((row) => problemOf(row) === undefined),
        defaultMessage: (args) => {
          const rows = Array.isArray(args?.value) ? (args.value as unknown[]) : [];
          const index = rows.findIndex((row) => problemOf(row) !== undefined);
          return `${args?.property ?? 'rows'}.${index}: ${problemOf(rows[index]) ?? 'is invalid'}`;
        },
      },
    },
    options,
  );
}

/** Which chunk of which import job a record is about. */
export class ImportChunkOfJobV1 {
  @IsInt()
  @Min(1)
  job_id!: number;

  /** 0-based; a chunk is decided once, whatever the log holds twice. */
  @IsInt()
  @Min(0)
  chunk!: number;
}

export class ContactImportRowsRequestedV1 extends ImportChunkOfJobV1 {
  @IsBoolean()
  create_new_entities!: boolean;

  /** As on ContactUpsertRequestedV1: used only for a workspace whose plan records carry no limit. */
  @IsInt()
  @Min(0)
  contact_limit!: number;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_IMPORT_ROWS_PER_REQUEST)
  @EachRow('areImportRows', importRowProblem)
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

/** What breaks the rules of ImportRowDecisionV1 in `row`, if anything: the same rules, checked in place. */
function rowDecisionProblem(row: unknown): string | undefined {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return 'must be an object';
  const values = row as Record<string, unknown>;
  if (!isInt(values.row) || (values.row as number) < 1) return 'row must be an integer of at least 1';
  if (!isIn(values.outcome, IMPORT_ROW_OUTCOMES)) {
    return `outcome must be one of ${IMPORT_ROW_OUTCOMES.join(', ')}`;
  }
  const contactId = values.contact_id;
  if (contactId !== null && contactId !== undefined && (!isInt(contactId) || (contactId as number) < 1)) {
    return 'contact_id must be an integer of at least 1';
  }
  const reason = values.reason;
  if (reason !== null && reason !== undefined && !isIn(reason, IMPORT_ROW_SKIP_REASONS)) {
    return `reason must be one of ${IMPORT_ROW_SKIP_REASONS.join(', ')}`;
  }
  return undefined;
}

/** cms.contacts.v1, subject = the job id: every row of one chunk, in row order. */
export class ContactImportRowsDecidedV1 extends ImportChunkOfJobV1 {
  @IsArray()
  @EachRow('areImportRowDecisions', rowDecisionProblem)
  rows!: ImportRowDecisionV1[];
}

/**
 * cms.contacts.v1, subject = the job id: a chunk the contacts service could never decide (its record
 * was dead-lettered; `reason` and `error_id` are the dead letter's). None of its rows was applied, so
 * its job can never reach its last row: the job fails. Published once, in the transaction that
 * dead-letters the chunk.
 */
export class ContactImportRowsRefusedV1 extends ImportChunkOfJobV1 {
  @IsString()
  @MaxLength(100)
  reason!: string;

  @IsString()
  @MaxLength(100)
  error_id!: string;
}

/** Appended to CONTACTS_REQUEST_SCHEMAS. */
export const IMPORT_ROWS_REQUEST_SCHEMAS = {
  [IMPORT_ROWS_REQUEST_TYPE]: ContactImportRowsRequestedV1,
} as const;
