import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';

import {
  decryptSecret,
  deterministicId,
  WEBHOOK_REQUEST_TYPES,
  type Envelope,
  type RequestAcceptedV1,
  type RequestRejectedV1,
  type WebhookDeliveryResource,
  type WebhookEndpointResource,
} from '@cms/contracts';
import { eventually } from '@cms/testing';
import pino from 'pino';

import { Receiver } from './receiver.fixture';
import { verifySignature } from './support/signature-verifier';
import { readTopic } from './support/topic-reader';
import { received, sleep } from './support/wait';
import { makeTestCertificates, type TestCertificates } from './tls.fixture';
import { DispatchHarness, workspaceId, type Outcome } from './webhook-dispatch.harness';

let tls: TestCertificates;
let harness: DispatchHarness;
let hooks: Receiver;
const logLines: string[] = [];
const secrets: string[] = [];

beforeAll(async () => {
  tls = makeTestCertificates();
  hooks = await Receiver.start(tls);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  harness = await DispatchHarness.start({
    tls,
    env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128', WEBHOOK_RETRY_DELAYS: '0.2,0.2,0.2,0.2,0.2,0.2' },
    logger: pino({ level: 'debug' }, sink),
  });
});

afterAll(async () => {
  await harness?.stop();
  await hooks?.close();
  tls?.remove();
});

type Page<T> = {
  data: T[];
  meta: { current_page: number; per_page: number; total: number; last_page: number };
};

function accepted(outcome: Outcome): RequestAcceptedV1 {
  expect(outcome.type).toBe('request.accepted');
  return outcome.data as RequestAcceptedV1;
}

function rejected(outcome: Outcome): RequestRejectedV1 {
  expect(outcome.type).toBe('request.rejected');
  return outcome.data as RequestRejectedV1;
}

async function endpoint(
  ws: number,
  url = hooks.url(),
): Promise<{ id: string; secret: string; resource: WebhookEndpointResource }> {
  const created = await harness.createEndpoint(ws, url);
  secrets.push(created.secret);
  return { ...created, resource: accepted(created.outcome).resource as unknown as WebhookEndpointResource };
}

describe('creating an endpoint', () => {
  it('answers 201 with the endpoint, without its secret, which rests only sealed with SECRETS_KEY', async () => {
    const ws = workspaceId();
    const created = await harness.createEndpoint(
      ws,
      hooks.url('/in'),
      ['consent.revoked', 'outcome.recorded'],
      'CRM sync',
    );
    secrets.push(created.secret);
    expect(accepted(created.outcome)).toEqual({
      status: 201,
      resource: {
        id: created.id,
        url: hooks.url('/in'),
        description: 'CRM sync',
        event_types: ['consent.revoked', 'outcome.recorded'],
        enabled: true,
        disabled_reason: null,
        consecutive_failures: 0,
        created_at: created.outcome.time,
        updated_at: created.outcome.time,
      },
    });
    expect(JSON.stringify(created.outcome)).not.toContain(created.secret);
    const [row] = await harness.sql<Record<string, unknown>>(
      'SELECT * FROM webhook_endpoints WHERE id = $1',
      [created.id],
    );
    expect(JSON.stringify(row)).not.toContain(created.secret);
    expect(decryptSecret(String(row!.secret_sealed), harness.secretsKey)).toBe(created.secret);
  });

  it('answers 422 pointing at url for a URL that is not https or names an address that is not public', async () => {
    const ws = workspaceId();
    for (const url of [
      'http://hooks.example.com/cms',
      'https://10.0.0.1/hooks',
      'https://user:pw@hooks.example.com/',
      'hooks',
    ]) {
      const outcome = await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointCreate, {
        endpoint_id: randomUUID(),
        url,
        event_types: ['consent.granted'],
        secret_sealed: 'v1.' + 'A'.repeat(60),
      });
      const answer = rejected(outcome);
      expect(answer.status).toBe(422);
      expect(answer.errors).toEqual([
        {
          status: '422',
          title: 'Validation Error',
          detail: expect.any(String),
          source: { pointer: '/data/attributes/url' },
        },
      ]);
    }
    expect((await harness.get<Page<unknown>>('webhook-endpoints', ws)).body.meta.total).toBe(0);
  });

  it('answers a record that can never be applied with a 500 carrying an error id, instead of leaving it unanswered', async () => {
    const outcome = await harness.request(workspaceId(), WEBHOOK_REQUEST_TYPES.endpointCreate, {
      endpoint_id: 'not-a-uuid',
      url: hooks.url(),
      event_types: ['consent.granted'],
      secret_sealed: 'v1.' + 'A'.repeat(60),
    });
    expect(rejected(outcome)).toEqual({
      status: 500,
      errors: [
        { status: '500', title: 'Internal Server Error', detail: expect.any(String), id: expect.any(String) },
      ],
    });
  });
});

