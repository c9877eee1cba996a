import { lookup } from 'node:dns';

import { deterministicId, WEBHOOK_REQUEST_TYPES, type WebhookDeliveryResource } from '@cms/contracts';
import { eventually, freePort } from '@cms/testing';

import { Receiver, type ReceivedRequest } from './receiver.fixture';
import { verifySignature } from './support/signature-verifier';
import { gaps, received, sleep } from './support/wait';
import { makeTestCertificates, type TestCertificates } from './tls.fixture';
import { DispatchHarness, workspaceId } from './webhook-dispatch.harness';

const TIMEOUT_MS = 1500;
/** WEBHOOK_POLL_MS of the harness: a retry falls due on the clock and is seen at the next poll. */
const POLL_MS = 100;
const BREAKER_RESET_MS = 2000;

let tls: TestCertificates;
let harness: DispatchHarness;
const receivers: Receiver[] = [];

beforeAll(async () => {
  tls = makeTestCertificates();
  harness = await DispatchHarness.start({
    tls,
    // A name that reaches the receivers but is not on their certificate.
    resolve: (hostname, options, callback) =>
      hostname === 'wrong-name.test'
        ? callback(null, [{ address: '127.0.0.1', family: 4 }])
        : lookup(hostname, options, callback),
    env: {
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
      WEBHOOK_RETRY_DELAYS: '1,1,1,1,1,1',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_BREAKER_RESET_MS: String(BREAKER_RESET_MS),
    },
  });
});

afterAll(async () => {
  await harness?.stop();
  for (const receiver of receivers) await receiver.close();
  tls?.remove();
});

async function receiver(behaviour?: Parameters<typeof Receiver.start>[1]): Promise<Receiver> {
  const started = await Receiver.start(tls, behaviour);
  receivers.push(started);
  return started;
}

/** Stops an endpoint's background retries once a test has seen what it needs. */
async function deleteEndpoint(ws: number, id: string): Promise<void> {
  await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointDelete, { endpoint_id: id });
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * How much later than its schedule an attempt may reach its receiver, measured by a first attempt of the
 * same test: `tripMs` is the time its fact took from being published to reaching the receiver (through
 * the facts consumer, the fan-out, the worker and the sender), on this machine as it is now. An attempt
 * that falls due on the clock takes the worker's and the sender's part of that way again, after at
 * most one poll.
 */
function lateness(tripMs: number): number {
  return POLL_MS + 3 * tripMs + 400;
}

/** `actual` compared with `bound`, so that a failure shows both and the figure the bound comes from. */
function within(actual: number, bound: number, tripMs: number) {
  return { actual, bound, tripMs, within: actual < bound };
}

function statuses(delivery: WebhookDeliveryResource): Array<number | null> {
  return delivery.attempts.map((attempt) => attempt.response_status);
}

