import { DEFAULT_RETRY_DELAYS } from '../config';
import { nextAttempt, parseRetryAfter } from './retry-schedule';

describe('the retry schedule', () => {
  it('waits the configured gap after each of the first six attempts and gives up after the seventh', () => {
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      expect(nextAttempt(attempt, DEFAULT_RETRY_DELAYS, undefined, () => 0)).toEqual({
        kind: 'retry',
        delaySeconds: DEFAULT_RETRY_DELAYS[attempt - 1],
      });
    }
    expect(nextAttempt(7, DEFAULT_RETRY_DELAYS).kind).toBe('give-up');
  });

  it('adds at most 10 % jitter and never takes any away', () => {
    expect(nextAttempt(2, DEFAULT_RETRY_DELAYS, undefined, () => 0.999_999).delaySeconds).toBeCloseTo(330, 3);
    for (let i = 0; i < 200; i += 1) {
      const { delaySeconds } = nextAttempt(1, DEFAULT_RETRY_DELAYS);
      expect(delaySeconds).toBeGreaterThanOrEqual(30);
      expect(delaySeconds).toBeLessThanOrEqual(33);
    }
  });

  it('honours Retry-After, never sooner than the schedule, at most twice the gap or an hour beyond it', () => {
    const none = (): number => 0;
    expect(nextAttempt(1, DEFAULT_RETRY_DELAYS, 5, none).delaySeconds).toBe(30);
    expect(nextAttempt(1, DEFAULT_RETRY_DELAYS, 45, none).delaySeconds).toBe(45);
    expect(nextAttempt(1, DEFAULT_RETRY_DELAYS, 600, none).delaySeconds).toBe(60);
    expect(nextAttempt(4, DEFAULT_RETRY_DELAYS, 86_400, none).delaySeconds).toBe(7200 + 3600);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
