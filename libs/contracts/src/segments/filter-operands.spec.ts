import { parseFilterDuration, type FilterDuration } from './filter-criteria';
import {
  dataTime,
  dateBetween,
  dateComparison,
  inTimeRange,
  resolveDataPath,
  shiftByDuration,
  textOperand,
  withinLast,
  withinNext,
} from './filter-operands';

const DAY_MS = 86_400_000;

function duration(text: string): FilterDuration {
  const parsed = parseFilterDuration(text);
  if (parsed === null) throw new Error(`not a duration: ${text}`);
  return parsed;
}

const at = (iso: string): number => Date.parse(iso);

describe('resolveDataPath', () => {
  const data = {
    plan: 'pro',
    address: { city: 'Lisbon', lines: ['Rua A', 'Rua B'] },
    scores: [3, 5, 8],
    empty: null,
  };

  it('follows object keys and integer keys of arrays (negative ones from the end), as Postgres #> does', () => {
    expect(resolveDataPath(data, ['plan'])).toBe('pro');
    expect(resolveDataPath(data, ['address', 'city'])).toBe('Lisbon');
    expect(resolveDataPath(data, ['address', 'lines', '1'])).toBe('Rua B');
    expect(resolveDataPath(data, ['scores', '-1'])).toBe(8);
    expect(resolveDataPath(data, ['scores', '-3'])).toBe(3);
    expect(resolveDataPath(data, ['empty'])).toBeNull();
  });

  it('leads nowhere through scalars, past array ends, by non-integer keys of arrays or missing keys', () => {
    expect(resolveDataPath(data, ['plan', 'x'])).toBeUndefined();
    expect(resolveDataPath(data, ['scores', '3'])).toBeUndefined();
    expect(resolveDataPath(data, ['scores', '-4'])).toBeUndefined();
    expect(resolveDataPath(data, ['scores', 'length'])).toBeUndefined();
    expect(resolveDataPath(data, ['missing'])).toBeUndefined();
    expect(resolveDataPath(data, ['empty', 'x'])).toBeUndefined();
    expect(resolveDataPath(data, ['toString'])).toBeUndefined();
  });
});

describe('dataTime', () => {
  it('reads a real day as its midnight UTC and an ISO time with its offset as that instant', () => {
    expect(dataTime('2024-02-29')).toBe(at('2024-02-29T00:00:00Z'));
    expect(dataTime('2026-05-01T09:30+01:00')).toBe(at('2026-05-01T08:30:00Z'));
    expect(dataTime('2026-05-01T09:30:15Z')).toBe(at('2026-05-01T09:30:15Z'));
    expect(dataTime('2026-05-01T09:30:15.25-02:30')).toBe(at('2026-05-01T12:00:15.250Z'));
    // Past the millisecond, digits are dropped (the index keeps milliseconds).
    expect(dataTime('2026-05-01T09:30:15.123999999Z')).toBe(at('2026-05-01T09:30:15.123Z'));
    expect(dataTime('0001-01-01')).toBe(Date.UTC(2001, 0, 1) - 2000 * 365.2425 * DAY_MS);
  });

  it('reads what Date.parse reads for thousands of days and times spread over the years', () => {
    const two = (value: number): string => String(value).padStart(2, '0');
    // Steps prime to each part's range, so the parts vary independently of each other.
    for (let index = 0; index < 5_000; index += 1) {
      const date = `${1000 + ((index * 7_919) % 9_000)}-${two(1 + ((index * 7) % 12))}-${two(1 + ((index * 11) % 28))}`;
      const time = `T${two((index * 5) % 24)}:${two((index * 17) % 60)}:${two((index * 13) % 60)}`;
      const offset =
        index % 3 === 0
          ? 'Z'
          : `${index % 2 === 0 ? '+' : '-'}${two((index * 3) % 15)}:${two((index * 19) % 60)}`;
      expect(dataTime(date)).toBe(Date.parse(`${date}T00:00:00Z`));
      expect(dataTime(`${date}${time}${offset}`)).toBe(Date.parse(`${date}${time}${offset}`));
    }
  });

  it('reads no time in other strings, unreal days and out-of-range parts', () => {
    for (const text of [
      '',
      'pro',
      '2024-02-30',
      '2023-02-29',
      '0000-01-01',
      '2024-13-01',
      '2024-1-01',
      '2024-01-01T',
      '2024-01-01T10:00',
      '2024-01-01T24:00Z',
      '2024-01-01T10:60Z',
      '2024-01-01T10:00:60Z',
      '2024-01-01T10:00:00.Z',
      '2024-01-01T10:00:00.1234567890Z',
      '2024-01-01T10:00+15:00',
      '2024-01-01T10:00+01',
      '2024-01-01 10:00Z',
      '2024-01-01T10:00Zx',
      '20240101',
      '2024-01-01x',
    ]) {
      expect({ text, time: dataTime(text) }).toEqual({ text, time: Number.NaN });
    }
  });
});

