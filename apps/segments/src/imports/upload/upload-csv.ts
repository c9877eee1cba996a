import { Transform, type Readable, type TransformCallback, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';

import { CsvError, parse } from 'csv-parse';

import { ImportUploadException } from './import-upload.exception';

/** The separators a file may use (extensions §11), as the preview names them. */
export const UPLOAD_DELIMITERS = [',', ';', '\t'] as const;
export type UploadDelimiter = (typeof UPLOAD_DELIMITERS)[number];

/** Data rows the preview shows. */
export const SAMPLE_ROWS = 5;

export interface UploadCsvLimits {
  maxBytes: number;
  maxRows: number;
  /** The longest row (header included), in characters: a file of one endless cell is refused early. */
  maxRowChars: number;
}

/** What reading a file found, once every row was written. */
export interface UploadSummary {
  columns: string[];
  delimiter: UploadDelimiter;
  rowCount: number;
  /** The first data rows, keyed by column. */
  sampleRows: Array<Record<string, string>>;
  /** The size of the file. */
  bytes: number;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const BOM_BYTES: ReadonlySet<number> = new Set([0xef, 0xbb, 0xbf]);
const DELIMITER_BYTES: ReadonlyMap<number, UploadDelimiter> = new Map(
  UPLOAD_DELIMITERS.map((delimiter) => [delimiter.charCodeAt(0), delimiter]),
);

/**
 * The bytes of the file as they arrive, passed on unchanged once they are known to be within the size
 * limit, valid UTF-8 (a multi-byte character may straddle two chunks) and free of U+0000, which no text
 * column can hold.
 */
class CheckedBytes extends Transform {
  /** Bytes taken so far. */
  seen = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) {
      callback(ImportUploadException.tooLarge(this.maxBytes));
      return;
    }
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      callback(ImportUploadException.notUtf8());
      return;
    }
    if (chunk.includes(0)) {
      callback(ImportUploadException.nulCharacter());
      return;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.decoder.decode();
    } catch {
      callback(ImportUploadException.notUtf8());
      return;
    }
    callback();
  }
}

/** The separator of a header line: the one it uses most outside quotes; a comma when it uses none. */
export function delimiterOf(counts: ReadonlyMap<UploadDelimiter, number>): UploadDelimiter {
  let best: UploadDelimiter = ',';
  for (const delimiter of UPLOAD_DELIMITERS) {
    if ((counts.get(delimiter) ?? 0) > (counts.get(best) ?? 0)) best = delimiter;
  }
  return best;
}

/**
 * Holds the bytes back until the header line (the first that is not blank) is complete (its end outside
 * quotes, or the end of the file), settles `delimiter` from it, then passes everything on: the parser that follows is made for
 * that separator.
 */
class HeaderLine extends Transform {
  readonly delimiter: Promise<UploadDelimiter>;
  private settle!: (delimiter: UploadDelimiter) => void;
  private fail!: (error: Error) => void;
  private readonly held: Buffer[] = [];
  private readonly counts = new Map<UploadDelimiter, number>();
  private scanned = 0;
  private started = false;
  private quoted = false;
  private known = false;

