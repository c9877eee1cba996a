import { Bitset } from './bitset';
import { TextColumn, hashText } from './text-column';

type Query = 'equals' | 'contains' | 'startsWith' | 'endsWith' | 'present';

function rows(column: TextColumn, size: number, query: Query, ...values: string[]): number[] {
  const out = new Bitset(size);
  switch (query) {
    case 'equals':
      column.equalsAny(values, out);
      break;
    case 'contains':
      column.contains(values[0]!, out);
      break;
    case 'startsWith':
      column.startsWith(values[0]!, out);
      break;
    case 'endsWith':
      column.endsWith(values[0]!, out);
      break;
    case 'present':
      column.present(out);
      break;
  }
  const found: number[] = [];
  out.forEach((row) => found.push(row));
  return found;
}

function columnOf(values: Array<string | null>, ignoresCase = true): TextColumn {
  const column = new TextColumn(ignoresCase);
  values.forEach((value, row) => column.set(row, value));
  return column;
}

describe('TextColumn', () => {
  const emails = [
    'Ana.Silva@Example.com',
    null,
    'joao@example.org',
    'ÉLODIE@exemple.fr',
    'maria@example.com',
    '',
    'ana@ana.example.com',
  ];

  it('keeps values in lower case when it ignores case, and as given otherwise', () => {
    expect(columnOf(emails).value(0)).toBe('ana.silva@example.com');
    expect(columnOf(emails).value(3)).toBe('élodie@exemple.fr');
    expect(columnOf(emails).value(1)).toBeNull();
    expect(columnOf(emails).value(5)).toBe('');
    expect(columnOf(['TgUser'], false).value(0)).toBe('TgUser');
    expect(columnOf(emails).value(1000)).toBeNull();
  });

  it('finds equal values ignoring case, one or several at once', () => {
    const column = columnOf(emails);
    expect(rows(column, 7, 'equals', 'ANA.SILVA@example.COM')).toEqual([0]);
    expect(rows(column, 7, 'equals', 'élodie@EXEMPLE.fr', 'maria@example.com', 'nobody@x')).toEqual([3, 4]);
    expect(rows(column, 7, 'equals', 'ana')).toEqual([]);
    // More values than the short path compares one by one.
    const many = Array.from({ length: 20 }, (_, index) => `other${index}@x`).concat(['JOAO@example.org']);
    expect(rows(column, 7, 'equals', ...many)).toEqual([2]);
  });

  it('compares bytes, not only hashes, so values whose hashes collide stay apart', () => {
    expect(hashText('yaczfa')).toBe(hashText('glbppa'));
    const column = columnOf(['yaczfa', 'glbppa', 'yaczfa']);
    expect(rows(column, 3, 'equals', 'glbppa')).toEqual([1]);
    expect(rows(column, 3, 'equals', 'yaczfa', 'zzz', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h')).toEqual([
      0, 2,
    ]);
  });

  it('finds a part, a beginning and an end of values, never across two values', () => {
    const column = columnOf(emails);
    expect(rows(column, 7, 'contains', 'ANA')).toEqual([0, 6]);
    expect(rows(column, 7, 'contains', '@example.')).toEqual([0, 2, 4]);
    expect(rows(column, 7, 'contains', 'élodie')).toEqual([3]);
    expect(rows(column, 7, 'startsWith', 'ana')).toEqual([0, 6]);
    expect(rows(column, 7, 'startsWith', 'example')).toEqual([]);
    expect(rows(column, 7, 'endsWith', '.COM')).toEqual([0, 4, 6]);
    expect(rows(column, 7, 'endsWith', 'org')).toEqual([2]);
    // The end of one value and the start of the next are not one value.
    expect(rows(column, 7, 'contains', 'orgélodie')).toEqual([]);
    expect(rows(column, 7, 'contains', 'frmaria')).toEqual([]);
    expect(rows(column, 7, 'contains', 'a longer text than every value')).toEqual([]);
  });

  it('tells which rows have a value (an empty string is one)', () => {
    expect(rows(columnOf(emails), 7, 'present')).toEqual([0, 2, 3, 4, 5, 6]);
  });

  it('answers from the current value of a row after it changes, and not from the old one', () => {
    const column = columnOf(['alpha', 'beta', 'gamma']);
    column.set(1, 'Delta');
    column.set(0, null);
    column.set(2, 'gamma');
    expect(rows(column, 3, 'equals', 'beta')).toEqual([]);
    expect(rows(column, 3, 'contains', 'et')).toEqual([]);
    expect(rows(column, 3, 'equals', 'delta')).toEqual([1]);
    expect(rows(column, 3, 'contains', 'lph')).toEqual([]);
    expect(rows(column, 3, 'endsWith', 'ma')).toEqual([2]);
    expect(rows(column, 3, 'present')).toEqual([1, 2]);
    expect(column.value(1)).toBe('delta');
  });

  it('answers the same after many rewrites have compacted its log', () => {
    const column = new TextColumn(true);
    const size = 2_000;
    // Enough rewrites of long values for the dead bytes to pass the compaction threshold many times.
    const long = 'x'.repeat(600);
    for (let round = 0; round < 10; round += 1) {
      for (let row = 0; row < size; row += 1) column.set(row, `${long}-${round}-${row}`);
    }
    for (let row = 0; row < size; row += 2) column.set(row, `final-${row}`);
    expect(column.value(10)).toBe('final-10');
    expect(column.value(11)).toBe(`${long}-9-11`);
    expect(rows(column, size, 'equals', 'FINAL-10', `${long}-9-11`)).toEqual([10, 11]);
    expect(rows(column, size, 'contains', '-8-')).toEqual([]);
    expect(rows(column, size, 'startsWith', 'final-').length).toBe(size / 2);
    expect(rows(column, size, 'endsWith', '-9-1999')).toEqual([1999]);
    expect(rows(column, size, 'contains', 'l-19')).toEqual([
      190,
      192,
      194,
      196,
      198,
      ...range(1900, 1999, 2),
    ]);
  });

  it('leaves out rows beyond the set it writes into', () => {
    const column = columnOf(['a', 'a', 'a']);
    expect(rows(column, 2, 'equals', 'a')).toEqual([0, 1]);
    expect(rows(column, 2, 'contains', 'a')).toEqual([0, 1]);
    expect(rows(column, 2, 'startsWith', 'a')).toEqual([0, 1]);
  });
});

function range(from: number, to: number, step: number): number[] {
  const values: number[] = [];
  for (let value = from; value <= to; value += step) values.push(value);
  return values;
}
