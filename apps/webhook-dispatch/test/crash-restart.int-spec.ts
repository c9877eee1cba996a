import { deterministicId, type Envelope } from '@cms/contracts';
import { eventually } from '@cms/testing';

import { INTERRUPTED_ATTEMPT } from '../src/dispatch/delivery-queue.repository';
import { Receiver } from './receiver.fixture';
import { verifySignature } from './support/signature-verifier';
import { received, sleep } from './support/wait';
import { makeTestCertificates, type TestCertificates } from './tls.fixture';
import { DispatchHarness, workspaceId } from './webhook-dispatch.harness';

// The service runs as a child process here: it trusts the test CA through NODE_EXTRA_CA_CERTS, read at
// process start, as a deployment would; and it can be killed with SIGKILL at any moment.
let tls: TestCertificates;
let harness: DispatchHarness;
const receivers: Receiver[] = [];

beforeAll(async () => {
  tls = makeTestCertificates();
  harness = await DispatchHarness.start({
    tls,
    mode: 'child',
    env: {
      WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128',
      WEBHOOK_RETRY_DELAYS: '0.5,0.5,0.5,0.5,0.5,0.5',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_LEASE_MARGIN_MS: '500',
      // A killed consumer's partitions go to its successor after this, not after the default 30 s.
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    },
  });
}, 90_000);

afterAll(async () => {
  await harness?.stop();
  for (const receiver of receivers) await receiver.close();
  tls?.remove();
});

async function receiver(behaviour: Parameters<typeof Receiver.start>[1]): Promise<Receiver> {
  const started = await Receiver.start(tls, behaviour);
  receivers.push(started);
  return started;
}

async function restart(): Promise<void> {
  await harness.killService();
  await harness.startService();
}

describe('the service as its own process', () => {
  it('verifies receivers with the CA of NODE_EXTRA_CA_CERTS and delivers signed webhooks', async () => {
    const ws = workspaceId();
    const hooks = await receiver(() => ({ status: 200 }));
    const { id, secret } = await harness.createEndpoint(ws, hooks.url());
    const fact = await harness.consent(ws, { status: 'revoked', channel: 'telegram' });
    const [request] = await received(hooks, 1, deterministicId(fact.id, id));
    expect(request!.headers['service-event']).toBe('consent.revoked');
    expect(
      verifySignature(
        String(request!.headers['service-signature']),
        request!.body,
        secret,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);
  });

  it('counts an attempt cut short by SIGKILL and sends the next one under the same delivery id', async () => {
    const ws = workspaceId();
    const hooks = await receiver((_request, all) => (all.length === 1 ? 'hang' : { status: 200 }));
    const { id } = await harness.createEndpoint(ws, hooks.url());
    const fact = await harness.consent(ws, { status: 'granted' });
    const deliveryId = deterministicId(fact.id, id);
    await received(hooks, 1, deliveryId);

    await restart();
    const delivery = await harness.delivery(ws, id, deliveryId, (d) => d.status === 'succeeded', 20_000);
    // The attempt after the restart succeeds; on a busy machine one may first outlast the 2 s timeout
    // (the process just started), which counts and is retried like any other.
    const attempts = delivery.attempts;
    expect(attempts[0]).toEqual(
      expect.objectContaining({ attempt: 1, response_status: null, error: INTERRUPTED_ATTEMPT }),
    );
    expect(attempts.at(-1)).toEqual(
      expect.objectContaining({ attempt: attempts.length, response_status: 200, error: null }),
    );
    for (const between of attempts.slice(1, -1)) expect(between.error).toMatch(/^timeout: /);
    expect(attempts.map((attempt) => attempt.attempt)).toEqual(attempts.map((_a, index) => index + 1));
    const requests = hooks.forDelivery(deliveryId);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.length).toBeLessThanOrEqual(attempts.length);
    for (const request of requests) expect(request.body).toBe(requests[0]!.body);
    expect(hooks.requests.every((r) => r.headers['service-delivery'] === deliveryId)).toBe(true);
  });

  it('loses no delivery and makes up no delivery id when killed again and again while deliveries flow', async () => {
    const ws = workspaceId();
    const hooks = await Promise.all(
      [0, 1, 2].map(() =>
        receiver((_request, all) => ({
          status: all.length % 7 === 3 ? 503 : 200,
          delayMs: 100 + Math.floor(Math.random() * 250),
        })),
      ),
    );
    const endpoints = await Promise.all(hooks.map((hook) => harness.createEndpoint(ws, hook.url())));
    const facts: Envelope[] = [];
    const publish = async (count: number): Promise<void> => {
      const batch = Array.from({ length: count }, () => harness.consentFact(ws, { status: 'granted' }));
      facts.push(...batch);
      await harness.publishFacts(batch);
    };

    await publish(15);
    for (const pause of [700, 1200, 400]) {
      await sleep(pause);
      await harness.killService();
      await publish(10);
      await harness.startService();
    }
    await publish(5);

    const expected = new Set(
      facts.flatMap((fact) => endpoints.map((endpoint) => deterministicId(fact.id, endpoint.id))),
    );
    expect(expected.size).toBe(150);
    await eventually(
      'every delivery to succeed',
      async () => {
        const rows = await harness.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE workspace_id = $1 AND status = 'succeeded'`,
          [ws],
        );
        return rows[0]!.n === 150;
      },
      45_000,
      200,
    );
    const seen = new Set(
      hooks.flatMap((hook) => hook.requests.map((r) => String(r.headers['service-delivery']))),
    );
    expect([...seen].filter((id) => !expected.has(id))).toEqual([]);
    expect(seen.size).toBe(150);
    const rows = await harness.sql<{ id: string; attempts: number[] }>(
      `SELECT d.id, array_agg(a.attempt ORDER BY a.attempt) AS attempts
         FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE d.workspace_id = $1 GROUP BY d.id`,
      [ws],
    );
    expect(rows).toHaveLength(150);
    for (const row of rows) expect(row.attempts).toEqual(row.attempts.map((_a, index) => index + 1));
  });
});
