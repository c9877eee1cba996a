import { createKafka } from '@cms/kafka';
import { eventually } from '@cms/testing';
import type { Admin } from 'kafkajs';
import { Client } from 'pg';

import { System } from '../src';
import { dropLeftovers, replayInPlace, runOps, tablesOf, topicSize } from '../src/ops-replay';

/**
 * `ops replay webhook-dispatch`, run as an operator would, against the real gateway, contacts and
 * webhook-dispatch: the endpoints (the projection, switch-offs after 25 failures included) are rebuilt
 * row for row from the log, nothing is published or delivered again, and what the log does not hold
 * (deliveries, attempts, failure counts) is kept in place and carried over by a blue/green switch.
 */

interface Endpoint {
  id: string;
  enabled: boolean;
  disabled_reason: string | null;
  consecutive_failures: number;
}

interface Delivery {
  id: string;
  status: string;
  attempts: unknown[];
}

const FAILING_URL = 'https://hooks.example.invalid/cms';

let system: System;
let db: Client;
let admin: Admin;
let key: string;
/** Its deliveries fail (the host does not resolve): switched off after 25 of them. */
let failing: Endpoint;
let contactsMade = 0;

async function topicSizes(): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const topic of Object.values(system.topics)) sizes[topic] = await topicSize(admin, topic);
  return sizes;
}

async function createEndpoint(eventTypes: string[]): Promise<Endpoint> {
  const answer = await system.call<{ data: Endpoint }>('POST', '/api/v1/webhook-endpoints', {
    key,
    body: { url: FAILING_URL, event_types: eventTypes },
  });
  expect(answer.status).toBe(201);
  return answer.body.data;
}

async function endpoint(id: string): Promise<Endpoint> {
  const answer = await system.call<{ data: Endpoint }>('GET', `/api/v1/webhook-endpoints/${id}`, { key });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

async function deliveries(id: string): Promise<Delivery[]> {
  const answer = await system.call<{ data: Delivery[] }>(
    'GET',
    `/api/v1/webhook-endpoints/${id}/deliveries?per_page=100`,
    { key },
  );
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** New contacts with SMS consent: each is a consent.granted fact, a delivery to every subscribed endpoint. */
async function consents(count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    contactsMade += 1;
    const answer = await system.call('POST', '/api/v1/contacts/upsert', {
      key,
      body: {
        phone: `+1415555${String(contactsMade).padStart(4, '0')}`,
        name: `Contact ${contactsMade}`,
        marketing_consent: { sms: true },
      },
    });
    expect({ status: answer.status, body: answer.status === 201 ? {} : answer.body }).toEqual({
      status: 201,
      body: {},
    });
  }
}

/** Endpoints created, changed, rolled and deleted, a test delivery redelivered, a refusal. */
async function endpointWork(): Promise<void> {
  const other = await createEndpoint(['consent.revoked']);
  const patched = await system.call('PATCH', `/api/v1/webhook-endpoints/${other.id}`, {
    key,
    body: { description: 'orders' },
  });
  expect(patched.status).toBe(200);
  expect(
    (await system.call('POST', `/api/v1/webhook-endpoints/${other.id}/roll-secret`, { key })).status,
  ).toBe(200);
  const test = await system.call<{ data: { id: string } }>(
    'POST',
    `/api/v1/webhook-endpoints/${other.id}/test`,
    { key },
  );
  expect(test.status).toBe(202);
  const redelivered = await system.call(
    'POST',
    `/api/v1/webhook-endpoints/${other.id}/deliveries/${test.body.data.id}/redeliver`,
    { key },
  );
  expect(redelivered.status).toBe(202);
  const gone = await createEndpoint(['consent.granted']);
  expect((await system.call('DELETE', `/api/v1/webhook-endpoints/${gone.id}`, { key })).status).toBe(204);
  const refused = await system.call('PATCH', `/api/v1/webhook-endpoints/${gone.id}`, {
    key,
    body: { enabled: false },
  });
  expect(refused.status).toBe(404);
}

/** Until every delivery of the endpoint was made (the facts consumer caught up). */
async function deliveriesMade(id: string, count: number): Promise<void> {
  await eventually(
    `${count} deliveries to ${id}`,
    async () => (await deliveries(id)).length >= count,
    60000,
    200,
  );
}

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts', 'webhook-dispatch'], {
    WEBHOOK_RETRY_DELAYS: '0.05,0.05,0.05,0.05,0.05,0.05',
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_POLL_MS: '50',
    WEBHOOK_BREAKER_RESET_MS: '100',
    // The test polls the endpoint and its deliveries: a short window keeps it under the rate limit.
    RATE_LIMIT_WINDOW_SECONDS: '1',
  });
  db = new Client({ connectionString: system.stack.databaseUrl });
  await db.connect();
  admin = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-ops-webhooks' }).admin();
  await admin.connect();
  ({ key } = await system.tenant('business'));
  failing = await createEndpoint(['consent.granted']);
  await endpointWork();
  await consents(26);
  // The 25th failed delivery in a row switches the endpoint off, through the log.
  failing = await eventually(
    'the failing endpoint switched off',
    async () => {
      const now = await endpoint(failing.id);
      return now.enabled ? undefined : now;
    },
    120000,
    250,
  );
}, 240000);

