import type { IncomingHttpHeaders } from 'node:http';

import { createCmsClient, verifyWebhook, WebhookVerificationError, type CmsClient } from '@cms/sdk';
import { eventually } from '@cms/testing';

import { System } from '../src';
import { ApiContract } from '../src/contract';
import { HttpsReceiver } from '../src/https-receiver';

/** A delivery as the customer's endpoint receives it: headers and the raw bytes of the body. */
interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The customer's HTTPS endpoint: keeps every delivery as received (nothing verified), answers 200. */
class RawReceiver extends HttpsReceiver {
  readonly deliveries: Delivery[] = [];

  constructor() {
    super('sdk-hooks', (headers, body) => this.deliveries.push({ headers, body }));
  }
}

let system: System;
let receiver: RawReceiver;
let cms: CmsClient;

beforeAll(async () => {
  receiver = await new RawReceiver().start();
  system = await System.start(['gateway', 'contacts', 'webhook-dispatch'], {
    WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
    NODE_EXTRA_CA_CERTS: receiver.certificates.caFile,
    WEBHOOK_POLL_MS: '50',
  });
  const { key } = await system.tenant('business');
  cms = createCmsClient({ baseUrl: system.url, apiKey: key });
  // Every answer the SDK gets is held to the document too, as `system.call` holds its own.
  const document = (await (await fetch(`${system.url}/openapi.json`)).json()) as ConstructorParameters<
    typeof ApiContract
  >[0];
  const contract = new ApiContract(document, system.namespace);
  cms.use({
    async onResponse({ request, response }) {
      const text = await response.clone().text();
      let body: unknown = undefined;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      const problems = contract.check(request.method, new URL(request.url).pathname, {
        status: response.status,
        headers: response.headers,
        body,
      });
      if (problems.length > 0) {
        throw new Error(`the answer differs from the OpenAPI document:\n  ${problems.join('\n  ')}`);
      }
      return undefined;
    },
  });
}, 120000);

afterAll(async () => {
  await system?.stop();
  receiver?.stop();
});

describe('the typed client (@cms/sdk) against the real system', () => {
  it('creates a contact and reads it back', async () => {
    const created = await cms.POST('/api/v1/contacts/upsert', {
      body: { name: 'Ada Lovelace', email: 'ada@example.com', data: { plan: 'gold' } },
    });
    expect(created.response.status).toBe(201);
    const id = created.data!.data.id;

    const read = await cms.GET('/api/v1/contacts/{contact_id}', { params: { path: { contact_id: id } } });
    expect(read.response.status).toBe(200);
    expect(read.data!.data).toMatchObject({ id, name: 'Ada Lovelace', email: 'ada@example.com' });

    const missing = await cms.GET('/api/v1/contacts/{contact_id}', {
      params: { path: { contact_id: id + 1_000_000 } },
    });
    expect([missing.response.status, missing.error?.errors[0]?.title]).toEqual([404, 'Not Found']);
  });

  it("sends a test delivery that verifyWebhook accepts with the endpoint's secret, and refuses once tampered with", async () => {
    const endpoint = await cms.POST('/api/v1/webhook-endpoints', {
      body: { url: receiver.url('/hooks'), event_types: ['consent.granted'] },
    });
    expect(endpoint.response.status).toBe(201);
    const { id, secret } = endpoint.data!.data;

    const test = await cms.POST('/api/v1/webhook-endpoints/{id}/test', { params: { path: { id } } });
    expect(test.response.status).toBe(202);
    const delivery = await eventually('the test delivery', async () => receiver.deliveries[0]);

    const event = verifyWebhook({
      secret: secret!,
      header: delivery.headers['service-signature'],
      body: delivery.body,
    });
    expect(event).toMatchObject({ id: delivery.headers['service-delivery'], type: 'webhook.test' });

    const tampered = Buffer.from(
      delivery.body.toString('utf8').replace('"webhook.test"', '"consent.granted"'),
    );
    expect(tampered.equals(delivery.body)).toBe(false);
    const refusal = (body: Buffer, key: string) => {
      try {
        verifyWebhook({ secret: key, header: delivery.headers['service-signature'], body });
        return 'accepted';
      } catch (error) {
        return error instanceof WebhookVerificationError ? error.reason : String(error);
      }
    };
    expect(refusal(tampered, secret!)).toBe('signature_mismatch');
    expect(refusal(delivery.body, 'whsec_not_the_secret')).toBe('signature_mismatch');

    // After a roll the delivery carries a v1 for each secret: either verifies.
    const rolled = await cms.POST('/api/v1/webhook-endpoints/{id}/roll-secret', { params: { path: { id } } });
    expect(rolled.response.status).toBe(200);
    const redeliver = await cms.POST('/api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/redeliver', {
      params: { path: { id, delivery_id: event.id } },
    });
    expect(redeliver.response.status).toBe(202);
    const again = await eventually('the redelivery', async () => receiver.deliveries[1]);
    expect(String(again.headers['service-signature']).match(/v1=/g)).toHaveLength(2);
    for (const key of [rolled.data!.data.secret, secret!]) {
      expect(
        verifyWebhook({ secret: key, header: again.headers['service-signature'], body: again.body }).id,
      ).toBe(event.id);
    }
  });
});
