import {
  ID_BLOCK_SIZE,
  IMPORT_ROWS_PER_CHUNK,
  MAX_CONTACT_TEXT,
  MAX_PHONE_LENGTH,
  type ImportRowV1,
} from '@cms/contracts';

import type { ImportMapping } from '../import-job.entity';

/** The longest value a row carries to the contacts service (ImportRowV1's bound). */
export const MAX_IMPORT_CELL_LENGTH = 1024;

/**
 * How much of each mapped cell a row carries. A phone or an email longer than a contact's can be is
 * invalid whatever follows, so one character past that bound keeps the contacts service's verdict
 * and no more; a name is a contact's name, cut to what a contact's name can hold. With these bounds
 * a chunk's record stays far below the topics' record size whatever the file holds (500 rows of
 * characters JSON writes as six bytes each: under 2 MiB).
 */
export const IMPORT_CELL_LENGTHS = {
  phone: MAX_PHONE_LENGTH + 1,
  email: MAX_CONTACT_TEXT + 1,
  name: MAX_CONTACT_TEXT,
} as const;

/** The chunks of a job of `rowsTotal` data rows. */
export function chunkCount(rowsTotal: number): number {
  return Math.ceil(rowsTotal / IMPORT_ROWS_PER_CHUNK);
}

/** The 1-based data rows of a chunk (0-based), both ends included. */
export function chunkRows(chunk: number, rowsTotal: number): { first: number; last: number } {
  const first = chunk * IMPORT_ROWS_PER_CHUNK + 1;
  return { first, last: Math.min(rowsTotal, first + IMPORT_ROWS_PER_CHUNK - 1) };
}

/**
 * The contact id reserved for data row `row`: its place in the blocks the gateway reserved, in order.
 * `idBlocks` may be a slice of the job's blocks, starting with block `firstBlock` (0-based).
 */
export function reservedContactId(idBlocks: readonly number[], row: number, firstBlock = 0): number {
  const block = idBlocks[Math.floor((row - 1) / ID_BLOCK_SIZE) - firstBlock];
  if (block === undefined) throw new RangeError(`no block of contact ids is reserved for row ${row}`);
  return block + ((row - 1) % ID_BLOCK_SIZE);
}

/**
 * A cell as the row carries it: trimmed, null when empty (or when the row has no such cell), and cut
 * to MAX_IMPORT_CELL_LENGTH (never inside a surrogate pair). A value that long is no phone or email;
 * the contacts service judges it as the rest.
 */
export function cellValue(
  cell: string | undefined,
  maxLength: number = MAX_IMPORT_CELL_LENGTH,
): string | null {
  const value = cell?.trim() ?? '';
  if (value === '') return null;
  if (value.length <= maxLength) return value;
  const cut = value.slice(0, maxLength);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** Where each mapped column is among the upload's columns; undefined when one of them is not there. */
export function columnIndexes(
  mapping: ImportMapping,
  columns: readonly string[],
): { phone: number | null; email: number | null; name: number | null } | undefined {
  const indexes = { phone: null as number | null, email: null as number | null, name: null as number | null };
  for (const key of ['phone', 'email', 'name'] as const) {
    const column = mapping[key];
    if (column === null) continue;
    const index = columns.indexOf(column);
    if (index === -1) return undefined;
    indexes[key] = index;
  }
  return indexes;
}

/**
 * One data row as the contacts service gets it: its mapped values and the contact id it may create
 * (`idBlocks` from block `firstBlock` on, as reservedContactId reads them).
 */
export function importRow(
  row: number,
  cells: readonly string[],
  indexes: NonNullable<ReturnType<typeof columnIndexes>>,
  idBlocks: readonly number[],
  firstBlock = 0,
): ImportRowV1 {
  const value = (field: keyof typeof IMPORT_CELL_LENGTHS): string | null => {
    const index = indexes[field];
    return index === null ? null : cellValue(cells[index], IMPORT_CELL_LENGTHS[field]);
  };
  return {
    row,
    phone: value('phone'),
    email: value('email'),
    name: value('name'),
    contact_id: reservedContactId(idBlocks, row, firstBlock),
  };
}
