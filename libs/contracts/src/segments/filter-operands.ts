import type { FilterDuration, TextField } from './filter-criteria';

/**
 * What a filter condition's value means (extensions §11), worked out in one place for every engine
 * that evaluates filters (the segments service's index and its SQL, the automations service's
 * criteria over one contact), so they cannot drift apart: the value at a custom-field path, the
 * instants a date condition covers, the text a string condition compares, and which custom-field
 * strings are dates.
 */

// Read once: globals looked up inside loops over a million rows are slow in some hosts (a vm
// context, as test runners use), and cost nothing to hoist.
const { floor } = Math;
const NOT_A_TIME = Number.NaN;

const DAY_MS = 86_400_000;

/** The E.164 form of a phone number as the contacts service stores it, undefined when it is none. */
export type PhoneNormaliser = (raw: string) => string | undefined;

/** Instants `from ≤ t < until` in epoch milliseconds (either end may be infinite). */
export interface TimeRange {
  from: number;
  until: number;
}

/** Whether `time` (epoch ms; NaN for none, which no range holds) lies in `range`. */
export function inTimeRange(time: number, range: TimeRange): boolean {
  return time >= range.from && time < range.until;
}

/**
 * The value at a custom-field path, found the way Postgres' `#>` finds it (so SQL and the in-memory
 * engines agree): object keys by name, array elements by an integer key (negative from the end).
 */
