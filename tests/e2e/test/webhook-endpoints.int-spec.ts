import { eventually } from '@cms/testing';

import { HookReceiver, System } from '../src';
import { verifyWebhookSignature, WebhookContract } from '../src/webhook-contract';

type Errors = {
  errors: Array<{ status: string; title: string; detail: string; source?: { pointer: string } }>;
};
type Endpoint = { id: string; url: string; event_types: string[]; enabled: boolean; secret?: string };

let system: System;
/** A customer's HTTPS endpoint on this machine; every delivery it gets is held to the document. */
let receiver: HookReceiver;

beforeAll(async () => {
  receiver = await new HookReceiver('webhook-endpoints-e2e').start();
  // Deliveries to the unresolvable test host fail fast and retry quickly.
  system = await System.start(['gateway', 'contacts', 'webhook-dispatch'], {
    WEBHOOK_RETRY_DELAYS: '1,1,1,1,1,1',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_POLL_MS: '100',
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
    NODE_EXTRA_CA_CERTS: receiver.certificates.caFile,
  });
  receiver.checkAgainst(await WebhookContract.read(system.url));
}, 120000);

afterAll(async () => {
  await system?.stop();
  receiver?.stop();
});

async function createEndpoint(key: string, body: Record<string, unknown> = {}) {
  return system.call<{ data: Endpoint }>('POST', '/api/v1/webhook-endpoints', {
    key,
    body: {
      url: 'https://hooks.example.invalid/cms',
      event_types: ['consent.granted', 'consent.revoked'],
      ...body,
    },
  });
}

