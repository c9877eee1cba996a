import { inNumberRange, numberBetween, numberComparison, suppressionAddress } from './filter-operands';

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

describe('suppressionAddress', () => {
  it('keeps phone numbers and e-mail addresses in lower case and linked ids as sent, all trimmed', () => {
    expect(suppressionAddress('email', ' Ana@Example.COM ')).toBe('ana@example.com');
    expect(suppressionAddress('sms', '+447700900123 ')).toBe('+447700900123');
    expect(suppressionAddress('telegram', ' TgUser ')).toBe('TgUser');
  });
});
