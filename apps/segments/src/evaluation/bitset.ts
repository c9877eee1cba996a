import { grownCapacity } from './capacity';

// Read once: globals looked up inside loops over a million rows are slow in some hosts (a vm
// context, as test runners use), and cost nothing to hoist.
const { clz32 } = Math;

/**
 * Sets of rows of a workspace index as bits in 32-bit words: a million contacts take 125 KB, and
 * and/or/not over two sets is a loop over 31,250 words, so a filter's groups cost next to nothing
 * beside the column scans that produce their conditions.
 */

/** Bits set in a 32-bit word (the classic SWAR popcount). */
export function popcount32(word: number): number {
  let bits = word - ((word >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  // The product stays below 2^53, so plain multiplication is exact.
  return ((((bits + (bits >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24) & 0xff;
}

export function wordsFor(size: number): number {
  return (size + 31) >>> 5;
}

/**
 * An immutable-by-convention set of rows `0 … size-1`. Operations answer new sets of this set's
 * size; an operand of another size (an audience evaluated before rows were added) reads as empty
 * beyond its own size, which is what it meant: those rows were not in it.
 */
export class Bitset {
  readonly words: Uint32Array;

  constructor(
    readonly size: number,
    words?: Uint32Array,
  ) {
    this.words = words ?? new Uint32Array(wordsFor(size));
  }

  /** Every row. */
  static full(size: number): Bitset {
    const set = new Bitset(size);
    set.words.fill(0xffffffff);
    set.clearTail();
    return set;
  }

  /** A set of `size` rows over the first words of `words` (copied; bits beyond size dropped). */
  static copyOf(size: number, words: Uint32Array): Bitset {
    const set = new Bitset(size);
    set.words.set(words.subarray(0, Math.min(words.length, set.words.length)));
    set.clearTail();
    return set;
  }

  has(row: number): boolean {
    return row >= 0 && row < this.size && (this.words[row >>> 5]! & (1 << (row & 31))) !== 0;
  }

  /** Adds a row while the set is being built (before it is handed out). */
  add(row: number): void {
    this.words[row >>> 5]! |= 1 << (row & 31);
  }

  count(): number {
    let total = 0;
    for (const word of this.words) total += popcount32(word);
    return total;
  }

  isEmpty(): boolean {
    return this.words.every((word) => word === 0);
  }

  and(other: Bitset): Bitset {
    const out = new Bitset(this.size);
    const common = Math.min(this.words.length, other.words.length);
    for (let w = 0; w < common; w += 1) out.words[w] = this.words[w]! & other.words[w]!;
    return out;
  }

  or(other: Bitset): Bitset {
    const out = Bitset.copyOf(this.size, this.words);
    const common = Math.min(this.words.length, other.words.length);
    for (let w = 0; w < common; w += 1) out.words[w]! |= other.words[w]!;
    out.clearTail();
    return out;
  }

  /** The rows of this set that are not in `other`. */
  andNot(other: Bitset): Bitset {
    const out = Bitset.copyOf(this.size, this.words);
    const common = Math.min(this.words.length, other.words.length);
    for (let w = 0; w < common; w += 1) out.words[w]! &= ~other.words[w]!;
    return out;
  }

  /** Every row of `0 … size-1` not in this set. */
  not(): Bitset {
    const out = new Bitset(this.size);
    for (let w = 0; w < this.words.length; w += 1) out.words[w] = ~this.words[w]!;
    out.clearTail();
    return out;
  }

  /** Calls `visit` with each row in ascending row order. */
  forEach(visit: (row: number) => void): void {
    const words = this.words;
    for (let w = 0; w < words.length; w += 1) {
      let word = words[w]!;
      while (word !== 0) {
        const low = word & -word;
        visit((w << 5) + 31 - clz32(low));
        word ^= low;
      }
    }
  }

  /** Bits past `size` in the last word are kept clear so counts and complements stay exact. */
  private clearTail(): void {
    const extra = this.size & 31;
    if (extra !== 0) this.words[this.words.length - 1]! &= (1 << extra) - 1;
  }
}

/**
 * A column of one bit per row that grows with the index (tags, consent values, booleans of a
 * custom field). Rows past its length read as clear, so a rarely set column stays small until a
 * high row is set.
 */
export class RowBits {
  words: Uint32Array = new Uint32Array(0);

  set(row: number, on: boolean): void {
    const w = row >>> 5;
    if (w >= this.words.length) {
      if (!on) return;
      this.grow(w + 1);
    }
    if (on) this.words[w]! |= 1 << (row & 31);
    else this.words[w]! &= ~(1 << (row & 31));
  }

  has(row: number): boolean {
    const w = row >>> 5;
    return w < this.words.length && (this.words[w]! & (1 << (row & 31))) !== 0;
  }

  /** A set of the first `size` rows. */
  toBitset(size: number): Bitset {
    return Bitset.copyOf(size, this.words);
  }

  private grow(minWords: number): void {
    const next = new Uint32Array(grownCapacity(this.words.length, minWords, 32));
    next.set(this.words);
    this.words = next;
  }
}