describe('outbound webhook endpoints through the gateway', () => {
  it('is refused with 403 on the starter and pro plans and allowed on business and agency', async () => {
    for (const plan of ['starter', 'pro']) {
      const { key } = await system.tenant(plan);
      const answer = await system.call<Errors>('GET', '/api/v1/webhook-endpoints', { key });
      expect([plan, answer.status, answer.body.errors[0]!.title]).toEqual([plan, 403, 'Forbidden']);
    }
    for (const plan of ['business', 'agency']) {
      const { key } = await system.tenant(plan);
      expect([plan, (await system.call('GET', '/api/v1/webhook-endpoints', { key })).status]).toEqual([
        plan,
        200,
      ]);
    }
  });

  it('creates an endpoint with its secret shown once, then lists, reads, updates, rolls and deletes it', async () => {
    const { key } = await system.tenant('business');
    const created = await createEndpoint(key, { description: 'orders' });
    expect(created.status).toBe(201);
    const endpoint = created.body.data;
    expect(endpoint).toMatchObject({
      url: 'https://hooks.example.invalid/cms',
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(endpoint.id).toMatch(/^[0-9a-f-]{36}$/);

    const read = await system.call<{ data: Record<string, unknown> }>(
      'GET',
      `/api/v1/webhook-endpoints/${endpoint.id}`,
      { key },
    );
    expect(read.status).toBe(200);
    expect(read.body.data).not.toHaveProperty('secret');
    const list = await system.call<{ data: Array<{ id: string }>; meta: { total: number } }>(
      'GET',
      '/api/v1/webhook-endpoints',
      { key },
    );
    expect(list.body.data.map((item) => item.id)).toEqual([endpoint.id]);
    expect(JSON.stringify(list.body)).not.toContain(endpoint.secret!);

    const patched = await system.call<{ data: Endpoint }>(
      'PATCH',
      `/api/v1/webhook-endpoints/${endpoint.id}`,
      { key, body: { event_types: ['consent.revoked'] } },
    );
    expect([patched.status, patched.body.data.event_types]).toEqual([200, ['consent.revoked']]);

    const rolled = await system.call<{ data: { secret: string } }>(
      'POST',
      `/api/v1/webhook-endpoints/${endpoint.id}/roll-secret`,
      { key },
    );
    expect(rolled.status).toBe(200);
    expect(rolled.body.data.secret).toMatch(/^whsec_/);
    expect(rolled.body.data.secret).not.toBe(endpoint.secret);

    expect((await system.call('DELETE', `/api/v1/webhook-endpoints/${endpoint.id}`, { key })).status).toBe(
      204,
    );
    expect((await system.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}`, { key })).status).toBe(404);
  });

  it('answers 422 for a URL that is not https or names a private address, and 404 across workspaces', async () => {
    const a = await system.tenant('business');
    const b = await system.tenant('business');
    const noRealHost = [
      'https:///hook',
      'https://',
      'https://:443/x',
      'https://@hooks.example.invalid/x',
      'https://hooks.example.invalid@evil.example.invalid/x',
      'https://hooks.example.in\tvalid/x',
      ' https://hooks.example.invalid/x',
      `https://hooks.example.invalid/${'x'.repeat(2048)}`,
    ];
    for (const url of ['http://hooks.example.invalid/x', 'https://10.0.0.1/x', 'not a url', ...noRealHost]) {
      const answer = await createEndpoint(a.key, { url });
      expect([url, answer.status, (answer.body as unknown as Errors).errors[0]!.source?.pointer]).toEqual([
        url,
        422,
        '/data/attributes/url',
      ]);
    }
    const own = (await createEndpoint(a.key)).body.data;
    for (const url of noRealHost) {
      const answer = await system.call('PATCH', `/api/v1/webhook-endpoints/${own.id}`, {
        key: a.key,
        body: { url },
      });
      expect([url, answer.status, (answer.body as unknown as Errors).errors[0]!.source?.pointer]).toEqual([
        url,
        422,
        '/data/attributes/url',
      ]);
    }
    for (const [method, path] of [
      ['GET', `/api/v1/webhook-endpoints/${own.id}`],
      ['PATCH', `/api/v1/webhook-endpoints/${own.id}`],
      ['DELETE', `/api/v1/webhook-endpoints/${own.id}`],
      ['GET', `/api/v1/webhook-endpoints/${own.id}/deliveries`],
      ['POST', `/api/v1/webhook-endpoints/${own.id}/test`],
      ['GET', '/api/v1/webhook-endpoints/not-a-uuid'],
    ] as const) {
      const answer = await system.call('' + method, path, {
        key: b.key,
        ...(method === 'PATCH' ? { body: { enabled: false } } : {}),
      });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
    }
  });

  it('turns a consent change recorded through POST /api/v1/events into a delivery listed with its attempts', async () => {
    const { key } = await system.tenant('business');
    const endpoint = (await createEndpoint(key)).body.data;
    const event = await system.call('POST', '/api/v1/events', {
      key,
      body: {
        name: 'newsletter.subscribed',
        contact: { email: 'ann@example.com', marketing_consent: { email: true } },
      },
    });
    expect(event.status).toBe(202);
    type Deliveries = {
      data: Array<{
        id: string;
        event_type: string;
        status: string;
        attempts: Array<{ attempt: number; error: string | null }>;
      }>;
    };
    let deliveries: Deliveries['data'] = [];
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline) {
      deliveries = (
        await system.call<Deliveries>('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key })
      ).body.data;
      if (deliveries[0] && deliveries[0].attempts.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      event_type: 'consent.granted',
      attempts: [expect.objectContaining({ attempt: 1 })],
    });
    // The host does not resolve: the attempt failed and says why.
    expect(deliveries[0]!.attempts[0]!.error).toEqual(expect.any(String));
  });

  it('records a test delivery and a redelivery as 202', async () => {
    const { key } = await system.tenant('agency');
    const endpoint = (await createEndpoint(key)).body.data;
    const test = await system.call<{ data: { id: string } }>(
      'POST',
      `/api/v1/webhook-endpoints/${endpoint.id}/test`,
      { key },
    );
    expect(test.status).toBe(202);
    const redeliver = await system.call(
      'POST',
      `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${test.body.data.id}/redeliver`,
      { key },
    );
    expect(redeliver.status).toBe(202);
  });

  it('sends every delivery as the OpenAPI document describes its kind, signed as its description says', async () => {
    const { key } = await system.tenant('business');
    const created = await system.call<{ data: Endpoint }>('POST', '/api/v1/webhook-endpoints', {
      key,
      body: { url: receiver.url('/documented'), event_types: ['consent.granted', 'consent.revoked'] },
    });
    expect(created.status).toBe(201);
    const endpoint = created.body.data;
    receiver.trust(endpoint.secret!);
    const arrived = (kind: string, count = 1) =>
      eventually(
        `${count} ${kind} deliveries`,
        async () => {
          const found = receiver.received.filter((delivery) => delivery.headers['service-event'] === kind);
          return found.length >= count ? found : undefined;
        },
        30000,
      );

    // consent.granted and consent.revoked through events, then a test delivery.
    const event = await system.call('POST', '/api/v1/events', {
      key,
      body: { name: 'signed.up', contact: { email: 'eve@example.com', marketing_consent: { email: true } } },
    });
    expect(event.status).toBe(202);
    await arrived('consent.granted');
    const revoked = await system.call('POST', '/api/v1/events', {
      key,
      body: { name: 'opted.out', contact: { email: 'eve@example.com', marketing_consent: { email: false } } },
    });
    expect(revoked.status).toBe(202);
    await arrived('consent.revoked');
    const test = await system.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/test`, { key });
    expect(test.status).toBe(202);
    const [tested] = await arrived('webhook.test');
    expect(
      verifyWebhookSignature(tested!.headers['service-signature'] as string, tested!.body, [
        endpoint.secret!,
      ]),
    ).toBe(true);

    // After a roll, each delivery carries a second v1 made with the previous secret: either verifies.
    const rolled = await system.call<{ data: { secret: string } }>(
      'POST',
      `/api/v1/webhook-endpoints/${endpoint.id}/roll-secret`,
      { key },
    );
    expect(rolled.status).toBe(200);
    receiver.trust(rolled.body.data.secret);
    const again = await system.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/test`, { key });
    expect(again.status).toBe(202);
    const [, afterRoll] = await arrived('webhook.test', 2);
    const signature = afterRoll!.headers['service-signature'] as string;
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    for (const secret of [rolled.body.data.secret, endpoint.secret!]) {
      expect(verifyWebhookSignature(signature, afterRoll!.body, [secret])).toBe(true);
    }
    expect(verifyWebhookSignature(signature, afterRoll!.body, ['whsec_not-the-secret'])).toBe(false);
    expect(
      verifyWebhookSignature(signature, afterRoll!.body, [rolled.body.data.secret], Date.now() + 301_000),
    ).toBe(false);

    // Every delivery that arrived (the kinds above) is as the document's `webhooks` describe it.
    expect(receiver.received.length).toBeGreaterThanOrEqual(4);
    expect(receiver.problems).toEqual([]);
  });
});
