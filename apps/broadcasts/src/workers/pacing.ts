/** [ms since the epoch, messages asked for] of each batch a send made in the last minute. */
export type RecentBatches = Array<[number, number]>;

const MINUTE_MS = 60_000;

export interface Allowance {
  /** Members the send may ask for now (0: none until `nextAt`). */
  size: number;
  /** When a send with no allowance may ask again. */
  nextAt: number;
  /** The batches still inside the last minute. */
  recent: RecentBatches;
  /** When the send is due again after a batch of `made`: at once, or spread over the minute by its throttle. */
  paceAfter(made: number): number;
}

/**
 * How many members a send may ask for at `now` (extensions §13: `throttle_per_minute` means at most
 * that many of its messages are made in any 60 seconds). Without a throttle, a full batch. With one,
 * what the last minute's batches leave, in batches of about a second's share, so a throttled send
 * moves evenly rather than in one burst a minute.
 */
export function batchAllowance(
  throttlePerMinute: number | null,
  recentBatches: RecentBatches,
  now: number,
  batchSize: number,
): Allowance {
  const recent = recentBatches.filter(([at]) => at > now - MINUTE_MS);
  if (throttlePerMinute === null) {
    return { size: batchSize, nextAt: now, recent: [], paceAfter: () => now };
  }
  const used = recent.reduce((sum, [, count]) => sum + count, 0);
  const share = Math.max(1, Math.ceil(throttlePerMinute / 60));
  const size = Math.max(0, Math.min(batchSize, share, throttlePerMinute - used));
  // The oldest batch leaves the minute first: then some of the throttle is free again.
  const nextAt = recent.length > 0 ? recent[0]![0] + MINUTE_MS : now;
  return {
    size,
    nextAt,
    recent,
    paceAfter: (made) => now + Math.ceil((made * MINUTE_MS) / throttlePerMinute),
  };
}
