import { createHash } from 'node:crypto';

import type { Redis, RedisOptions } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** The gateway's Redis client, which only counts requests. */
export const RATE_LIMIT_REDIS_OPTIONS: RedisOptions = {
  maxRetriesPerRequest: 2,
  // A request must not wait for a reconnect: RateLimitService answers from memory meanwhile.
  enableOfflineQueue: false,
  lazyConnect: false,
  // The checks of the requests under way go out in one write and one Redis round instead of one each
  // (a write system call per request was 12 % of the gateway's CPU at 1,800 events/s).
  enableAutoPipelining: true,
};

export type RateLimitBucket = 'api' | 'events';

export interface RateLimitConfig {
  /** 60 in production; tests shorten it, never the counts. */
  windowSeconds: number;
  perKey: number;
  /** All keys of a workspace together. */
  perWorkspace: number;
  /** POST /api/v1/events only, counted apart from the two API limits. */
  eventsPerWorkspace: number;
  /** POST /webhook/integration/<token>, per integration, counted apart from every other limit. */
  inboundPerIntegration: number;
  /**
   * GET and POST /webhook/provider/<token>, per callback URL (one per channel), counted apart from
   * every other limit: a provider reports several statuses per message, so it is generous; it bounds
   * what a leaked URL can make the service verify and record.
   */
  providerCallbacksPerUrl: number;
  /** Redis key namespace. */
  keyPrefix: string;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** X-RateLimit-Limit: perKey for 'api', eventsPerWorkspace for 'events', inboundPerIntegration inbound. */
  limit: number;
  /** X-RateLimit-Remaining: requests left in this window, never negative. */
  remaining: number;
  /** Retry-After: whole seconds until a request would be allowed again; 0 when allowed. */
  retryAfterSeconds: number;
}

interface Outcome {
  allowed: boolean;
  res: RateLimiterRes;
}

/**
 * The spec's per-key, per-workspace and events limits, counted in Redis so every gateway replica
 * shares them. When Redis is down each replica falls back to its own in-memory counters: limits get
 * looser by the number of replicas, but requests keep flowing.
 */
export class RateLimitService {
  private readonly perKey: RateLimiterRedis;
  private readonly perWorkspace: RateLimiterRedis;
  private readonly eventsPerWorkspace: RateLimiterRedis;
  private readonly inboundPerIntegration: RateLimiterRedis;
  private readonly providerCallbacksPerUrl: RateLimiterRedis;

  constructor(
    redis: Redis,
    private readonly config: RateLimitConfig,
  ) {
    assertValid(config);
    const limiter = (name: string, points: number): RateLimiterRedis => {
      const keyPrefix = `${config.keyPrefix}:${name}`;
      const duration = config.windowSeconds;
      return new RateLimiterRedis({
        storeClient: redis,
        // ioredis, not the `redis` package: useRedisPackage stays off.
        useRedisPackage: false,
        // A request must not wait on a disconnected client's offline queue: go to the insurance at once.
        rejectIfRedisNotReady: true,
        keyPrefix,
        points,
        duration,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
      });
    };
    this.perKey = limiter('api:key', config.perKey);
    this.perWorkspace = limiter('api:workspace', config.perWorkspace);
    this.eventsPerWorkspace = limiter('events:workspace', config.eventsPerWorkspace);
    this.inboundPerIntegration = limiter('inbound:integration', config.inboundPerIntegration);
    this.providerCallbacksPerUrl = limiter('provider:url', config.providerCallbacksPerUrl);
  }

  async consume(apiKeyId: number, workspaceId: number, bucket: RateLimitBucket): Promise<RateLimitDecision> {
    switch (bucket) {
      case 'api':
        return this.consumeApi(apiKeyId, workspaceId);
      case 'events':
        return this.consumeEvents(workspaceId);
    }
  }

  /** One request to an integration's inbound webhook URL; no API key or workspace budget is touched. */
  async consumeInbound(integrationId: number): Promise<RateLimitDecision> {
    const outcome = await attempt(this.inboundPerIntegration, integrationId);
    return outcome.allowed
      ? allowed(this.config.inboundPerIntegration, outcome.res.remainingPoints)
      : refused(this.config.inboundPerIntegration, outcome.res.msBeforeNext);
  }

