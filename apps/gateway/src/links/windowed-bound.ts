/** What a bound answers: allowed, or when to come back. */
export type BoundAnswer = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * At most `perSecond × windowSeconds` events per key in each fixed window, counted in this process's
 * memory: no Redis round trip on a path whose goal is a few milliseconds, and nothing to fail when Redis
 * is away. Each replica counts its own share, so the bound is per replica. The counts of a window are
 * dropped whole when the next begins; `maxKeys` keeps a flood of distinct keys from growing the map
 * without end (keys past it go uncounted until the window ends: the bound never refuses a newcomer
 * because of others).
 */
export class WindowedBound {
  private counts = new Map<string, number>();
  private windowStart = 0;
  private readonly windowMs: number;
  private readonly limit: number;

  constructor(
    perSecond: number,
    windowSeconds = 10,
    private readonly maxKeys = 100_000,
  ) {
    this.windowMs = windowSeconds * 1000;
    this.limit = perSecond * windowSeconds;
  }

  take(key: string, now = Date.now()): BoundAnswer {
    if (now - this.windowStart >= this.windowMs) {
      this.counts = new Map();
      this.windowStart = now - (now % this.windowMs);
    }
    const count = this.counts.get(key);
    if (count === undefined) {
      if (this.counts.size < this.maxKeys) this.counts.set(key, 1);
      return { allowed: true };
    }
    if (count >= this.limit) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((this.windowStart + this.windowMs - now) / 1000)),
      };
    }
    this.counts.set(key, count + 1);
    return { allowed: true };
  }
}
