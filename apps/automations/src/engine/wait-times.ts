import { isFilterDate, parseSignedDuration, type FilterDuration } from '@cms/contracts';
import { Liquid } from 'liquidjs';

/**
 * The instants a run waits for (extensions §12, `wait`), worked out from the time of the record that
 * moved the run and nothing else: no clock is read here, so a rebuild sets the same timers.
 */

export const DAY_MS = 86_400_000;

/**
 * `instant` moved by a duration: years and months on the calendar (Jan 31 + P1M is the last day of
 * February), the other parts as fixed lengths.
 */
export function addDuration(instant: number, duration: FilterDuration, sign: 1 | -1 = 1): number {
  let moved = instant;
  const months = sign * (duration.years * 12 + duration.months);
  if (months !== 0) {
    const date = new Date(instant);
    const year = date.getUTCFullYear();
    const month = date.getUTCMonth() + months;
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    date.setUTCFullYear(year, month, Math.min(date.getUTCDate(), lastDay));
    moved = date.getTime();
  }
  const fixedMs =
    (((duration.weeks * 7 + duration.days) * 24 + duration.hours) * 60 + duration.minutes) * 60_000 +
    duration.seconds * 1000;
  return moved + sign * fixedMs;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** What a clock in `timeZone` reads at `instant` (to the minute). */
export function wallClockAt(instant: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
  };
}

function wallAsUtc(clock: WallClock): number {
  return Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute);
}

/** Minutes the zone's clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const floored = Math.floor(instant / 60_000) * 60_000;
  return wallAsUtc(wallClockAt(floored, timeZone)) - floored;
}

/**
 * The instant a clock in `timeZone` reads `clock`. When it reads it twice (the hour repeated in
 * autumn) the first; when never (the hour skipped in spring) the moment the skip ends with the same
 * distance past it, as a clock set forward shows: 02:30 on a day that jumps from 02:00 to 03:00 is 03:30.
 */
export function instantOfWallClock(clock: WallClock, timeZone: string): number {
  const wall = wallAsUtc(clock);
  const before = wall - offsetAt(wall - DAY_MS, timeZone);
  const after = wall - offsetAt(wall + DAY_MS, timeZone);
  const reads = (candidate: number): boolean => wallAsUtc(wallClockAt(candidate, timeZone)) === wall;
  const matching = [before, after].filter(reads);
  return matching.length > 0 ? Math.min(...matching) : before;
}

/** `until`: the next moment the clock reads `HH:MM` in the zone: today when still ahead, else tomorrow. */
export function nextTimeOfDay(at: number, timeOfDay: string, timeZone: string): number {
  const [hour, minute] = timeOfDay.split(':').map(Number) as [number, number];
  const today = wallClockAt(at, timeZone);
  const candidate = instantOfWallClock({ ...today, hour, minute }, timeZone);
  if (candidate > at) return candidate;
  const tomorrow = new Date(Date.UTC(today.year, today.month - 1, today.day + 1));
  return instantOfWallClock(
    {
      year: tomorrow.getUTCFullYear(),
      month: tomorrow.getUTCMonth() + 1,
      day: tomorrow.getUTCDate(),
      hour,
      minute,
    },
    timeZone,
  );
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** `YYYY-MM-DD` is 00:00 UTC of that day; an ISO 8601 time with its zone is itself; anything else none. */
export function instantOfDateText(text: string): number | null {
  const trimmed = text.trim();
  if (isFilterDate(trimmed)) return Date.parse(`${trimmed}T00:00:00Z`);
  if (!ISO_TIME.test(trimmed)) return null;
  const instant = Date.parse(trimmed);
  return Number.isNaN(instant) ? null : instant;
}

/**
 * Lenient about missing variables (they render empty, which is no date), strict about filters;
 * `ownPropertyOnly` keeps `constructor` and the like out of reach, and nothing reads files.
 */
const liquid = new Liquid({
  strictFilters: true,
  ownPropertyOnly: true,
  templates: {},
  timezoneOffset: 0,
  parseLimit: 10_000,
  renderLimit: 100,
  memoryLimit: 1_000_000,
});

/** What `until_date` renders over `contact` and `event`. */
export interface DateScope {
  contact: Record<string, unknown>;
  event: Record<string, unknown>;
}

/** `until_date` rendered plus its `offset`; null when the template renders no date (or fails). */
export function untilDateInstant(
  template: string,
  offset: string | undefined,
  scope: DateScope,
): number | null {
  let rendered: unknown;
  try {
    rendered = liquid.parseAndRenderSync(template, scope);
  } catch {
    return null;
  }
  const instant = typeof rendered === 'string' ? instantOfDateText(rendered) : null;
  if (instant === null) return null;
  const shift = offset === undefined ? null : parseSignedDuration(offset);
  return shift === null ? instant : addDuration(instant, shift.duration, shift.sign);
}
