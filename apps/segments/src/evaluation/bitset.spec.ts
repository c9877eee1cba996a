import { Bitset, RowBits, popcount32 } from './bitset';

function rowsOf(set: Bitset): number[] {
  const rows: number[] = [];
  set.forEach((row) => rows.push(row));
  return rows;
}

function setOf(size: number, rows: number[]): Bitset {
  const set = new Bitset(size);
  for (const row of rows) set.add(row);
  return set;
}

describe('Bitset', () => {
  it('counts the bits of any word', () => {
    expect(popcount32(0)).toBe(0);
    expect(popcount32(0xffffffff)).toBe(32);
    expect(popcount32(0x80000001)).toBe(2);
    expect(popcount32(0x0f0f0f0f)).toBe(16);
  });

  it('holds exactly the rows added, in ascending order, across word boundaries', () => {
    const set = setOf(100, [99, 0, 31, 32, 63, 64]);
    expect(rowsOf(set)).toEqual([0, 31, 32, 63, 64, 99]);
    expect(set.count()).toBe(6);
    expect(set.has(31)).toBe(true);
    expect(set.has(30)).toBe(false);
    expect(set.has(100)).toBe(false);
    expect(set.has(-1)).toBe(false);
  });

  it('has every row and nothing beyond its size when full, and its complement is empty', () => {
    for (const size of [0, 1, 31, 32, 33, 64, 1000]) {
      const full = Bitset.full(size);
      expect(full.count()).toBe(size);
      expect(full.not().count()).toBe(0);
      expect(full.not().isEmpty()).toBe(true);
    }
  });

  it('intersects, unites, subtracts and complements within its size', () => {
    const a = setOf(70, [1, 2, 40, 69]);
    const b = setOf(70, [2, 3, 69]);
    expect(rowsOf(a.and(b))).toEqual([2, 69]);
    expect(rowsOf(a.or(b))).toEqual([1, 2, 3, 40, 69]);
    expect(rowsOf(a.andNot(b))).toEqual([1, 40]);
    const complement = a.not();
    expect(complement.count()).toBe(66);
    expect(complement.has(1)).toBe(false);
    expect(complement.has(0)).toBe(true);
    // The operands are left as they were.
    expect(rowsOf(a)).toEqual([1, 2, 40, 69]);
  });

  it('reads a smaller operand (an audience evaluated before rows were added) as empty past its size', () => {
    const large = setOf(100, [5, 50, 99]);
    const small = Bitset.full(40);
    expect(rowsOf(large.and(small))).toEqual([5]);
    expect(rowsOf(large.andNot(small))).toEqual([50, 99]);
    expect(rowsOf(setOf(100, [99]).or(small)).length).toBe(41);
    // A larger operand is cut to this set's size.
    expect(Bitset.full(10).or(Bitset.full(64)).count()).toBe(10);
  });

  it('copies words into a set of a given size, dropping bits beyond it', () => {
    const words = new Uint32Array([0xffffffff, 0xffffffff]);
    expect(Bitset.copyOf(40, words).count()).toBe(40);
    expect(Bitset.copyOf(100, words).count()).toBe(64);
  });
});

describe('RowBits', () => {
  it('grows as high rows are set and reads unset or unreached rows as clear', () => {
    const bits = new RowBits();
    expect(bits.has(10_000)).toBe(false);
    bits.set(10_000, false);
    expect(bits.words.length).toBe(0);
    bits.set(10_000, true);
    bits.set(3, true);
    expect(bits.has(10_000)).toBe(true);
    expect(bits.has(3)).toBe(true);
    bits.set(3, false);
    expect(bits.has(3)).toBe(false);
    expect(rowsOf(bits.toBitset(20_000))).toEqual([10_000]);
    expect(rowsOf(bits.toBitset(100))).toEqual([]);
  });
});
