import { IdTable } from './id-table';

describe('IdTable', () => {
  it('finds every id it was given among many, large ids included, and -1 for others', () => {
    const table = new IdTable(4);
    const ids: number[] = [];
    for (let index = 0; index < 50_000; index += 1) {
      // Ids minted in blocks: equal high bits, runs of low bits; and ids near 2^53.
      ids.push(index % 2 === 0 ? 2 ** 40 + index : Number.MAX_SAFE_INTEGER - index);
    }
    ids.forEach((id, index) => table.set(id, index));
    expect(table.size).toBe(ids.length);
    ids.forEach((id, index) => expect(table.get(id)).toBe(index));
    expect(table.get(1)).toBe(-1);
    expect(table.get(2 ** 40 + 1)).toBe(-1);
  });

  it('replaces the value of an id given again without counting it twice', () => {
    const table = new IdTable();
    table.set(7, 1);
    table.set(7, 2);
    expect(table.get(7)).toBe(2);
    expect(table.size).toBe(1);
  });

  it('adds an id once with putIfAbsent, answering the value it already had after that', () => {
    const table = new IdTable(2);
    for (let id = 1; id <= 1000; id += 1) expect(table.putIfAbsent(id * 7, id)).toBe(-1);
    for (let id = 1; id <= 1000; id += 1) expect(table.putIfAbsent(id * 7, 0)).toBe(id);
    expect(table.get(7000)).toBe(1000);
    expect(table.size).toBe(1000);
  });

  it('keeps its entries when room is reserved ahead of a load', () => {
    const table = new IdTable();
    table.set(11, 5);
    table.reserve(100_000);
    expect(table.get(11)).toBe(5);
    for (let id = 1; id <= 100_000; id += 1) table.set(id * 3, id);
    expect(table.get(300_000)).toBe(100_000);
    expect(table.size).toBe(100_001);
  });

  it('refuses what is not an id', () => {
    const table = new IdTable();
    for (const bad of [0, -3, 1.5, Number.NaN, 2 ** 53]) {
      expect(() => table.set(bad, 1)).toThrow(RangeError);
      expect(() => table.putIfAbsent(bad, 1)).toThrow(RangeError);
    }
  });
});