describe('reading endpoints', () => {
  it('lists a workspace endpoints newest first, in pages, and shows one by id; never another workspace', async () => {
    const ws = workspaceId();
    const first = await endpoint(ws);
    const second = await endpoint(ws);
    const third = await endpoint(ws);
    const page = await harness.get<Page<WebhookEndpointResource>>('webhook-endpoints?per_page=2', ws);
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    expect(page.body.data.map((e) => e.id)).toEqual([third.id, second.id]);
    const next = await harness.get<Page<WebhookEndpointResource>>('webhook-endpoints?per_page=2&page=2', ws);
    expect(next.body.data.map((e) => e.id)).toEqual([first.id]);
    expect(JSON.stringify([page.body, next.body])).not.toMatch(/whsec_|secret/);

    const one = await harness.get<{ data: WebhookEndpointResource }>(`webhook-endpoints/${first.id}`, ws);
    expect(one.body.data).toEqual(first.resource);
    expect((await harness.get(`webhook-endpoints/${first.id}`, workspaceId())).status).toBe(404);
    expect((await harness.get(`webhook-endpoints/${first.id}/deliveries`, workspaceId())).status).toBe(404);
    expect((await harness.get('webhook-endpoints/not-a-uuid', ws)).status).toBe(404);
    expect((await harness.get('webhook-endpoints?per_page=101', ws)).status).toBe(422);
    expect((await fetch(`${harness.url}/internal/v1/webhook-endpoints`)).status).toBe(400);
  });
});

describe('changing an endpoint', () => {
  it('updates url, description and kinds, and switches it off and on by hand', async () => {
    const ws = workspaceId();
    const { id } = await endpoint(ws);
    const patched = accepted(
      await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointUpdate, {
        endpoint_id: id,
        url: hooks.url('/v2'),
        description: 'second',
        event_types: ['consent.granted'],
      }),
    );
    expect(patched.status).toBe(200);
    expect(patched.resource).toMatchObject({
      url: hooks.url('/v2'),
      description: 'second',
      event_types: ['consent.granted'],
    });

    const off = accepted(
      await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointUpdate, { endpoint_id: id, enabled: false }),
    );
    expect(off.resource).toMatchObject({ enabled: false, disabled_reason: 'manual' });
    const applied = harness.app.consumers['facts-consumer']!.stats.applied;
    const ignored = await harness.consent(ws, { status: 'granted' });
    await eventually(
      'the fact to be applied',
      async () => harness.app.consumers['facts-consumer']!.stats.applied > applied,
      10_000,
      20,
    );
    const on = accepted(
      await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointUpdate, { endpoint_id: id, enabled: true }),
    );
    expect(on.resource).toMatchObject({ enabled: true, disabled_reason: null, consecutive_failures: 0 });
    const delivered = await harness.consent(ws, { status: 'granted' });
    const [request] = await received(hooks, 1, deterministicId(delivered.id, id));
    expect(request!.path).toBe('/v2');
    expect(hooks.forDelivery(deterministicId(ignored.id, id))).toEqual([]);
    expect((await harness.deliveries(ws, id)).map((d) => d.id)).toEqual([deterministicId(delivered.id, id)]);
  });

  it('answers 404 for an endpoint of another workspace, whatever the operation', async () => {
    const { id } = await endpoint(workspaceId());
    const stranger = workspaceId();
    const requests: Array<[string, object]> = [
      [WEBHOOK_REQUEST_TYPES.endpointUpdate, { endpoint_id: id, enabled: false }],
      [WEBHOOK_REQUEST_TYPES.endpointDelete, { endpoint_id: id }],
      [WEBHOOK_REQUEST_TYPES.endpointRollSecret, { endpoint_id: id, secret_sealed: 'v1.' + 'A'.repeat(60) }],
      [WEBHOOK_REQUEST_TYPES.endpointTest, { endpoint_id: id, delivery_id: randomUUID() }],
      [WEBHOOK_REQUEST_TYPES.deliveryRedeliver, { endpoint_id: id, delivery_id: randomUUID() }],
    ];
    for (const [type, data] of requests) {
      const answer = rejected(await harness.request(stranger, type, data));
      expect(answer).toEqual({
        status: 404,
        errors: [{ status: '404', title: 'Not Found', detail: `Webhook endpoint ${id} was not found.` }],
      });
    }
  });

  it('deletes an endpoint with 204, and its deliveries with it', async () => {
    const ws = workspaceId();
    const { id } = await endpoint(ws);
    const fact = await harness.consent(ws, { status: 'revoked' });
    await received(hooks, 1, deterministicId(fact.id, id));
    expect(
      accepted(await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointDelete, { endpoint_id: id })),
    ).toEqual({ status: 204 });
    expect((await harness.get(`webhook-endpoints/${id}`, ws)).status).toBe(404);
    expect(await harness.sql('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1', [id])).toEqual([]);
    expect(
      rejected(await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointDelete, { endpoint_id: id })).status,
    ).toBe(404);
  });
});

