import { retryAfterMs, safeEqual } from './provider-http';

describe('provider HTTP helpers', () => {
  it('reads Retry-After in seconds or as a date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs(3, now)).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('compares secrets of any length, and never matches an empty expectation', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual(undefined, 'abc')).toBe(false);
    expect(safeEqual('', '')).toBe(false);
  });
});