afterAll(async () => {
  if (db && system) await dropLeftovers(db, system.schema('webhook-dispatch'));
  await db?.end();
  await admin?.disconnect();
  await system?.stop();
});

describe('ops replay webhook-dispatch --in-place', () => {
  it('rebuilds the endpoints row for row (the switch-off too), publishes nothing, and keeps the deliveries and counts', async () => {
    expect(failing).toMatchObject({ enabled: false, disabled_reason: 'failures' });
    expect(failing.consecutive_failures).toBeGreaterThanOrEqual(25);
    // The other consumers of the requests topic pass over the switch-off request: no dead letter.
    for (const service of ['gateway', 'contacts'] as const) {
      const dead = await db.query(
        `SELECT consumer, topic, reason, detail FROM "${system.schema(service)}".dead_letters`,
      );
      expect({ service, dead: dead.rows }).toEqual({ service, dead: [] });
    }
    const schema = system.schema('webhook-dispatch');
    await system.halt('webhook-dispatch');
    const before = await tablesOf(db, schema);
    expect(Object.keys(before).sort()).toEqual([
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_endpoint_failures',
      'webhook_endpoints',
    ]);
    expect(before.webhook_endpoints!.length).toBe(2);
    expect(before.webhook_deliveries!.length).toBeGreaterThanOrEqual(27);
    expect(before.webhook_attempts!.length).toBeGreaterThanOrEqual(25 * 7);
    expect(before.webhook_endpoint_failures).toEqual([
      { endpoint_id: failing.id, consecutive_failures: failing.consecutive_failures },
    ]);
    const sizes = await topicSizes();

    const report = await replayInPlace(system, 'webhook-dispatch', schema);
    expect(report).toEqual(
      expect.objectContaining({
        service: 'webhook-dispatch',
        mode: 'in-place',
        schema,
        records: sizes[system.topics.requests]! + sizes[system.topics.contacts]!,
      }),
    );

    expect(await tablesOf(db, schema)).toEqual(before);
    expect(await topicSizes()).toEqual(sizes);

    await system.resume('webhook-dispatch');
    // Switched on again by the customer: the count starts over and the held deliveries go out again.
    const on = await system.call<{ data: Endpoint }>('PATCH', `/api/v1/webhook-endpoints/${failing.id}`, {
      key,
      body: { enabled: true },
    });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ enabled: true, disabled_reason: null, consecutive_failures: 0 });
  });
});

describe('ops replay webhook-dispatch --blue-green', () => {
  it('builds beside the running service, carries the deliveries and counts over at the switch, and nothing is sent or published twice', async () => {
    const schema = system.schema('webhook-dispatch');
    const target = `${schema}_green`.slice(0, 63);
    let waiting = false;
    const run = runOps(
      system,
      'webhook-dispatch',
      ['replay', 'webhook-dispatch', '--blue-green', '--schema', schema, '--target-schema', target],
      (stderr) => {
        if (/Stop it to switch/.test(stderr)) waiting = true;
      },
    );
    await eventually('the new schema caught up', async () => waiting, 60000, 100);
    // The live service keeps deciding requests, fanning facts out and delivering meanwhile.
    const made = (await deliveries(failing.id)).length;
    await endpointWork();
    await consents(3);
    await deliveriesMade(failing.id, made + 3);
    await eventually(
      'failures counted again',
      async () => (await endpoint(failing.id)).consecutive_failures > 0,
      60000,
      200,
    );
    await system.halt('webhook-dispatch');
    const live = await tablesOf(db, schema);
    expect(live.webhook_endpoints!.length).toBe(3);
    expect(live.webhook_endpoint_failures!.length).toBe(1);
    const sizes = await topicSizes();
    const result = await run.done;
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({
      code: 0,
      stderr: '',
    });
    const previous = /kept as (\S+);/.exec(result.stdout)?.[1];
    expect(previous).toBeDefined();
    expect(await tablesOf(db, previous!)).toEqual(live);
    expect(await tablesOf(db, schema)).toEqual(live);
    expect(await topicSizes()).toEqual(sizes);

    await system.resume('webhook-dispatch');
    const after = await endpoint(failing.id);
    const counted = live.webhook_endpoint_failures![0] as { consecutive_failures: number };
    expect(after.consecutive_failures).toBeGreaterThanOrEqual(counted.consecutive_failures);
    // Deliveries made by the rebuilt schema's service go on as before.
    const before = (await deliveries(failing.id)).length;
    await consents(1);
    await deliveriesMade(failing.id, before + 1);
  });
});