describe('a delivery', () => {
  it('is a POST with exactly the specification headers, the envelope, and a signature a receiver can verify', async () => {
    const ws = workspaceId();
    const hooks = await receiver();
    const { id: endpointId, secret } = await harness.createEndpoint(ws, hooks.url('/cms/events?source=test'));
    const fact = await harness.consent(ws, {
      status: 'granted',
      channel: 'sms',
      contact: { id: 7, external_id: null, name: 'Ada', phone: '+447700900123', email: null },
    });
    const deliveryId = deterministicId(fact.id, endpointId);
    const [request] = await received(hooks, 1, deliveryId);

    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/cms/events?source=test');
    const { host: _host, connection: _connection, 'content-length': length, ...headers } = request!.headers;
    expect(Number(length)).toBe(Buffer.byteLength(request!.body));
    expect(headers).toEqual({
      'content-type': 'application/json',
      'user-agent': 'Service-Webhooks/1.0',
      'service-event': 'consent.granted',
      'service-delivery': deliveryId,
      'service-signature': expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/),
    });
    expect(verifySignature(String(headers['service-signature']), request!.body, secret, nowSeconds())).toBe(
      true,
    );
    expect(Object.keys(JSON.parse(request!.body) as object)).toEqual(['id', 'type', 'created_at', 'data']);
    expect(JSON.parse(request!.body)).toEqual({
      id: deliveryId,
      type: 'consent.granted',
      created_at: new Date(fact.time).toISOString(),
      data: {
        channel: 'sms',
        status: 'granted',
        source: 'api',
        contact: { id: 7, external_id: null, name: 'Ada', phone: '+447700900123', email: null },
      },
    });

    const delivery = await harness.delivery(ws, endpointId, deliveryId, (d) => d.status === 'succeeded');
    expect(delivery).toEqual({
      id: deliveryId,
      endpoint_id: endpointId,
      event_type: 'consent.granted',
      status: 'succeeded',
      attempts: [
        {
          attempt: 1,
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          response_status: 204,
          response_body: '',
          duration_ms: expect.any(Number),
          error: null,
        },
      ],
      next_attempt_at: null,
      created_at: new Date(fact.time).toISOString(),
    });
  });

  it('goes only to the endpoints of the fact workspace that chose its kind', async () => {
    const ws = workspaceId();
    const other = workspaceId();
    const grants = await receiver();
    const revokes = await receiver();
    const stranger = await receiver();
    await harness.createEndpoint(ws, grants.url(), ['consent.granted']);
    await harness.createEndpoint(ws, revokes.url(), ['consent.revoked', 'message.failed']);
    await harness.createEndpoint(other, stranger.url(), ['consent.granted', 'consent.revoked']);
    await harness.consent(ws, { status: 'granted' });
    await harness.consent(ws, { status: 'revoked', channel: 'email' });

    await received(grants, 1);
    await received(revokes, 1);
    await sleep(500);
    expect(grants.requests.map((r) => r.headers['service-event'])).toEqual(['consent.granted']);
    expect(revokes.requests.map((r) => r.headers['service-event'])).toEqual(['consent.revoked']);
    expect(JSON.parse(revokes.requests[0]!.body)).toMatchObject({
      type: 'consent.revoked',
      data: { channel: 'email', status: 'revoked', source: 'api' },
    });
    expect(stranger.requests).toEqual([]);
  });

  it('is made once per fact and endpoint however often the fact is read, and never for an older fact', async () => {
    const ws = workspaceId();
    const hooks = await receiver();
    const before = new Date(Date.now() - 60_000).toISOString();
    const { id: endpointId } = await harness.createEndpoint(ws, hooks.url());
    const fact = harness.consentFact(ws, { status: 'granted' });
    const old = harness.consentFact(ws, { status: 'revoked', time: before });
    await harness.publishFacts([fact, old, fact]);
    await harness.publishFacts([fact]);
    await received(hooks, 1);
    await eventually(
      'the facts consumer to pass the copies',
      async () => harness.app.consumers['facts-consumer']!.stats.applied >= 4,
      10_000,
    );
    await sleep(300);
    expect(hooks.requests.map((r) => r.headers['service-delivery'])).toEqual([
      deterministicId(fact.id, endpointId),
    ]);
    expect((await harness.deliveries(ws, endpointId)).map((d) => d.id)).toEqual([
      deterministicId(fact.id, endpointId),
    ]);
  });
});