export function resolveDataPath(data: unknown, path: readonly string[]): unknown {
  let value = data;
  for (const key of path) {
    if (Array.isArray(value)) {
      if (!/^-?\d+$/.test(key)) return undefined;
      const index = Number(key);
      value = value[index < 0 ? value.length + index : index];
    } else if (typeof value === 'object' && value !== null) {
      if (!Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    } else {
      return undefined;
    }
  }
  return value;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isRealDay(year: number, month: number, day: number): boolean {
  if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1)) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

/** Days from 1970-01-01 to a proleptic Gregorian day (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + floor(yearOfEra / 4) - floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/**
 * The instant a custom field's string stands for when it is a date: a real `YYYY-MM-DD` day (its
 * midnight UTC) or an ISO 8601 time to the minute at least with its offset
 * (`2026-05-01T09:30:00.250+01:00`, fractions past the millisecond dropped); NaN for any other
 * string, which then takes part in string conditions only. Read character by character: building a
 * column reads every contact's value, and a pattern and Date.parse per value cost several times more.
 */
export function dataTime(text: string): number {
  const length = text.length;
  // Most strings are no dates: two character checks turn them away.
  if (length < 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return NOT_A_TIME;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  if (!isRealDay(year, month, day)) return NOT_A_TIME;
  const midnight = daysFromCivil(year, month, day) * DAY_MS;
  if (length === 10) return midnight;
  if (length < 17 || text[10] !== 'T' || text[13] !== ':') return NOT_A_TIME;
  const hours = digits(text, 11, 2);
  const minutes = digits(text, 14, 2);
  if (!(hours <= 23 && minutes <= 59)) return NOT_A_TIME;
  let at = 16;
  let seconds = 0;
  let milliseconds = 0;
  if (text[at] === ':') {
    seconds = digits(text, at + 1, 2);
    if (!(seconds <= 59)) return NOT_A_TIME;
    at += 3;
    if (text[at] === '.') {
      let count = 0;
      at += 1;
      while (at < length && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57) {
        if (count < 3) milliseconds = milliseconds * 10 + (text.charCodeAt(at) - 48);
        count += 1;
        at += 1;
      }
      if (count === 0 || count > 9) return NOT_A_TIME;
      for (let scale = count; scale < 3; scale += 1) milliseconds *= 10;
    }
  }
  let offset = 0;
  if (text[at] === 'Z' && at + 1 === length) {
    offset = 0;
  } else if ((text[at] === '+' || text[at] === '-') && at + 6 === length && text[at + 3] === ':') {
    const offsetHours = digits(text, at + 1, 2);
    const offsetMinutes = digits(text, at + 4, 2);
    if (!(offsetHours <= 14 && offsetMinutes <= 59)) return NOT_A_TIME;
    offset = (text[at] === '+' ? 1 : -1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  } else {
    return NOT_A_TIME;
  }
  return midnight + ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds - offset;
}

/** The number written by `count` ASCII digits at `at`; NaN when any of them is not a digit. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let index = at; index < at + count; index += 1) {
    const code = text.charCodeAt(index);
    if (!(code >= 48 && code <= 57)) return NOT_A_TIME;
    value = value * 10 + (code - 48);
  }
  return value;
}

/**
 * The first instant a filter's date or time covers and the first it no longer covers: a whole UTC
 * day for `YYYY-MM-DD`, one millisecond (the index's precision) for a time.
 */
function moment(value: string): { start: number; end: number } {
  if (DAY.test(value)) {
    const start = dataTime(value);
    return { start, end: start + DAY_MS };
  }
  const start = Date.parse(value);
  return { start, end: start + 1 };
}

/**
 * `now` moved by a duration: years and months as calendar months (the 31st less a month is the last
 * day of the month before, as Postgres does it), the other parts as fixed lengths. A move past the
 * dates either engine can hold is ±Infinity, which covers everything on that side.
 */
export function shiftByDuration(now: number, duration: FilterDuration, direction: 1 | -1): number {
  let shifted = now;
  const months = duration.years * 12 + duration.months;
  if (months !== 0) {
    const date = new Date(now);
    const day = date.getUTCDate();
    const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), day);
    const index = date.getUTCFullYear() * 12 + date.getUTCMonth() + direction * months;
    const year = Math.floor(index / 12);
    const month = index - year * 12;
    const target = new Date(0);
    target.setUTCFullYear(year, month + 1, 0);
    const lastDay = target.getUTCDate();
    target.setUTCFullYear(year, month, Math.min(day, lastDay));
    shifted = target.getTime() + (now - midnight);
  }
  const fixed =
    ((duration.weeks * 7 + duration.days) * 24 + duration.hours) * 3_600_000 +
    duration.minutes * 60_000 +
    duration.seconds * 1_000;
  shifted += direction * fixed;
  return shifted >= EARLIEST_INSTANT && shifted <= LATEST_INSTANT
    ? shifted
    : direction * Number.POSITIVE_INFINITY;
}

/** Postgres keeps nothing before 4713 BC, and JS dates end ±8.64e15 ms from 1970. */
const EARLIEST_INSTANT = -210_835_180_800_000;
const LATEST_INSTANT = 8.64e15;

/** `within_last`: from `now` less the duration up to `now`, both included (the past only). */
export function withinLast(now: number, duration: FilterDuration): TimeRange {
  return { from: shiftByDuration(now, duration, -1), until: now + 1 };
}

/** `within_next`: from `now` up to `now` plus the duration, both included (the future only). */
export function withinNext(now: number, duration: FilterDuration): TimeRange {
  const until = shiftByDuration(now, duration, 1);
  return { from: now, until: until + 1 };
}

export type DateComparison = 'before' | 'after' | 'gt' | 'gte' | 'lt' | 'lte';

/**
 * A comparison with a filter date or time. `before`/`lt` end where the value begins, `after`/`gt`
 * begin where it ends, `gte` and `lte` include it: `after 2024-03-01` starts on the 2nd, whatever the
 * time of day a stored value has.
 */
export function dateComparison(operator: DateComparison, value: string): TimeRange {
  const { start, end } = moment(value);
  switch (operator) {
    case 'before':
    case 'lt':
      return { from: Number.NEGATIVE_INFINITY, until: start };
    case 'lte':
      return { from: Number.NEGATIVE_INFINITY, until: end };
    case 'after':
    case 'gt':
      return { from: end, until: Number.POSITIVE_INFINITY };
    case 'gte':
      return { from: start, until: Number.POSITIVE_INFINITY };
  }
}

/** `between [low, high]`: both included, a day bound as the whole day. */
export function dateBetween(low: string, high: string): TimeRange {
  return { from: moment(low).start, until: moment(high).end };
}

export type TextComparison = 'eq' | 'in' | 'contains' | 'starts_with' | 'ends_with';

/** The separators people write phone numbers with (what the contacts service accepts and drops). */
const PHONE_SEPARATORS = /[\s().\-/]/g;

/**
 * The text a condition on a text field compares, as every engine compares it: lower case, and for
 * `phone` in the contacts service's E.164 form. A whole number (`eq`, `in`) is normalised like a
 * contact's phone; a value it cannot read stays as written, so it matches no stored number. A part
 * of a number (`contains`, `ends_with`) loses its separators; a beginning (`starts_with`) is read
 * as international like a contact's number is (`0044 7700` and `447700` both begin `+447700`).
 */
export function textOperand(
  field: TextField | null,
  comparison: TextComparison,
  value: string,
  phoneE164: PhoneNormaliser,
): string {
  if (field !== 'phone') return value.toLowerCase();
  if (comparison === 'eq' || comparison === 'in') return (phoneE164(value) ?? value.trim()).toLowerCase();
  const digits = value.replace(PHONE_SEPARATORS, '');
  if (digits === '') return value.toLowerCase();
  if (comparison !== 'starts_with') return digits.toLowerCase();
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  return /^\d/.test(digits) ? `+${digits}` : digits.toLowerCase();
}
