import { parseFilterDuration } from '@cms/contracts';

import { addDuration, instantOfDateText, nextTimeOfDay, untilDateInstant } from './wait-times';

const at = (text: string): number => Date.parse(text);
const iso = (instant: number | null): string | null =>
  instant === null ? null : new Date(instant).toISOString();

describe('addDuration', () => {
  it('adds months on the calendar, ending on the last day of a shorter month', () => {
    expect(iso(addDuration(at('2026-01-31T10:00:00Z'), parseFilterDuration('P1M')!))).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    expect(iso(addDuration(at('2026-03-31T10:00:00Z'), parseFilterDuration('P1M')!, -1))).toBe(
      '2026-02-28T10:00:00.000Z',
    );
    expect(iso(addDuration(at('2026-11-15T00:00:00Z'), parseFilterDuration('P1Y2M')!))).toBe(
      '2028-01-15T00:00:00.000Z',
    );
  });

  it('adds weeks, days, hours, minutes and seconds as fixed lengths', () => {
    expect(iso(addDuration(at('2026-03-28T12:00:00Z'), parseFilterDuration('P1W1DT1H1M1S')!))).toBe(
      '2026-04-05T13:01:01.000Z',
    );
  });
});

describe('nextTimeOfDay', () => {
  it('is today when the time is still ahead in the zone, tomorrow otherwise', () => {
    expect(iso(nextTimeOfDay(at('2026-06-10T05:00:00Z'), '09:00', 'Europe/Berlin'))).toBe(
      '2026-06-10T07:00:00.000Z',
    );
    expect(iso(nextTimeOfDay(at('2026-06-10T07:00:00Z'), '09:00', 'Europe/Berlin'))).toBe(
      '2026-06-11T07:00:00.000Z',
    );
  });

  it('reads the day in the zone, not in UTC', () => {
    // 23:30 UTC on the 10th is already 08:30 on the 11th in Tokyo.
    expect(iso(nextTimeOfDay(at('2026-06-10T23:30:00Z'), '09:00', 'Asia/Tokyo'))).toBe(
      '2026-06-11T00:00:00.000Z',
    );
    // 02:00 UTC on the 11th is still the 10th in Los Angeles (19:00 PDT).
    expect(iso(nextTimeOfDay(at('2026-06-11T02:00:00Z'), '20:00', 'America/Los_Angeles'))).toBe(
      '2026-06-11T03:00:00.000Z',
    );
  });

  it('takes the offset of the day it lands on across a change to summer time', () => {
    // Saturday 11:00 CET; Sunday 29 March 2026 09:00 is CEST (+02:00).
    expect(iso(nextTimeOfDay(at('2026-03-28T10:00:00Z'), '09:00', 'Europe/Berlin'))).toBe(
      '2026-03-29T07:00:00.000Z',
    );
    expect(iso(nextTimeOfDay(at('2026-03-07T15:00:00Z'), '09:00', 'America/New_York'))).toBe(
      '2026-03-08T13:00:00.000Z',
    );
  });

  it('goes to the moment after the skipped hour for a time that day never reads', () => {
    expect(iso(nextTimeOfDay(at('2026-03-28T23:00:00Z'), '02:30', 'Europe/Berlin'))).toBe(
      '2026-03-29T01:30:00.000Z',
    );
  });

  it('takes the first of a time the day reads twice', () => {
    expect(iso(nextTimeOfDay(at('2026-10-24T23:00:00Z'), '02:30', 'Europe/Berlin'))).toBe(
      '2026-10-25T00:30:00.000Z',
    );
  });

  it('works in UTC', () => {
    expect(iso(nextTimeOfDay(at('2026-06-10T09:00:00Z'), '09:01', 'UTC'))).toBe('2026-06-10T09:01:00.000Z');
  });
});

describe('until dates', () => {
  const scope = {
    contact: { name: 'Ann', data: { renewal: '2026-07-01', at: '2026-07-01T10:00:00+02:00', nope: 'soon' } },
    event: { name: 'signup', data: { due: '2026-08-01' } },
  };

  it('reads a day as 00:00 UTC and a time with its zone', () => {
    expect(iso(instantOfDateText('2026-07-01'))).toBe('2026-07-01T00:00:00.000Z');
    expect(iso(instantOfDateText(' 2026-07-01T10:00:00+02:00 '))).toBe('2026-07-01T08:00:00.000Z');
    expect(instantOfDateText('2026-02-30')).toBeNull();
    expect(instantOfDateText('2026-07-01T10:00:00')).toBeNull();
  });

  it('renders the template over contact and event, then adds the offset, minus allowed', () => {
    expect(iso(untilDateInstant('{{ contact.data.renewal }}', '-P7D', scope))).toBe(
      '2026-06-24T00:00:00.000Z',
    );
    expect(iso(untilDateInstant('{{ contact.data.at }}', 'PT1H', scope))).toBe('2026-07-01T09:00:00.000Z');
    expect(iso(untilDateInstant('{{ event.data.due }}', undefined, scope))).toBe('2026-08-01T00:00:00.000Z');
  });

  it('gives no date for text that is none, a missing variable, or a template that does not parse', () => {
    expect(untilDateInstant('{{ contact.data.nope }}', undefined, scope)).toBeNull();
    expect(untilDateInstant('{{ contact.data.missing }}', undefined, scope)).toBeNull();
    expect(untilDateInstant('{{ contact.data.renewal | nosuchfilter }}', undefined, scope)).toBeNull();
    expect(untilDateInstant('{% if %}', undefined, scope)).toBeNull();
  });
});