describe('retries', () => {
  it('follow WEBHOOK_RETRY_DELAYS with a fresh signature over the same bytes: success on the 4th attempt, failed after the 7th', async () => {
    const ws = workspaceId();
    const flaky = await receiver((_request, all) =>
      all.length < 4 ? { status: 500, body: 'not yet' } : { status: 200 },
    );
    const dead = await receiver(() => ({ status: 500, body: 'down' }));
    const flakyEndpoint = await harness.createEndpoint(ws, flaky.url(), ['consent.granted']);
    const deadEndpoint = await harness.createEndpoint(ws, dead.url(), ['consent.granted']);
    const publishedAt = Date.now();
    const fact = await harness.consent(ws, { status: 'granted' });
    const flakyId = deterministicId(fact.id, flakyEndpoint.id);
    const deadId = deterministicId(fact.id, deadEndpoint.id);

    const recovered = await harness.delivery(
      ws,
      flakyEndpoint.id,
      flakyId,
      (d) => d.status === 'succeeded',
      15_000,
    );
    expect(statuses(recovered)).toEqual([500, 500, 500, 200]);
    expect(recovered.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(recovered.attempts.map((a) => a.error === null)).toEqual([false, false, false, true]);
    expect(recovered.attempts[0]!.response_body).toBe('not yet');
    const attempts = flaky.forDelivery(flakyId);
    expect(attempts).toHaveLength(4);
    // The first attempts to either endpoint, which the schedule does not delay, are the calm figure.
    const tripMs = Math.max(attempts[0]!.at, dead.forDelivery(deadId)[0]!.at) - publishedAt;
    for (const gap of gaps(attempts)) {
      expect(gap).toBeGreaterThanOrEqual(950);
      // One second and up to 10 % jitter, and no later than the way of an attempt allows.
      expect(within(gap, 1100 + lateness(tripMs), tripMs)).toMatchObject({ within: true });
    }
    expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
    expect(new Set(attempts.map((r) => r.headers['service-signature'])).size).toBe(4);
    for (const request of attempts) {
      expect(
        verifySignature(
          String(request.headers['service-signature']),
          request.body,
          flakyEndpoint.secret,
          nowSeconds(),
        ),
      ).toBe(true);
    }

    const failed = await harness.delivery(ws, deadEndpoint.id, deadId, (d) => d.status === 'failed', 15_000);
    expect(failed.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(failed.next_attempt_at).toBeNull();
    await sleep(1500);
    expect(dead.forDelivery(deadId)).toHaveLength(7);
    expect((await harness.endpoint(ws, deadEndpoint.id)).consecutive_failures).toBe(1);
  });

  it('count no answer within WEBHOOK_TIMEOUT_MS as a failed attempt', async () => {
    const ws = workspaceId();
    const slow = await receiver((_request, all) => (all.length === 1 ? 'hang' : { status: 202 }));
    const { id: endpointId } = await harness.createEndpoint(ws, slow.url());
    const publishedAt = Date.now();
    const fact = await harness.consent(ws, { status: 'granted' });
    const delivery = await harness.delivery(
      ws,
      endpointId,
      deterministicId(fact.id, endpointId),
      (d) => d.status === 'succeeded',
      10_000,
    );
    const tripMs = slow.requests[0]!.at - publishedAt;
    expect(delivery.attempts[0]).toMatchObject({
      attempt: 1,
      response_status: null,
      error: expect.stringMatching(/^timeout/),
    });
    expect(delivery.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    // Given up at the timeout, give or take what the machine takes now to get an attempt to its receiver.
    expect(within(delivery.attempts[0]!.duration_ms!, TIMEOUT_MS + lateness(tripMs), tripMs)).toMatchObject({
      within: true,
    });
    expect(delivery.attempts[1]).toMatchObject({ attempt: 2, response_status: 202, error: null });
  });

  it('count a 302 as a failure and never follow it', async () => {
    const ws = workspaceId();
    const hooks = await receiver((request) =>
      request.path === '/hooks'
        ? { status: 302, headers: { location: hooks.url('/elsewhere') } }
        : { status: 200 },
    );
    const { id: endpointId } = await harness.createEndpoint(ws, hooks.url('/hooks'));
    const fact = await harness.consent(ws, { status: 'granted' });
    const delivery = await harness.delivery(
      ws,
      endpointId,
      deterministicId(fact.id, endpointId),
      (d) => d.attempts.length >= 2 && d.attempts[1]!.response_status !== null,
      10_000,
    );
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({
      response_status: 302,
      error: expect.stringMatching(/redirects are not followed/),
    });
    expect(hooks.requests.every((r: ReceivedRequest) => r.path === '/hooks')).toBe(true);
    await deleteEndpoint(ws, endpointId);
  });

  it('wait as long as a 429 or 503 Retry-After asks, but no longer than twice the scheduled gap', async () => {
    const ws = workspaceId();
    const busy = await receiver((_r, all) =>
      all.length === 1 ? { status: 429, headers: { 'retry-after': '2' } } : { status: 200 },
    );
    const greedy = await receiver((_r, all) =>
      all.length === 1 ? { status: 503, headers: { 'retry-after': '3600' } } : { status: 200 },
    );
    const busyEndpoint = await harness.createEndpoint(ws, busy.url());
    const greedyEndpoint = await harness.createEndpoint(ws, greedy.url());
    const publishedAt = Date.now();
    await harness.consent(ws, { status: 'granted' });
    const [busyFirst, busySecond] = await received(busy, 2, undefined, 10_000);
    const [greedyFirst, greedySecond] = await received(greedy, 2, undefined, 10_000);
    const tripMs = Math.max(busyFirst!.at, greedyFirst!.at) - publishedAt;
    // Two seconds (Retry-After 2; twice the gap of 1 s for Retry-After 3600), and no later than the way
    // of an attempt allows.
    expect(busySecond!.at - busyFirst!.at).toBeGreaterThanOrEqual(1950);
    expect(within(busySecond!.at - busyFirst!.at, 2000 + lateness(tripMs), tripMs)).toMatchObject({
      within: true,
    });
    expect(greedySecond!.at - greedyFirst!.at).toBeGreaterThanOrEqual(1950);
    expect(within(greedySecond!.at - greedyFirst!.at, 2000 + lateness(tripMs), tripMs)).toMatchObject({
      within: true,
    });
    const id = String(busyFirst!.headers['service-delivery']);
    const delivery = await harness.delivery(ws, busyEndpoint.id, id, (d) => d.status === 'succeeded');
    expect(statuses(delivery)).toEqual([429, 200]);
    expect(greedyEndpoint.id).toBeDefined();
  });

  it('record at most 16 KiB of what the receiver answered', async () => {
    const ws = workspaceId();
    const chatty = await receiver(() => ({ status: 200, body: 'é'.repeat(5) + 'x'.repeat(20_000) }));
    const { id: endpointId } = await harness.createEndpoint(ws, chatty.url());
    const fact = await harness.consent(ws, { status: 'granted' });
    const delivery = await harness.delivery(
      ws,
      endpointId,
      deterministicId(fact.id, endpointId),
      (d) => d.status === 'succeeded',
    );
    expect(Buffer.byteLength(delivery.attempts[0]!.response_body!)).toBe(16 * 1024);
  });
});

describe('TLS', () => {
  it('is verified: a certificate from an unknown CA, or for another name, fails the attempt before anything is sent', async () => {
    const ws = workspaceId();
    const rogueTls = makeTestCertificates();
    const rogue = await Receiver.start(rogueTls);
    const trusted = await receiver();
    try {
      const unknownCa = await harness.createEndpoint(ws, rogue.url());
      const wrongName = await harness.createEndpoint(ws, `https://wrong-name.test:${trusted.port}/hooks`);
      const fact = await harness.consent(ws, { status: 'granted' });
      const first = await harness.delivery(
        ws,
        unknownCa.id,
        deterministicId(fact.id, unknownCa.id),
        (d) => d.attempts.length > 0 && d.attempts[0]!.duration_ms !== null,
      );
      expect(first.attempts[0]!.error).toMatch(/^TLS: UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
      const second = await harness.delivery(
        ws,
        wrongName.id,
        deterministicId(fact.id, wrongName.id),
        (d) => d.attempts.length > 0 && d.attempts[0]!.duration_ms !== null,
      );
      expect(second.attempts[0]!.error).toMatch(/^TLS: ERR_TLS_CERT_ALTNAME_INVALID/);
      expect(rogue.requests).toEqual([]);
      expect(trusted.requests).toEqual([]);
      await deleteEndpoint(ws, unknownCa.id);
      await deleteEndpoint(ws, wrongName.id);
    } finally {
      await rogue.close();
      rogueTls.remove();
    }
  });
});

describe('a rolled secret', () => {
  it('signs every delivery beside the new one, as a second v1, for 24 hours', async () => {
    const ws = workspaceId();
    const hooks = await receiver();
    const { id: endpointId, secret: oldSecret } = await harness.createEndpoint(ws, hooks.url());
    const rolled = await harness.rollSecret(ws, endpointId);
    expect(rolled.outcome.data).toEqual({ status: 200, resource: {} });
    expect(JSON.stringify(rolled.outcome)).not.toContain(rolled.secret);

    const fact = await harness.consent(ws, { status: 'granted' });
    const [request] = await received(hooks, 1, deterministicId(fact.id, endpointId));
    const header = String(request!.headers['service-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const [t, first, second] = header.split(',');
    expect(verifySignature(`${t},${first}`, request!.body, rolled.secret, nowSeconds())).toBe(true);
    expect(verifySignature(`${t},${second}`, request!.body, oldSecret, nowSeconds())).toBe(true);
    expect(verifySignature(header, request!.body, oldSecret, nowSeconds())).toBe(true);

    const [row] = await harness.sql<{ hours: number }>(
      `SELECT round(extract(epoch FROM previous_secret_expires_at - updated_at) / 3600) AS hours FROM webhook_endpoints WHERE id = $1`,
      [endpointId],
    );
    expect(Number(row!.hours)).toBe(24);
    await harness.sql(
      `UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
      [endpointId],
    );
    const later = await harness.consent(ws, { status: 'revoked' });
    const [after] = await received(hooks, 1, deterministicId(later.id, endpointId));
    expect(String(after!.headers['service-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(
      verifySignature(String(after!.headers['service-signature']), after!.body, rolled.secret, nowSeconds()),
    ).toBe(true);
  });
});

describe('isolation', () => {
  it('delivers to a healthy endpoint promptly while a slow one beside it takes its time, four at once at most', async () => {
    const ws = workspaceId();
    const SLOW_MS = 1200;
    const slow = await receiver(() => ({ status: 200, delayMs: SLOW_MS }));
    const healthy = await receiver();
    await harness.createEndpoint(ws, healthy.url());
    const twenty = () => Array.from({ length: 20 }, () => harness.consentFact(ws, { status: 'granted' }));
    // The calm phase: how long twenty deliveries take to the healthy endpoint alone, here and now.
    let published = Date.now();
    await harness.publishFacts(twenty());
    await received(healthy, 20, undefined, 20_000);
    const calmMs = Date.now() - published;

    const slowEndpoint = await harness.createEndpoint(ws, slow.url());
    published = Date.now();
    await harness.publishFacts(twenty());
    await received(healthy, 40, undefined, 20_000);
    const healthyMs = Date.now() - published;
    // Not held up by the slow one: a wave of its attempts alone takes SLOW_MS.
    expect({ healthyMs, calmMs, within: healthyMs < 2 * calmMs + 500 }).toEqual({
      healthyMs,
      calmMs,
      within: true,
    });
    // Four at once at most: each of its four places takes a new attempt only once one took SLOW_MS.
    expect(slow.requests.length).toBeLessThanOrEqual(4 * (1 + Math.floor(healthyMs / SLOW_MS)));
    await eventually('four attempts at once at the slow endpoint', async () => slow.maxInFlight >= 4);
    // A wave more, in which a fifth at once would show.
    await sleep(SLOW_MS + 300);
    expect(slow.maxInFlight).toBe(4);
    await deleteEndpoint(ws, slowEndpoint.id);
  });

  it('holds back the deliveries of an unreachable endpoint while its breaker is open, spending no attempt', async () => {
    const ws = workspaceId();
    // Nothing listens on it: connecting is refused.
    const port = await freePort();
    const { id: endpointId } = await harness.createEndpoint(ws, `https://localhost:${port}/hooks`);
    const publishedAt = Date.now();
    await harness.publishFacts(
      Array.from({ length: 16 }, () => harness.consentFact(ws, { status: 'granted' })),
    );
    // The breaker opens, goes half-open after WEBHOOK_BREAKER_RESET_MS, fails its trial and opens
    // again: the deliveries held back and the gauge are looked at together, whenever that is.
    const held = await eventually(
      'the breaker to hold deliveries back, and the gauge to count it',
      async () => {
        const deliveries = await harness.deliveries(ws, endpointId);
        const untouched = deliveries.filter(
          (d) => d.attempts.length === 0 && d.next_attempt_at && Date.parse(d.next_attempt_at) > Date.now(),
        );
        if (deliveries.length !== 16 || untouched.length === 0) return undefined;
        const metrics = await (await fetch(`${harness.url}/metrics`)).text();
        return /^cms_webhook_endpoint_breakers_open\{[^}]*\} [1-9]\d*$/m.test(metrics)
          ? deliveries
          : undefined;
      },
      10_000,
      50,
    );
    const heldAt = Date.now();
    const spent = held.reduce((sum, d) => sum + d.attempts.length, 0);
    expect(spent).toBeGreaterThanOrEqual(10);
    // Ten to open it, the three others of its four places in flight then, and a trial or two; one more
    // trial for each WEBHOOK_BREAKER_RESET_MS the deliveries have been there (however long it took to
    // see the breaker open), never one attempt for every delivery held back.
    expect(spent).toBeLessThan(16 + Math.floor((heldAt - publishedAt) / BREAKER_RESET_MS));
    expect(
      held
        .flatMap((d) => d.attempts)
        .filter((a) => a.duration_ms !== null)
        .every((a) => /connection failed: ECONNREFUSED/.test(a.error ?? '')),
    ).toBe(true);
    await deleteEndpoint(ws, endpointId);
  });
});

describe('the metrics', () => {
  /** The sum of a metric's series that carry `label`. */
  async function sampled(metric: string, label: string): Promise<number> {
    const text = await (await fetch(`${harness.url}/metrics`)).text();
    return text
      .split('\n')
      .filter((line) => line.startsWith(`${metric}{`) && line.includes(label))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  }

  it('count attempts by how they ended, time them, and count the facts the fan-out applied', async () => {
    const before = {
      succeeded: await sampled('cms_webhook_attempts_total', 'result="succeeded"'),
      refused: await sampled('cms_webhook_attempts_total', 'result="refused"'),
      timed: await sampled('cms_webhook_attempt_duration_seconds_count', 'result="succeeded"'),
      facts: await sampled('cms_records_processed_total', 'result="applied"'),
    };
    const ws = workspaceId();
    const healthy = await receiver();
    const failing = await receiver(() => ({ status: 500 }));
    const { id: healthyId } = await harness.createEndpoint(ws, healthy.url('/ok'));
    const { id: failingId } = await harness.createEndpoint(ws, failing.url('/fails'));
    const fact = await harness.consent(ws, { status: 'granted' });
    await harness.delivery(
      ws,
      healthyId,
      deterministicId(fact.id, healthyId),
      (d) => d.status === 'succeeded',
    );
    await harness.delivery(ws, failingId, deterministicId(fact.id, failingId), (d) => d.attempts.length >= 1);

    expect(await sampled('cms_webhook_attempts_total', 'result="succeeded"')).toBeGreaterThan(
      before.succeeded,
    );
    expect(await sampled('cms_webhook_attempts_total', 'result="refused"')).toBeGreaterThan(before.refused);
    expect(await sampled('cms_webhook_attempt_duration_seconds_count', 'result="succeeded"')).toBeGreaterThan(
      before.timed,
    );
    expect(await sampled('cms_records_processed_total', 'result="applied"')).toBeGreaterThan(before.facts);
    await deleteEndpoint(ws, failingId);
  });
});
