import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

import { freePort, testStack, uniqueName } from '@cms/testing';
import { Redis } from 'ioredis';

import {
  RATE_LIMIT_REDIS_OPTIONS,
  RateLimitService,
  type RateLimitBucket,
  type RateLimitConfig,
  type RateLimitDecision,
} from './rate-limit.service';

const SPEC_COUNTS = {
  perKey: 120,
  perWorkspace: 600,
  eventsPerWorkspace: 1200,
  inboundPerIntegration: 1200,
  providerCallbacksPerUrl: 60_000,
};
// Long enough that no counting test straddles a window edge on a slow machine; only the expiry test
// waits one out, and it uses its own short window.
const COUNTING_WINDOW_SECONDS = 10;

const namespace = uniqueName('rl_test');
const clients: Redis[] = [];
let redisUrl: string;
let suites = 0;

/** A client made as the gateway makes its own (concurrent checks share one pipelined write), once ready. */
async function connect(): Promise<Redis> {
  const client = new Redis(redisUrl, RATE_LIMIT_REDIS_OPTIONS);
  clients.push(client);
  // Without an offline queue a command sent before the connection is up fails at once.
  await once(client, 'ready');
  return client;
}

function freshConfig(overrides: Partial<RateLimitConfig> = {}): RateLimitConfig {
  suites += 1;
  return {
    windowSeconds: COUNTING_WINDOW_SECONDS,
    ...SPEC_COUNTS,
    keyPrefix: `${namespace}:${suites}`,
    ...overrides,
  };
}

let redis: Redis;

function service(overrides: Partial<RateLimitConfig> = {}): RateLimitService {
  return new RateLimitService(redis, freshConfig(overrides));
}

async function send(
  limiter: RateLimitService,
  count: number,
  apiKeyId: number,
  workspaceId: number,
  bucket: RateLimitBucket,
): Promise<RateLimitDecision[]> {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < count; i += 1) decisions.push(await limiter.consume(apiKeyId, workspaceId, bucket));
  return decisions;
}

function countdown(from: number, to: number): number[] {
  return Array.from({ length: from - to + 1 }, (_, i) => from - i);
}

beforeAll(async () => {
  redisUrl = (await testStack()).redisUrl;
  // The service sends nothing to a client that is not ready yet (it would count in memory instead).
  redis = await connect();
});

afterAll(async () => {
  const leftovers = await redis.keys(`${namespace}:*`);
  if (leftovers.length > 0) await redis.del(...leftovers);
  for (const client of clients) {
    // disconnect() on a client that already gave up arms a 2 s socket timer that holds jest open.
    if (client.status === 'ready') await client.quit();
    else if (client.status !== 'end') client.disconnect();
  }
});