describe('relative windows', () => {
  const now = at('2026-03-31T15:00:00Z');

  it('moves by calendar months and years, keeping to the last day of a shorter month', () => {
    expect(shiftByDuration(now, duration('P1M'), -1)).toBe(at('2026-02-28T15:00:00Z'));
    expect(shiftByDuration(now, duration('P1Y1M'), -1)).toBe(at('2025-02-28T15:00:00Z'));
    expect(shiftByDuration(at('2024-03-31T15:00:00Z'), duration('P1M'), -1)).toBe(at('2024-02-29T15:00:00Z'));
    expect(shiftByDuration(now, duration('P2M'), 1)).toBe(at('2026-05-31T15:00:00Z'));
    expect(shiftByDuration(now, duration('P13M'), -1)).toBe(at('2025-02-28T15:00:00Z'));
  });

  it('moves by weeks, days, hours, minutes and seconds as fixed lengths, after the months', () => {
    expect(shiftByDuration(now, duration('P1W2DT3H4M5S'), -1)).toBe(
      now - 9 * DAY_MS - 3 * 3_600_000 - 4 * 60_000 - 5_000,
    );
    expect(shiftByDuration(now, duration('P1M1D'), -1)).toBe(at('2026-02-27T15:00:00Z'));
  });

  it('covers everything on one side when the move leaves the dates either engine holds', () => {
    expect(shiftByDuration(now, duration('P999999999Y'), -1)).toBe(Number.NEGATIVE_INFINITY);
    expect(shiftByDuration(now, duration('P999999999D'), 1)).toBe(Number.POSITIVE_INFINITY);
  });

  it('reaches from the past up to now for within_last, and from now into the future for within_next', () => {
    expect(withinLast(now, duration('P30D'))).toEqual({ from: now - 30 * DAY_MS, until: now + 1 });
    expect(withinNext(now, duration('PT1H'))).toEqual({ from: now, until: now + 3_600_001 });
  });
});

describe('date comparisons', () => {
  const day = at('2024-03-01T00:00:00Z');

  it('takes a day as a whole UTC day: before ends where it begins, after begins where it ends', () => {
    expect(dateComparison('before', '2024-03-01')).toEqual({ from: Number.NEGATIVE_INFINITY, until: day });
    expect(dateComparison('lt', '2024-03-01')).toEqual({ from: Number.NEGATIVE_INFINITY, until: day });
    expect(dateComparison('lte', '2024-03-01')).toEqual({
      from: Number.NEGATIVE_INFINITY,
      until: day + DAY_MS,
    });
    expect(dateComparison('after', '2024-03-01')).toEqual({
      from: day + DAY_MS,
      until: Number.POSITIVE_INFINITY,
    });
    expect(dateComparison('gt', '2024-03-01')).toEqual({
      from: day + DAY_MS,
      until: Number.POSITIVE_INFINITY,
    });
    expect(dateComparison('gte', '2024-03-01')).toEqual({ from: day, until: Number.POSITIVE_INFINITY });
  });

  it('takes a time as that millisecond, and between includes both bounds', () => {
    const time = at('2024-03-01T10:00:00+02:00');
    expect(dateComparison('before', '2024-03-01T10:00:00+02:00')).toEqual({
      from: Number.NEGATIVE_INFINITY,
      until: time,
    });
    expect(dateComparison('after', '2024-03-01T10:00:00+02:00')).toEqual({
      from: time + 1,
      until: Number.POSITIVE_INFINITY,
    });
    expect(dateBetween('2024-03-01', '2024-03-02')).toEqual({ from: day, until: day + 2 * DAY_MS });
    expect(dateBetween('2024-03-01', '2024-03-01T10:00:00+02:00')).toEqual({ from: day, until: time + 1 });
  });
});

describe('inTimeRange', () => {
  it('includes the start and excludes the end, and holds no NaN (a value that is no time)', () => {
    const range = { from: 10, until: 20 };
    expect(inTimeRange(10, range)).toBe(true);
    expect(inTimeRange(19.5, range)).toBe(true);
    expect(inTimeRange(20, range)).toBe(false);
    expect(inTimeRange(9, range)).toBe(false);
    expect(inTimeRange(Number.NaN, { from: Number.NEGATIVE_INFINITY, until: Number.POSITIVE_INFINITY })).toBe(
      false,
    );
  });
});

describe('textOperand', () => {
  const e164 = (raw: string): string | undefined => {
    const digits = raw.replace(/[^\d+]/g, '').replace(/^00/, '+');
    const international = digits.startsWith('+') ? digits : `+${digits}`;
    return /^\+[1-9]\d{7,14}$/.test(international) ? international : undefined;
  };

  it('lowers the case of every text, Unicode included', () => {
    expect(textOperand('name', 'eq', 'ÉLODIE', e164)).toBe('élodie');
    expect(textOperand(null, 'contains', 'ÄBC', e164)).toBe('äbc');
  });

  it('compares whole phone numbers in E.164, and keeps a number it cannot read as written', () => {
    expect(textOperand('phone', 'eq', '+44 7700 900123', e164)).toBe('+447700900123');
    expect(textOperand('phone', 'in', '0044 7700 900123', e164)).toBe('+447700900123');
    expect(textOperand('phone', 'eq', 'not a number', e164)).toBe('not a number');
  });

  it('compares parts of phone numbers without separators, and beginnings as international numbers', () => {
    expect(textOperand('phone', 'contains', '7700 900', e164)).toBe('7700900');
    expect(textOperand('phone', 'ends_with', '(0123)', e164)).toBe('0123');
    expect(textOperand('phone', 'starts_with', '+44 77', e164)).toBe('+4477');
    expect(textOperand('phone', 'starts_with', '0044 77', e164)).toBe('+4477');
    expect(textOperand('phone', 'starts_with', '44-77', e164)).toBe('+4477');
    // Nothing but separators stays as written rather than matching every number.
    expect(textOperand('phone', 'contains', ' - ', e164)).toBe(' - ');
  });
});
