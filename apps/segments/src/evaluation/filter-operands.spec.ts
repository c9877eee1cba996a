import { parseFilterDuration, type FilterDuration } from '@cms/contracts';

import {
  DAY_MS,
  dataTime,
  dateBetween,
  dateComparison,
  inNumberRange,
  numberBetween,
  numberComparison,
  shiftByDuration,
  suppressionAddress,
  textOperand,
  withinLast,
  withinNext,
} from './filter-operands';
import { seededRandom } from './synthetic-workspace';

function duration(text: string): FilterDuration {
  const parsed = parseFilterDuration(text);
  if (parsed === null) throw new Error(`not a duration: ${text}`);
  return parsed;
}

const at = (iso: string): number => Date.parse(iso);

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

  it('reads what Date.parse reads for thousands of generated days and times', () => {
    const random = seededRandom(3);
    const two = (value: number): string => String(value).padStart(2, '0');
    for (let index = 0; index < 5_000; index += 1) {
      const year = 1000 + Math.floor(random() * 9000);
      const month = 1 + Math.floor(random() * 12);
      const day = 1 + Math.floor(random() * 28);
      const date = `${year}-${two(month)}-${two(day)}`;
      const time = `T${two(Math.floor(random() * 24))}:${two(Math.floor(random() * 60))}:${two(Math.floor(random() * 60))}`;
      const offset =
        random() < 0.3
          ? 'Z'
          : `${random() < 0.5 ? '+' : '-'}${two(Math.floor(random() * 15))}:${two(Math.floor(random() * 60))}`;
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

describe('number ranges', () => {
  it('includes the bounds of gte, lte and between, and excludes those of gt and lt', () => {
    expect(inNumberRange(5, numberComparison('gt', 5))).toBe(false);
    expect(inNumberRange(5.0001, numberComparison('gt', 5))).toBe(true);
    expect(inNumberRange(5, numberComparison('gte', 5))).toBe(true);
    expect(inNumberRange(5, numberComparison('lt', 5))).toBe(false);
    expect(inNumberRange(-1e9, numberComparison('lt', 5))).toBe(true);
    expect(inNumberRange(5, numberComparison('lte', 5))).toBe(true);
    expect(inNumberRange(1, numberBetween(1, 3))).toBe(true);
    expect(inNumberRange(3, numberBetween(1, 3))).toBe(true);
    expect(inNumberRange(3.5, numberBetween(1, 3))).toBe(false);
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

describe('suppressionAddress', () => {
  it('keeps phone numbers and e-mail addresses in lower case and linked ids as sent, all trimmed', () => {
    expect(suppressionAddress('email', ' Ana@Example.COM ')).toBe('ana@example.com');
    expect(suppressionAddress('sms', '+447700900123 ')).toBe('+447700900123');
    expect(suppressionAddress('telegram', ' TgUser ')).toBe('TgUser');
  });
});