describe('RateLimitService', () => {
  it('allows 120 requests of one key with Remaining counting down to 0 and refuses the 121st with a Retry-After within the window', async () => {
    const limiter = service();

    const decisions = await send(limiter, 120, 1, 1, 'api');

    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(decisions.map((decision) => decision.limit)).toEqual(Array(120).fill(120));
    expect(decisions.map((decision) => decision.remaining)).toEqual(countdown(119, 0));
    expect(decisions.map((decision) => decision.retryAfterSeconds)).toEqual(Array(120).fill(0));

    const refused = await limiter.consume(1, 1, 'api');
    expect(refused).toMatchObject({ allowed: false, limit: 120, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(COUNTING_WINDOW_SECONDS);
    expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
  });

  it('allows the key again once the Retry-After of its refusal has passed', async () => {
    const windowSeconds = 2;
    const limiter = service({ windowSeconds });
    await send(limiter, 120, 1, 1, 'api');
    const refused = await limiter.consume(1, 1, 'api');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(windowSeconds);

    await sleep(refused.retryAfterSeconds * 1000 + 50);

    expect(await limiter.consume(1, 1, 'api')).toEqual({
      allowed: true,
      limit: 120,
      remaining: 119,
      retryAfterSeconds: 0,
    });
  });

  it('allows 600 requests for all keys of a workspace together, refuses the 601st even on a fresh key, and leaves other workspaces alone', async () => {
    const limiter = service();
    const workspace = 7;

    // Key 1 goes 5 over its own limit: those refusals must not eat into the workspace's 600.
    const first = await send(limiter, 125, 1, workspace, 'api');
    expect(first.filter((decision) => decision.allowed)).toHaveLength(120);
    const others: RateLimitDecision[] = [];
    for (const key of [2, 3, 4, 5, 6]) others.push(...(await send(limiter, 96, key, workspace, 'api')));
    expect(others.every((decision) => decision.allowed)).toBe(true);
    // Remaining is the smaller of the key's and the workspace's: key 6 still has 24 of its own, but the
    // workspace has none, so the last allowed request already says 0.
    expect(others[0]!.remaining).toBe(119);
    expect(others.at(-1)!.remaining).toBe(0);

    const overWorkspace = await limiter.consume(6, workspace, 'api');
    expect(overWorkspace).toMatchObject({ allowed: false, limit: 120, remaining: 0 });
    expect(overWorkspace.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(overWorkspace.retryAfterSeconds).toBeLessThanOrEqual(COUNTING_WINDOW_SECONDS);

    const seventhKey = await limiter.consume(70, workspace, 'api');
    expect(seventhKey).toMatchObject({ allowed: false, limit: 120, remaining: 0 });
    expect(seventhKey.retryAfterSeconds).toBeGreaterThanOrEqual(1);

    expect(await limiter.consume(80, workspace + 1, 'api')).toEqual({
      allowed: true,
      limit: 120,
      remaining: 119,
      retryAfterSeconds: 0,
    });
  });

  it('does not charge a key for requests its workspace refused, so the key is whole once the workspace window ends', async () => {
    // Small counts: what is pinned is whose budget a refusal spends, not the spec's numbers.
    const windowSeconds = 2;
    const limiter = service({ windowSeconds, perKey: 5, perWorkspace: 5 });
    await send(limiter, 5, 1, 1, 'api');
    await sleep(1000);
    // Key 2's own window opens a second after the workspace's, so it outlives it.
    const refusedByWorkspace = await send(limiter, 10, 2, 1, 'api');
    expect(refusedByWorkspace.some((decision) => decision.allowed)).toBe(false);

    // Past the workspace's window (t0 + 2 s), well inside key 2's (t0 + 3 s).
    await sleep(1100);

    const afterWorkspaceWindow = await send(limiter, 5, 2, 1, 'api');
    expect(afterWorkspaceWindow.every((decision) => decision.allowed)).toBe(true);
  });

  it('allows 1200 events for a workspace across keys and refuses the 1201st, without touching the API budgets', async () => {
    const limiter = service();
    const workspace = 11;

    const events: RateLimitDecision[] = [];
    // 300 per key: more than a key's API limit, which must not apply to events.
    for (const key of [1, 2, 3, 4]) events.push(...(await send(limiter, 300, key, workspace, 'events')));
    expect(events.every((decision) => decision.allowed)).toBe(true);
    expect(events.map((decision) => decision.limit)).toEqual(Array(1200).fill(1200));
    expect(events.map((decision) => decision.remaining)).toEqual(countdown(1199, 0));

    const refused = await limiter.consume(5, workspace, 'events');
    expect(refused).toMatchObject({ allowed: false, limit: 1200, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(COUNTING_WINDOW_SECONDS);

    // The same keys and workspace still have their whole API budget: 5 × 120 = 600.
    const api: RateLimitDecision[] = [];
    for (const key of [1, 2, 3, 4, 5]) api.push(...(await send(limiter, 120, key, workspace, 'api')));
    expect(api.every((decision) => decision.allowed)).toBe(true);
    expect(api[0]!.remaining).toBe(119);
    expect((await limiter.consume(6, workspace, 'api')).allowed).toBe(false);
  });

  it('counts events apart from an exhausted API budget', async () => {
    const limiter = service();
    const workspace = 12;
    for (const key of [1, 2, 3, 4, 5]) await send(limiter, 120, key, workspace, 'api');
    expect((await limiter.consume(1, workspace, 'api')).allowed).toBe(false);
    expect((await limiter.consume(6, workspace, 'api')).allowed).toBe(false);

    expect(await limiter.consume(1, workspace, 'events')).toEqual({
      allowed: true,
      limit: 1200,
      remaining: 1199,
      retryAfterSeconds: 0,
    });
  });

  it('counts provider callbacks per callback URL, refuses past the limit, and touches no other budget', async () => {
    const limiter = service({ providerCallbacksPerUrl: 5 });
    const decisions: RateLimitDecision[] = [];
    for (let i = 0; i < 5; i += 1) decisions.push(await limiter.consumeProviderCallback('token-a'));
    expect(decisions.map((decision) => [decision.allowed, decision.remaining])).toEqual([
      [true, 4],
      [true, 3],
      [true, 2],
      [true, 1],
      [true, 0],
    ]);
    const refused = await limiter.consumeProviderCallback('token-a');
    expect(refused).toMatchObject({ allowed: false, limit: 5, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);

    expect((await limiter.consumeProviderCallback('token-b')).remaining).toBe(4);
    expect(await limiter.consumeInbound(1)).toMatchObject({ allowed: true, remaining: 1199 });
    const stored = await redis.keys(`${namespace}:*provider*`);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.join()).not.toContain('token-a');
  });

  it('allows 1200 inbound webhook requests per integration, refuses the 1201st, and touches no API or events budget', async () => {
    const limiter = service();
    const integration = 21;

    const inbound: RateLimitDecision[] = [];
    for (let i = 0; i < 1200; i += 1) inbound.push(await limiter.consumeInbound(integration));
    expect(inbound.every((decision) => decision.allowed)).toBe(true);
    expect(inbound.map((decision) => decision.limit)).toEqual(Array(1200).fill(1200));
    expect(inbound.map((decision) => decision.remaining)).toEqual(countdown(1199, 0));

    const refused = await limiter.consumeInbound(integration);
    expect(refused).toMatchObject({ allowed: false, limit: 1200, remaining: 0 });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(COUNTING_WINDOW_SECONDS);

    // Another integration has its own budget; keys and workspaces (whatever their ids) have theirs.
    expect((await limiter.consumeInbound(integration + 1)).remaining).toBe(1199);
    expect(await limiter.consume(integration, integration, 'api')).toMatchObject({
      allowed: true,
      remaining: 119,
    });
    expect(await limiter.consume(integration, integration, 'events')).toMatchObject({
      allowed: true,
      remaining: 1199,
    });
  });

  it('shares the counters between replicas that each have their own Redis connection', async () => {
    const config = freshConfig();
    const [clientA, clientB] = await Promise.all([connect(), connect()]);
    const replicaA = new RateLimitService(clientA, config);
    const replicaB = new RateLimitService(clientB, config);

    const alternating: RateLimitDecision[] = [];
    for (let i = 0; i < 60; i += 1) {
      alternating.push(await replicaA.consume(1, 1, 'api'));
      alternating.push(await replicaB.consume(1, 1, 'api'));
    }
    expect(alternating.map((decision) => decision.remaining)).toEqual(countdown(119, 0));
    expect((await replicaA.consume(1, 1, 'api')).allowed).toBe(false);
    expect((await replicaB.consume(1, 1, 'api')).allowed).toBe(false);

    // Concurrently, too: the count is atomic in Redis, so exactly 120 of 130 get through.
    const burst = await Promise.all(
      Array.from({ length: 130 }, (_, i) => (i % 2 === 0 ? replicaA : replicaB).consume(2, 2, 'api')),
    );
    expect(burst.filter((decision) => decision.allowed)).toHaveLength(120);
  });

  it('keeps answering from per-replica memory when Redis is unreachable', async () => {
    const unreachable = new Redis({
      host: '127.0.0.1',
      port: await freePort(),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    // ioredis reports the refused connection as an 'error' event; unhandled, it would crash the run.
    unreachable.on('error', () => undefined);
    clients.push(unreachable);
    const limiter = new RateLimitService(unreachable, freshConfig());

    const decisions = await send(limiter, 121, 1, 1, 'api');
    expect(decisions.slice(0, 120).every((decision) => decision.allowed)).toBe(true);
    expect(decisions.slice(0, 120).map((decision) => decision.remaining)).toEqual(countdown(119, 0));
    expect(decisions[120]).toMatchObject({ allowed: false, limit: 120, remaining: 0 });
    expect(decisions[120]!.retryAfterSeconds).toBeGreaterThanOrEqual(1);

    expect(await limiter.consume(1, 1, 'events')).toMatchObject({
      allowed: true,
      limit: 1200,
      remaining: 1199,
    });
  });
});
