import {
  createEnvelope,
  ID_BLOCK_SIZE,
  IMPORT_ROWS_PER_CHUNK,
  IMPORT_ROWS_REQUEST_TYPE,
} from '@cms/contracts';
import { MAX_RECORD_BYTES } from '@cms/kafka';

import {
  cellValue,
  chunkCount,
  chunkRows,
  columnIndexes,
  IMPORT_CELL_LENGTHS,
  importRow,
  MAX_IMPORT_CELL_LENGTH,
  reservedContactId,
} from './import-chunk-rows';

describe('the rows of an import chunk', () => {
  it('splits a job into chunks of IMPORT_ROWS_PER_CHUNK rows, the last one short', () => {
    expect(chunkCount(0)).toBe(0);
    expect(chunkCount(IMPORT_ROWS_PER_CHUNK)).toBe(1);
    expect(chunkCount(IMPORT_ROWS_PER_CHUNK + 1)).toBe(2);
    expect(chunkRows(0, 1200)).toEqual({ first: 1, last: IMPORT_ROWS_PER_CHUNK });
    expect(chunkRows(2, 2 * IMPORT_ROWS_PER_CHUNK + 7)).toEqual({
      first: 2 * IMPORT_ROWS_PER_CHUNK + 1,
      last: 2 * IMPORT_ROWS_PER_CHUNK + 7,
    });
  });

  it('gives row r the id at its place in the reserved blocks: id_blocks[⌊(r−1)/size⌋] + (r−1) mod size', () => {
    const blocks = [501, 9001, 301];
    expect(reservedContactId(blocks, 1)).toBe(501);
    expect(reservedContactId(blocks, ID_BLOCK_SIZE)).toBe(501 + ID_BLOCK_SIZE - 1);
    expect(reservedContactId(blocks, ID_BLOCK_SIZE + 1)).toBe(9001);
    expect(reservedContactId(blocks, 2 * ID_BLOCK_SIZE + 5)).toBe(305);
    expect(() => reservedContactId(blocks, 3 * ID_BLOCK_SIZE + 1)).toThrow(RangeError);
  });

  it('trims cells, makes empty ones null and cuts long ones without splitting a character', () => {
    expect(cellValue('  +15551234567 ')).toBe('+15551234567');
    expect(cellValue('   ')).toBeNull();
    expect(cellValue('')).toBeNull();
    expect(cellValue(undefined)).toBeNull();
    expect(cellValue('x'.repeat(MAX_IMPORT_CELL_LENGTH + 10))).toHaveLength(MAX_IMPORT_CELL_LENGTH);
    const emoji = `${'a'.repeat(MAX_IMPORT_CELL_LENGTH - 1)}😀tail`;
    expect(cellValue(emoji)).toBe('a'.repeat(MAX_IMPORT_CELL_LENGTH - 1));
  });

  it('finds the mapped columns by name, and none when the file lacks one', () => {
    const columns = ['Name', 'Phone', 'E-mail'];
    expect(columnIndexes({ phone: 'Phone', email: 'E-mail', name: null }, columns)).toEqual({
      phone: 1,
      email: 2,
      name: null,
    });
    expect(columnIndexes({ phone: 'Mobile', email: null, name: null }, columns)).toBeUndefined();
  });

  it('maps a row through the mapping, with its reserved contact id', () => {
    const indexes = columnIndexes({ phone: 'Phone', email: null, name: 'Name' }, ['Name', 'Phone', 'Email'])!;
    expect(importRow(3, [' Ann ', '', 'ann@example.com'], indexes, [1001])).toEqual({
      row: 3,
      phone: null,
      email: null,
      name: 'Ann',
      contact_id: 1003,
    });
    // A short row (fewer cells than columns) has nothing in the missing ones.
    expect(importRow(1, ['Bob'], indexes, [1001])).toMatchObject({ name: 'Bob', phone: null });
  });

  it('keeps a chunk of the largest cells a file can hold well within a record, and cuts each field to its bound', () => {
    // Control characters are the costliest in JSON: six bytes each.
    const worst = '\u0001'.repeat(MAX_IMPORT_CELL_LENGTH * 4);
    const indexes = columnIndexes({ phone: 'p', email: 'e', name: 'n' }, ['p', 'e', 'n'])!;
    const rows = Array.from({ length: IMPORT_ROWS_PER_CHUNK }, (_, index) =>
      importRow(
        index + 1,
        [`x${worst}`, `y${worst}`, `z${worst}`],
        indexes,
        Array.from({ length: 5 }, (_, b) => 1 + b * ID_BLOCK_SIZE),
      ),
    );
    expect(rows[0]!.phone).toHaveLength(IMPORT_CELL_LENGTHS.phone);
    expect(rows[0]!.email).toHaveLength(IMPORT_CELL_LENGTHS.email);
    expect(rows[0]!.name).toHaveLength(IMPORT_CELL_LENGTHS.name);
    const envelope = createEnvelope({
      type: IMPORT_ROWS_REQUEST_TYPE,
      source: 'segments',
      workspaceid: '1',
      data: { job_id: 1, chunk: 0, create_new_entities: true, contact_limit: 1000, rows },
    });
    expect(Buffer.byteLength(JSON.stringify(envelope))).toBeLessThan(MAX_RECORD_BYTES / 3);
  });
});