describe('test deliveries and redeliveries', () => {
  it('sends a signed webhook.test delivery that never moves the failure count', async () => {
    const ws = workspaceId();
    const { id, secret } = await endpoint(ws);
    await harness.sql(
      'INSERT INTO webhook_endpoint_failures (endpoint_id, consecutive_failures) VALUES ($1, 3)',
      [id],
    );
    const deliveryId = randomUUID();
    const answer = accepted(
      await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointTest, {
        endpoint_id: id,
        delivery_id: deliveryId,
      }),
    );
    expect(answer).toMatchObject({
      status: 202,
      resource: { id: deliveryId, event_type: 'webhook.test', status: 'pending' },
    });
    const [request] = await received(hooks, 1, deliveryId);
    expect(request!.headers['service-event']).toBe('webhook.test');
    expect(
      verifySignature(
        String(request!.headers['service-signature']),
        request!.body,
        secret,
        Math.floor(Date.now() / 1000),
      ),
    ).toBe(true);
    expect(JSON.parse(request!.body)).toMatchObject({
      id: deliveryId,
      type: 'webhook.test',
      data: { endpoint_id: id },
    });
    await harness.delivery(ws, id, deliveryId, (d) => d.status === 'succeeded');
    expect((await harness.endpoint(ws, id)).consecutive_failures).toBe(3);

    hooks.behave(() => ({ status: 500 }));
    try {
      const failing = randomUUID();
      await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointTest, {
        endpoint_id: id,
        delivery_id: failing,
      });
      const failed = await harness.delivery(ws, id, failing, (d) => d.status === 'failed', 10_000);
      expect(failed.attempts).toHaveLength(7);
      expect((await harness.endpoint(ws, id)).consecutive_failures).toBe(3);
    } finally {
      hooks.behave(() => ({ status: 204 }));
    }
  });

  it('redelivers the same envelope with a fresh signature, continuing the attempt count, failed ones included', async () => {
    const ws = workspaceId();
    const failing = await Receiver.start(tls, () => ({ status: 500 }));
    try {
      const { id } = await endpoint(ws, failing.url());
      const fact = await harness.consent(ws, { status: 'granted' });
      const deliveryId = deterministicId(fact.id, id);
      await harness.delivery(ws, id, deliveryId, (d) => d.status === 'failed', 10_000);
      failing.behave(() => ({ status: 200 }));
      await sleep(1000);
      const answer = accepted(
        await harness.request(ws, WEBHOOK_REQUEST_TYPES.deliveryRedeliver, {
          endpoint_id: id,
          delivery_id: deliveryId,
        }),
      );
      expect(answer).toMatchObject({ status: 202, resource: { id: deliveryId, status: 'pending' } });
      const redelivered: WebhookDeliveryResource = await harness.delivery(
        ws,
        id,
        deliveryId,
        (d) => d.status === 'succeeded',
      );
      expect(redelivered.attempts.map((a) => [a.attempt, a.response_status])).toEqual([
        [1, 500],
        [2, 500],
        [3, 500],
        [4, 500],
        [5, 500],
        [6, 500],
        [7, 500],
        [8, 200],
      ]);
      const requests = failing.forDelivery(deliveryId);
      expect(requests).toHaveLength(8);
      expect(new Set(requests.map((r) => r.body)).size).toBe(1);
      expect(requests[7]!.headers['service-signature']).not.toBe(requests[6]!.headers['service-signature']);
      const missing = rejected(
        await harness.request(ws, WEBHOOK_REQUEST_TYPES.deliveryRedeliver, {
          endpoint_id: id,
          delivery_id: randomUUID(),
        }),
      );
      expect(missing.status).toBe(404);
    } finally {
      await failing.close();
    }
  });
});

describe('what leaves the service', () => {
  it('publishes the endpoint facts on cms.webhooks.v1, and no secret reaches a log line, an outcome or a fact', async () => {
    const ws = workspaceId();
    const { id } = await endpoint(ws);
    const rolled = await harness.rollSecret(ws, id);
    secrets.push(rolled.secret);
    await harness.request(ws, WEBHOOK_REQUEST_TYPES.endpointDelete, { endpoint_id: id });
    const facts = await readTopic(harness.kafka, harness.topics.webhooks, (values) =>
      values.some((value) => value.includes('webhook-endpoint.deleted') && value.includes(id)),
    );
    const mine = facts
      .map((value) => JSON.parse(value) as Envelope<{ endpoint_id: string }>)
      .filter((f) => f.data.endpoint_id === id);
    expect(mine.map((f) => f.type)).toEqual([
      'webhook-endpoint.created',
      'webhook-endpoint.secret-rolled',
      'webhook-endpoint.deleted',
    ]);
    const outcomes = await readTopic(harness.kafka, harness.topics.outcomes, (values) => values.length > 10);
    const everything = [...facts, ...outcomes, ...logLines].join('\n');
    expect(logLines.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(everything).not.toContain(secret);
    expect(everything).not.toContain('secret_sealed');
  });
});
