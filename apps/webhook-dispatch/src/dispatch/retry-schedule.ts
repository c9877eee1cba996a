/** At most this much random delay is added to a scheduled gap, never taken away. */
export const JITTER_FRACTION = 0.1;
/** However long a receiver asks to be left alone, the next attempt waits at most this much longer. */
const MAX_RETRY_AFTER_EXTENSION_SECONDS = 3600;

export interface RetryDecision {
  /** 'retry' in `delaySeconds`, or 'give-up' after the last attempt. */
  kind: 'retry' | 'give-up';
  delaySeconds: number;
}

/**
 * Reads a Retry-After header: delay-seconds or an HTTP date (RFC 9110 §10.2.3). Undefined when absent
 * or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - nowMs) / 1000);
}

/**
 * When attempt `attemptInRound + 1` goes out after attempt `attemptInRound` failed (1-based, counted
 * from the start of the delivery or its last redelivery). The gap of WEBHOOK_RETRY_DELAYS plus up to
 * 10 % jitter; a Retry-After (honoured on 429 and 503) can push it later, but never earlier than the
 * schedule and never past twice the gap or one hour beyond it.
 */
export function nextAttempt(
  attemptInRound: number,
  delaysSeconds: readonly number[],
  retryAfterSeconds?: number,
  random: () => number = Math.random,
): RetryDecision {
  if (attemptInRound > delaysSeconds.length) return { kind: 'give-up', delaySeconds: 0 };
  const gap = delaysSeconds[attemptInRound - 1]!;
  const scheduled = gap * (1 + JITTER_FRACTION * random());
  if (retryAfterSeconds === undefined || retryAfterSeconds <= scheduled) {
    return { kind: 'retry', delaySeconds: scheduled };
  }
  const ceiling = Math.max(scheduled, Math.min(2 * gap, gap + MAX_RETRY_AFTER_EXTENSION_SECONDS));
  return { kind: 'retry', delaySeconds: Math.min(retryAfterSeconds, ceiling) };
}