  constructor(private readonly maxBytes: number) {
    super();
    this.delimiter = new Promise<UploadDelimiter>((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
    // Whoever waits for it sees the rejection; a stream that fails after it settled changes nothing.
    this.delimiter.catch(() => undefined);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.known) {
      callback(null, chunk);
      return;
    }
    this.held.push(chunk);
    for (const byte of chunk) {
      if (!this.started) {
        // A byte order mark and blank lines before the header are skipped, as the parser skips them.
        if (byte === LF || byte === CR || BOM_BYTES.has(byte)) continue;
        this.started = true;
      }
      if (byte === QUOTE) {
        this.quoted = !this.quoted;
      } else if (!this.quoted) {
        if (byte === LF || byte === CR) {
          this.release();
          callback();
          return;
        }
        const delimiter = DELIMITER_BYTES.get(byte);
        if (delimiter !== undefined) this.counts.set(delimiter, (this.counts.get(delimiter) ?? 0) + 1);
      }
    }
    this.scanned += chunk.length;
    if (this.scanned > this.maxBytes) {
      callback(ImportUploadException.notCsv(`the header row is longer than ${this.maxBytes} bytes.`));
      return;
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (!this.known) this.release();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.fail(error ?? new Error('the upload ended before its header row'));
    callback(error);
  }

  private release(): void {
    this.known = true;
    this.settle(delimiterOf(this.counts));
    for (const chunk of this.held.splice(0)) this.push(chunk);
  }
}

/** The header row's names, trimmed: each non-empty and used once. */
export function columnsOf(header: readonly string[]): string[] {
  const columns = header.map((name) => name.trim());
  const seen = new Map<string, number>();
  columns.forEach((name, index) => {
    if (name === '') throw ImportUploadException.blankColumn(index + 1);
    const earlier = seen.get(name);
    if (earlier !== undefined) throw ImportUploadException.duplicateColumn(name, earlier + 1, index + 1);
    seen.set(name, index);
  });
  return columns;
}

/**
 * A data row as wide as the header: a short row is completed with empty cells (a spreadsheet leaves
 * trailing empty cells out), and empty cells past the last column are dropped (a trailing separator);
 * a row with a value past the last column is refused, never cut.
 */
export function fitRow(cells: string[], width: number, row: number): string[] {
  if (cells.length === width) return cells;
  if (cells.length < width) return cells.concat(Array<string>(width - cells.length).fill(''));
  for (let index = width; index < cells.length; index += 1) {
    if (cells[index] !== '') throw ImportUploadException.extraCells(row, cells.length, width);
  }
  return cells.slice(0, width);
}

const COPY_SPECIAL = /[\\"\n\r\t]/;
const COPY_TEXT_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/**
 * A row's cells as a `text[]` field of COPY's text format: each element double-quoted with `\` and `"`
 * escaped for the array literal, then `\`, newline, carriage return and tab escaped for COPY.
 */
export function copyArrayField(cells: readonly string[]): string {
  let field = '{';
  for (let index = 0; index < cells.length; index += 1) {
    const cell = cells[index]!;
    if (index > 0) field += ',';
    field += COPY_SPECIAL.test(cell)
      ? `"${cell.replace(/[\\"]/g, '\\$&').replace(/[\\\n\r\t]/g, (char) => COPY_TEXT_ESCAPES[char]!)}"`
      : `"${cell}"`;
  }
  return `${field}}`;
}

function isBlank(cell: string): boolean {
  return cell.trim() === '';
}

/** Lines of COPY text are handed on in chunks of about this many characters. */
const COPY_CHUNK_CHARS = 256 * 1024;

/**
 * The parsed records in, lines of `COPY import_upload_rows (path, row, cells)` text out: the first
 * record is the header, every other one that is not blank a data row, numbered from 1. Keeps what the
 * preview shows.
 */
class UploadRows extends Transform {
  private columns: string[] | undefined;
  private rowCount = 0;
  private readonly sampleRows: Array<Record<string, string>> = [];
  private pending = '';

  constructor(
    private readonly path: string,
    private readonly maxRows: number,
  ) {
    super({ writableObjectMode: true, writableHighWaterMark: 1024 });
  }

  override _transform(record: string[], _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.add(record);
    } catch (error) {
      callback(error as Error);
      return;
    }
    if (this.pending.length >= COPY_CHUNK_CHARS) {
      const lines = this.pending;
      this.pending = '';
      callback(null, lines);
      return;
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.columns === undefined) {
      callback(ImportUploadException.noHeader());
      return;
    }
    callback(null, this.pending === '' ? undefined : this.pending);
  }

  summary(delimiter: UploadDelimiter): Omit<UploadSummary, 'bytes'> {
    return {
      columns: this.columns ?? [],
      delimiter,
      rowCount: this.rowCount,
      sampleRows: this.sampleRows,
    };
  }

  private add(record: string[]): void {
    const columns = this.columns;
    if (columns === undefined) {
      this.columns = columnsOf(record);
      return;
    }
    // A row of empty cells only (`;;;` a spreadsheet leaves below its data) is no row.
    if (record.every(isBlank)) return;
    const row = this.rowCount + 1;
    if (row > this.maxRows) throw ImportUploadException.tooManyRows(this.maxRows);
    const cells = fitRow(record, columns.length, row);
    this.rowCount = row;
    if (this.sampleRows.length < SAMPLE_ROWS) {
      this.sampleRows.push(Object.fromEntries(columns.map((column, index) => [column, cells[index]!])));
    }
    this.pending += `${this.path}\t${row}\t${copyArrayField(cells)}\n`;
  }
}

const ignore = (): undefined => undefined;

/** What csv-parse refuses (an unclosed quote, a row over the size limit) as the client reads it. */
function uploadErrorOf(error: unknown): unknown {
  return error instanceof CsvError ? ImportUploadException.notCsv(error.message) : error;
}

/**
 * Reads an uploaded CSV file from `source` as it arrives and writes its data rows to `rows` as COPY
 * text (see UploadRows), never holding more than a few chunks of it: UTF-8 with or without a BOM, a
 * header row whose separator (comma, semicolon or tab) the rest of the file uses, RFC 4180 quoting
 * (a stray quote inside an unquoted cell is kept as text), blank lines and rows of empty cells
 * skipped. Resolves once `rows` has taken every line; rejects with an ImportUploadException for a file
 * the rules refuse, after which `source` is no longer read (the caller decides whether to drain it)
 * and `rows` is destroyed.
 */
export async function readUploadCsv(
  source: Readable,
  rows: Writable,
  path: string,
  limits: UploadCsvLimits,
): Promise<UploadSummary> {
  const bytes = new CheckedBytes(limits.maxBytes);
  const header = new HeaderLine(limits.maxRowChars);
  const output = new UploadRows(path, limits.maxRows);
  bytes.on('error', (error) => header.destroy(error));
  // Their failures are seen through `delimiter` and the pipeline; a stream piped to without a listener
  // of its own would throw them again as uncaught errors.
  header.on('error', ignore);
  rows.on('error', ignore);
  source.pipe(bytes).pipe(header);
  // `pipe` passes on the end of a file, not a client that broke off: its request closes and never
  // ends, and the file would be waited for, with its transaction and connection, for ever.
  finished(source).catch((error: unknown) => {
    if (!bytes.destroyed) bytes.destroy(error as Error);
  });
  try {
    const delimiter = await header.delimiter;
    await pipeline(
      header,
      parse({
        delimiter,
        // Any line break, however mixed: a file edited by hand can hold both kinds.
        record_delimiter: ['\r\n', '\n', '\r'],
        bom: true,
        relax_column_count: true,
        relax_quotes: true,
        skip_empty_lines: true,
        max_record_size: limits.maxRowChars,
      }),
      output,
      rows,
    );
    return { ...output.summary(delimiter), bytes: bytes.seen };
  } catch (error) {
    if (!rows.destroyed) rows.destroy(error as Error);
    throw uploadErrorOf(error);
  } finally {
    source.unpipe(bytes);
    bytes.destroy();
  }
}