  /**
   * One request to a provider callback URL, before it is verified; counted by a digest of the URL's
   * token (Redis never holds the token itself).
   */
  async consumeProviderCallback(token: string): Promise<RateLimitDecision> {
    const key = createHash('sha256').update(token).digest('base64url').slice(0, 22);
    const outcome = await attempt(this.providerCallbacksPerUrl, key);
    return outcome.allowed
      ? allowed(this.config.providerCallbacksPerUrl, outcome.res.remainingPoints)
      : refused(this.config.providerCallbacksPerUrl, outcome.res.msBeforeNext);
  }

  private async consumeEvents(workspaceId: number): Promise<RateLimitDecision> {
    const outcome = await attempt(this.eventsPerWorkspace, workspaceId);
    return outcome.allowed
      ? allowed(this.config.eventsPerWorkspace, outcome.res.remainingPoints)
      : refused(this.config.eventsPerWorkspace, outcome.res.msBeforeNext);
  }

  private async consumeApi(apiKeyId: number, workspaceId: number): Promise<RateLimitDecision> {
    const limit = this.config.perKey;
    const key = await attempt(this.perKey, apiKeyId);
    if (!key.allowed) {
      // A request the key's limit refuses is not charged to the workspace, or one runaway key would
      // lock out its siblings. Its Retry-After still covers an exhausted workspace, so the retry lands.
      const workspace = await this.perWorkspace.get(workspaceId);
      const workspaceWaitMs = workspace && workspace.remainingPoints === 0 ? workspace.msBeforeNext : 0;
      return refused(limit, Math.max(key.res.msBeforeNext, workspaceWaitMs));
    }
    const workspace = await attempt(this.perWorkspace, workspaceId);
    if (!workspace.allowed) {
      // Symmetrically, a request the workspace refuses gives the key its point back.
      await this.perKey.reward(apiKeyId);
      return refused(limit, workspace.res.msBeforeNext);
    }
    // The smaller of the two, so a client never reads Remaining > 0 and then gets a 429.
    return allowed(limit, Math.min(key.res.remainingPoints, workspace.res.remainingPoints));
  }
}

/** The library rejects with a RateLimiterRes when over the limit; anything else is a real failure. */
async function attempt(limiter: RateLimiterRedis, key: number | string): Promise<Outcome> {
  try {
    return { allowed: true, res: await limiter.consume(key) };
  } catch (rejection: unknown) {
    if (rejection instanceof RateLimiterRes) return { allowed: false, res: rejection };
    throw rejection;
  }
}

function allowed(limit: number, remaining: number): RateLimitDecision {
  return { allowed: true, limit, remaining: Math.max(remaining, 0), retryAfterSeconds: 0 };
}

function refused(limit: number, msBeforeNext: number): RateLimitDecision {
  // Rounded up and at least 1: a Retry-After of 0, or one a few ms short, invites a retry that is refused.
  return {
    allowed: false,
    limit,
    remaining: 0,
    retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  };
}

function assertValid(config: RateLimitConfig): void {
  // The library counts whole seconds and treats a duration of 0 as "never reset".
  const counts: Array<[string, number]> = [
    ['windowSeconds', config.windowSeconds],
    ['perKey', config.perKey],
    ['perWorkspace', config.perWorkspace],
    ['eventsPerWorkspace', config.eventsPerWorkspace],
    ['inboundPerIntegration', config.inboundPerIntegration],
    ['providerCallbacksPerUrl', config.providerCallbacksPerUrl],
  ];
  for (const [name, value] of counts) {
    if (!Number.isInteger(value) || value < 1) {
      throw new RangeError(`rate limit ${name} must be an integer ≥ 1, got ${value}`);
    }
  }
  if (config.keyPrefix.trim() === '') throw new RangeError('rate limit keyPrefix must not be empty');
}
