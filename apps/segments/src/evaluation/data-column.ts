import { dataTime } from '@cms/contracts';

import { RowBits } from './bitset';
import { grownCapacity } from './capacity';
import { TextColumn } from './text-column';

// Read once: globals looked up inside loops over a million rows are slow in some hosts (a vm
// context, as test runners use), and cost nothing to hoist.
const finite = Number.isFinite;
const notANumber = Number.isNaN;
/** No value in a Float64Array column. */
const MISSING = Number.NaN;

/**
 * One custom-field path (`data.plan`, `data.address.city`) over every row, typed per value: a row's
 * value is in exactly one of the text, number and boolean parts (a date string in the text part and
 * also, as its instant, in the time part). A condition reads only the part of its value's type, so a
 * number never equals a string and "42" is not greater than 41. Each part is allocated when the first
 * value of its type arrives: a path that only holds strings costs no Float64Arrays.
 *
 * Only scalars count as values: null, an object or an array at the path is no value (`exists` is
 * false): a custom field holds text, a number, a boolean or a date, and an object there is a group of
 * further fields (`data.address.city`), not a value to compare.
 */
export class DataColumn {
  readonly present = new RowBits();
  readonly trueRows = new RowBits();
  readonly falseRows = new RowBits();
  /** NaN where the row's value is not a number. */
  numbers: Float64Array | null = null;
  /** The instant of a date or time string, NaN where the value is none. */
  times: Float64Array | null = null;
  /** Strings, lower case. */
  text: TextColumn | null = null;

  constructor(readonly path: readonly string[]) {}

  set(row: number, value: unknown): void {
    this.clear(row);
    if (typeof value === 'string') {
      this.text ??= new TextColumn(true);
      this.text.set(row, value);
      const time = dataTime(value);
      if (!notANumber(time)) {
        this.times = ensureRows(this.times, row);
        this.times[row] = time;
      }
    } else if (typeof value === 'number' && finite(value)) {
      this.numbers = ensureRows(this.numbers, row);
      this.numbers[row] = value;
    } else if (typeof value === 'boolean') {
      (value ? this.trueRows : this.falseRows).set(row, true);
    } else {
      return;
    }
    this.present.set(row, true);
  }

  private clear(row: number): void {
    if (!this.present.has(row)) return;
    this.present.set(row, false);
    this.trueRows.set(row, false);
    this.falseRows.set(row, false);
    if (this.numbers !== null && row < this.numbers.length) this.numbers[row] = MISSING;
    if (this.times !== null && row < this.times.length) this.times[row] = MISSING;
    this.text?.set(row, null);
  }
}

/** A Float64Array holding `row`, grown (NaN-filled: no value) by doubling. */
export function ensureRows(array: Float64Array | null, row: number): Float64Array {
  if (array !== null && row < array.length) return array;
  const size = grownCapacity(array?.length ?? 0, row + 1);
  const next = new Float64Array(size).fill(MISSING);
  if (array !== null) next.set(array);
  return next;
}
