import { grownCapacity } from './capacity';

// Read once: globals looked up inside loops over a million rows are slow in some hosts (a vm
// context, as test runners use), and cost nothing to hoist.
const { imul, floor } = Math;

/** The table grows before it is fuller than this: linear probing stays short. */
const MAX_LOAD = 0.7;

/**
 * A hash table from ids (positive safe integers: contact and event ids) to numbers, in two typed
 * arrays with linear probing. A JS Map would box every id above 2^31, stop at 2^24 entries and give
 * the garbage collector millions of entries to walk; this takes 16 bytes a slot. The table is not a
 * power of two long (a hash is mapped onto it by multiplication), so past a million slots it grows
 * by half rather than double.
 */
export class IdTable {
  private keys: Float64Array;
  private values: Float64Array;
  private filled = 0;

  constructor(expected = 1024) {
    const slots = slotsFor(expected);
    this.keys = new Float64Array(slots);
    this.values = new Float64Array(slots);
  }

  get size(): number {
    return this.filled;
  }

  /** The value of `id`, or -1 when it has none. */
  get(id: number): number {
    const keys = this.keys;
    const slots = keys.length;
    for (let slot = home(id, slots); ; slot = slot + 1 === slots ? 0 : slot + 1) {
      const key = keys[slot]!;
      if (key === id) return this.values[slot]!;
      if (key === 0) return -1;
    }
  }

  set(id: number, value: number): void {
    if (!(id > 0 && Number.isSafeInteger(id))) throw new RangeError(`ids are positive integers, not ${id}`);
    if (this.filled + 1 > this.keys.length * MAX_LOAD) this.rehash(grownCapacity(this.keys.length, 0, 16));
    const keys = this.keys;
    const slots = keys.length;
    for (let slot = home(id, slots); ; slot = slot + 1 === slots ? 0 : slot + 1) {
      const key = keys[slot]!;
      if (key === id) {
        this.values[slot] = value;
        return;
      }
      if (key === 0) {
        keys[slot] = id;
        this.values[slot] = value;
        this.filled += 1;
        return;
      }
    }
  }

  /**
   * Gives `id` the value `value` unless it has one: answers -1 when it was added, else the value it
   * already had (left as it was). One probe where get-then-set would take two.
   */
  putIfAbsent(id: number, value: number): number {
    if (!(id > 0 && Number.isSafeInteger(id))) throw new RangeError(`ids are positive integers, not ${id}`);
    if (this.filled + 1 > this.keys.length * MAX_LOAD) this.rehash(grownCapacity(this.keys.length, 0, 16));
    const keys = this.keys;
    const slots = keys.length;
    for (let slot = home(id, slots); ; slot = slot + 1 === slots ? 0 : slot + 1) {
      const key = keys[slot]!;
      if (key === id) return this.values[slot]!;
      if (key === 0) {
        keys[slot] = id;
        this.values[slot] = value;
        this.filled += 1;
        return -1;
      }
    }
  }

  /** Makes room for `count` ids at once (a full load), so the table is not rehashed on the way. */
  reserve(count: number): void {
    const slots = slotsFor(count);
    if (slots > this.keys.length) this.rehash(grownCapacity(this.keys.length, slots, 16));
  }

  private rehash(slots: number): void {
    const { keys, values } = this;
    this.keys = new Float64Array(slots);
    this.values = new Float64Array(slots);
    this.filled = 0;
    for (let slot = 0; slot < keys.length; slot += 1) {
      if (keys[slot] !== 0) this.set(keys[slot]!, values[slot]!);
    }
  }
}

function slotsFor(count: number): number {
  return Math.max(16, Math.ceil(count / MAX_LOAD) + 1);
}

/**
 * The id's first slot: both halves of the id mixed (ids minted in blocks share low or high bits),
 * then the 32-bit hash scaled onto the table's length.
 */
function home(id: number, slots: number): number {
  const low = id >>> 0;
  const high = (id / 4294967296) >>> 0;
  let hash = imul(low ^ imul(high, 0x9e3779b1), 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = imul(hash, 0xc2b2ae35);
  hash = (hash ^ (hash >>> 16)) >>> 0;
  return floor((hash / 4294967296) * slots);
}
