import { eventPhone, toE164 } from './phone-number';

describe('toE164', () => {
  it.each([
    ['+14155550123', '+14155550123'],
    ['+1 (415) 555-0123', '+14155550123'],
    ['001 415 555 0123', '+14155550123'],
    ['14155550123', '+14155550123'],
    ['+44 7700 900123', '+447700900123'],
    ['  +49 151 12345678 ', '+4915112345678'],
  ])('reads %j as %j', (raw, e164) => {
    expect(toE164(raw)).toBe(e164);
  });

  it.each(['abc', '+1', '', 'call +14155550123', '(415) 555-0123', '12'])('refuses %j', (raw) => {
    expect(toE164(raw)).toBeUndefined();
  });
});

describe('eventPhone', () => {
  it('keeps a number it cannot read as sent, trimmed', () => {
    expect(eventPhone(' ext. 12 ')).toBe('ext. 12');
    expect(eventPhone('+44 7700 900123')).toBe('+447700900123');
  });
});
