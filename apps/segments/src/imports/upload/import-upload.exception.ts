import { JsonApiException, jsonApiErrorObject } from '@cms/http';

/** Where every refusal of an upload points: the file part of the client's form. */
export const FILE_POINTER = '/data/attributes/file';

export enum ImportUploadErrorCode {
  TooLarge = 'too_large',
  TooManyRows = 'too_many_rows',
  NotUtf8 = 'not_utf8',
  NulCharacter = 'nul_character',
  NotCsv = 'not_csv',
  NoHeader = 'no_header',
  BlankColumn = 'blank_column',
  DuplicateColumn = 'duplicate_column',
  ExtraCells = 'extra_cells',
  /** The replica takes as many uploads as it may at once. */
  ServiceBusy = 'service_busy',
  /** The workspace has as many uploads in progress as it may at once. */
  WorkspaceBusy = 'workspace_busy',
  /** The workspace holds as many bytes of uploads as it may until some expire. */
  QuotaReached = 'quota_reached',
}

/** Every code has its status; a new code that is not mapped here does not compile. */
const STATUS_OF_CODE: Record<ImportUploadErrorCode, 413 | 422 | 429> = {
  [ImportUploadErrorCode.TooLarge]: 413,
  [ImportUploadErrorCode.TooManyRows]: 422,
  [ImportUploadErrorCode.NotUtf8]: 422,
  [ImportUploadErrorCode.NulCharacter]: 422,
  [ImportUploadErrorCode.NotCsv]: 422,
  [ImportUploadErrorCode.NoHeader]: 422,
  [ImportUploadErrorCode.BlankColumn]: 422,
  [ImportUploadErrorCode.DuplicateColumn]: 422,
  [ImportUploadErrorCode.ExtraCells]: 422,
  [ImportUploadErrorCode.ServiceBusy]: 429,
  [ImportUploadErrorCode.WorkspaceBusy]: 429,
  [ImportUploadErrorCode.QuotaReached]: 429,
};

/** A file the upload rules refuse (extensions §11): nothing of it is stored. */
export class ImportUploadException extends JsonApiException {
  constructor(
    readonly code: ImportUploadErrorCode,
    detail: string,
    retryAfterSeconds?: number,
  ) {
    const status = STATUS_OF_CODE[code];
    super(
      status,
      [jsonApiErrorObject(status, detail, { source: { pointer: FILE_POINTER } })],
      retryAfterSeconds === undefined
        ? {}
        : { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    );
  }

  static serviceBusy(atOnce: number): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.ServiceBusy,
      `The service is taking ${atOnce} uploads at once, the most it takes; send the file again shortly.`,
      5,
    );
  }

  static workspaceBusy(perWorkspace: number): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.WorkspaceBusy,
      `The workspace has ${perWorkspace} uploads in progress, the most it may have at once; send the file once one is done.`,
      10,
    );
  }

  static quotaReached(quotaBytes: number, retryAfterSeconds: number): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.QuotaReached,
      `The workspace holds ${quotaBytes} bytes (${Math.round(quotaBytes / (1024 * 1024))} MiB) of uploads made in the last 24 hours, the most it may; an upload expires 24 hours after it was made.`,
      retryAfterSeconds,
    );
  }

  static tooLarge(maxBytes: number): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.TooLarge,
      `The file is larger than ${maxBytes} bytes (${maxBytes / (1024 * 1024)} MiB).`,
    );
  }

  static tooManyRows(maxRows: number): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.TooManyRows,
      `The file has more than ${maxRows} data rows.`,
    );
  }

  static notUtf8(): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.NotUtf8,
      'The file is not valid UTF-8; save it as CSV in UTF-8.',
    );
  }

  static nulCharacter(): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.NulCharacter,
      'The file contains the character U+0000, which no cell may hold.',
    );
  }

  static notCsv(reason: string): ImportUploadException {
    return new ImportUploadException(ImportUploadErrorCode.NotCsv, `The file is not valid CSV: ${reason}`);
  }

  static noHeader(): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.NoHeader,
      'The file is empty; it needs a header row naming its columns.',
    );
  }

  static blankColumn(position: number): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.BlankColumn,
      `Column ${position} of the header row has no name; every column needs one.`,
    );
  }

  static duplicateColumn(name: string, first: number, second: number): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.DuplicateColumn,
      `The header row names the column ${JSON.stringify(name)} twice (columns ${first} and ${second}); column names must be unique.`,
    );
  }

  static extraCells(row: number, cells: number, columns: number): ImportUploadException {
    return new ImportUploadException(
      ImportUploadErrorCode.ExtraCells,
      `Data row ${row} has ${cells} cells but the header row names ${columns} columns; only empty cells may follow the last column.`,
    );
  }
}
