import {
  deterministicId,
  WEBHOOK_REQUEST_TYPES,
  type Envelope,
  type WebhookEndpointResource,
} from '@cms/contracts';
import { eventually } from '@cms/testing';

import { Receiver } from './receiver.fixture';
import { readTopic } from './support/topic-reader';
import { sleep } from './support/wait';
import { makeTestCertificates, type TestCertificates } from './tls.fixture';
import { DispatchHarness, workspaceId } from './webhook-dispatch.harness';

let tls: TestCertificates;
let harness: DispatchHarness;
const receivers: Receiver[] = [];

beforeAll(async () => {
  tls = makeTestCertificates();
  harness = await DispatchHarness.start({
    tls,
    env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128', WEBHOOK_RETRY_DELAYS: '0.2,0.2,0.2,0.2,0.2,0.2' },
  });
});

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

async function publishConsents(ws: number, count: number): Promise<Envelope[]> {
  const facts = Array.from({ length: count }, () => harness.consentFact(ws, { status: 'granted' }));
  await harness.publishFacts(facts);
  return facts;
}

async function endpointWhen(
  ws: number,
  id: string,
  what: string,
  done: (endpoint: WebhookEndpointResource) => boolean,
): Promise<WebhookEndpointResource> {
  return eventually(
    what,
    async () => {
      const endpoint = await harness.endpoint(ws, id);
      return done(endpoint) ? endpoint : undefined;
    },
    20_000,
    50,
  );
}

async function failedDeliveries(ws: number, endpointId: string): Promise<number> {
  return (await harness.deliveries(ws, endpointId, 'per_page=100&filter[status]=failed')).length;
}

describe('switching an endpoint off', () => {
  it('happens after 25 failed deliveries in a row; its pending deliveries stop until it is switched on again', async () => {
    const ws = workspaceId();
    let failing = true;
    let lateId = '';
    const hooks = await receiver((request) =>
      !failing
        ? { status: 200 }
        : { status: 500, delayMs: request.headers['service-delivery'] === lateId ? 300 : 0 },
    );
    const { id } = await harness.createEndpoint(ws, hooks.url());
    const facts = harness.consentFact(ws, { status: 'granted' });
    lateId = deterministicId(facts.id, id);
    await harness.publishFacts([facts]);
    await publishConsents(ws, 25);

    const off = await endpointWhen(ws, id, 'the endpoint to be switched off', (e) => !e.enabled);
    expect(off).toMatchObject({ enabled: false, disabled_reason: 'failures', consecutive_failures: 25 });
    const switchedOffAt = Date.now();
    const late = await harness.delivery(ws, id, lateId, () => true);
    expect(late.status).toBe('pending');
    expect(late.attempts.length).toBeLessThan(7);

    await sleep(1500);
    const held = await harness.delivery(ws, id, lateId, () => true);
    expect(held.status).toBe('pending');
    expect(held.attempts.length).toBeLessThanOrEqual(late.attempts.length + 1);
    // The other deliveries had all failed by then: nothing reached the receiver after the switch-off was
    // seen but the late delivery's attempt in flight then, if one was, however long its way took.
    expect(hooks.requests.filter((r) => r.at > switchedOffAt).length).toBeLessThanOrEqual(1);
    const whileOff = await harness.consent(ws, { status: 'granted' });
    await sleep(500);
    expect(
      await harness.sql('SELECT id FROM webhook_deliveries WHERE id = $1', [
        deterministicId(whileOff.id, id),
      ]),
    ).toEqual([]);

    const facts2 = await readTopic(harness.kafka, harness.topics.webhooks, (values) =>
      values.some((value) => value.includes('webhook-endpoint.switched-off')),
    );
    expect(
      facts2
        .map((value) => JSON.parse(value) as Envelope)
        .find((f) => f.type === 'webhook-endpoint.switched-off'),
    ).toMatchObject({
      workspaceid: String(ws),
      data: { endpoint_id: id, reason: 'failures', consecutive_failures: 25 },
    });

    failing = false;
    const on = await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointUpdate, {
      endpoint_id: id,
      enabled: true,
    });
    expect(on.data).toMatchObject({
      status: 200,
      resource: { enabled: true, disabled_reason: null, consecutive_failures: 0 },
    });
    const resumed = await harness.delivery(ws, id, lateId, (d) => d.status === 'succeeded', 10_000);
    expect(resumed.attempts.at(-1)).toMatchObject({ response_status: 200, error: null });
    expect(await failedDeliveries(ws, id)).toBe(25);
  });

  it('does not happen for 24 failures, a success, and 24 failures: a success resets the count', async () => {
    const ws = workspaceId();
    let failing = true;
    const hooks = await receiver(() => (failing ? { status: 500 } : { status: 204 }));
    const { id } = await harness.createEndpoint(ws, hooks.url());

    await publishConsents(ws, 24);
    await endpointWhen(ws, id, '24 failures in a row', (e) => e.consecutive_failures === 24);
    failing = false;
    const [success] = await publishConsents(ws, 1);
    await harness.delivery(ws, id, deterministicId(success!.id, id), (d) => d.status === 'succeeded');
    expect((await harness.endpoint(ws, id)).consecutive_failures).toBe(0);
    failing = true;
    await publishConsents(ws, 24);
    const after = await endpointWhen(ws, id, '24 more failures', (e) => e.consecutive_failures === 24);
    expect(after).toMatchObject({ enabled: true, disabled_reason: null });
    expect(await failedDeliveries(ws, id)).toBe(48);
  });
});
