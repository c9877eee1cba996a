import { randomUUID } from 'node:crypto';

import { deterministicId } from '@cms/contracts';
import { eventually } from '@cms/testing';

import { DeliveryQueueRepository, type ClaimedDelivery } from '../src/dispatch/delivery-queue.repository';
import type { AttemptResult } from '../src/dispatch/webhook.sender';
import { Receiver } from './receiver.fixture';
import { makeTestCertificates, type TestCertificates } from './tls.fixture';
import { DispatchHarness, workspaceId } from './webhook-dispatch.harness';

/**
 * webhook-dispatch does its bookkeeping in batches: the facts of a fetch are fanned out together, and
 * the answers of attempts that come together are recorded in one transaction. What it decides must be
 * what one fact, or one answer, at a time would decide.
 */
let tls: TestCertificates;
let harness: DispatchHarness;
let receiver: Receiver;

beforeAll(async () => {
  tls = makeTestCertificates();
  harness = await DispatchHarness.start({
    tls,
    env: { WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8,::1/128', WEBHOOK_RETRY_DELAYS: '1,1,1,1,1,1' },
  });
  receiver = await Receiver.start(tls);
});

afterAll(async () => {
  await harness?.stop();
  await receiver?.close();
  tls?.remove();
});

describe('facts fanned out together', () => {
  it('make the deliveries each fact makes on its own: its workspace, its kind, endpoints made before it, once', async () => {
    const [ws1, ws2, ws3] = [workspaceId(), workspaceId(), workspaceId()];
    const before = new Date(Date.now() - 60_000).toISOString();
    const grants = await harness.createEndpoint(ws1, receiver.url(), ['consent.granted']);
    const both = await harness.createEndpoint(ws1, receiver.url(), ['consent.granted', 'consent.revoked']);
    const revokes = await harness.createEndpoint(ws2, receiver.url(), ['consent.revoked']);

    await harness.stopService();
    const granted1 = harness.consentFact(ws1, { status: 'granted' });
    const revoked1 = harness.consentFact(ws1, { status: 'revoked', channel: 'email' });
    const granted2 = harness.consentFact(ws2, { status: 'granted' });
    const revoked2 = harness.consentFact(ws2, { status: 'revoked' });
    const granted3 = harness.consentFact(ws3, { status: 'granted' });
    const older = harness.consentFact(ws1, { status: 'granted', time: before });
    // A backlog: the service reads them in one fetch when it starts again.
    await harness.publishFacts([granted1, revoked1, granted2, revoked2, granted3, older, granted1]);
    await harness.startService();

    await eventually(
      'the facts applied',
      async () => harness.app.consumers['facts-consumer']!.stats.applied >= 7,
      20_000,
    );
    const rows = await harness.sql<{ id: string; endpoint_id: string; event_type: string }>(
      'SELECT id, endpoint_id, event_type FROM webhook_deliveries WHERE workspace_id = ANY ($1::int[]) ORDER BY id',
      [[ws1, ws2, ws3]],
    );
    const expected = [
      { fact: granted1, endpoint: grants.id, type: 'consent.granted' },
      { fact: granted1, endpoint: both.id, type: 'consent.granted' },
      { fact: revoked1, endpoint: both.id, type: 'consent.revoked' },
      { fact: revoked2, endpoint: revokes.id, type: 'consent.revoked' },
    ].map(({ fact, endpoint, type }) => ({
      id: deterministicId(fact.id, endpoint),
      endpoint_id: endpoint,
      event_type: type,
    }));
    expect(rows).toEqual(expected.sort((a, b) => a.id.localeCompare(b.id)));
  });
});

describe('answers recorded together', () => {
  const FAILED: AttemptResult = {
    ok: false,
    kind: 'refused',
    responseStatus: 500,
    responseBody: 'down',
    durationMs: 3,
    error: 'answered 500',
    unreachable: false,
  };
  const SUCCEEDED: AttemptResult = {
    ok: true,
    kind: 'succeeded',
    responseStatus: 204,
    responseBody: '',
    durationMs: 2,
    error: null,
    unreachable: false,
  };

  /** A delivery on its last attempt, leased, not due: the running worker leaves it alone. */
  async function lastAttemptInFlight(ws: number, endpointId: string): Promise<ClaimedDelivery> {
    const id = randomUUID();
    const leaseToken = randomUUID();
    await harness.sql(
      `INSERT INTO webhook_deliveries (id, endpoint_id, workspace_id, event_type, body, counts_toward_switch_off,
         status, attempt_count, round_start, attempt_open, next_attempt_at, leased_until, lease_token,
         created_at, updated_at)
       VALUES ($1, $2, $3, 'consent.granted', '{}', true, 'pending', 7, 0, true, now() + interval '1 hour',
         now() + interval '1 hour', $4, now(), now())`,
      [id, endpointId, ws, leaseToken],
    );
    await harness.sql(
      `INSERT INTO webhook_attempts (delivery_id, attempt, at, error) VALUES ($1, 7, now(), 'open')`,
      [id],
    );
    return {
      id,
      endpointId,
      workspaceId: ws,
      eventType: 'consent.granted',
      body: '{}',
      countsTowardSwitchOff: true,
      attemptCount: 7,
      roundStart: 0,
      attemptOpen: true,
      leaseToken,
      url: receiver.url(),
      secretSealed: '',
      previousSecretSealed: null,
    };
  }

  async function failuresInARow(endpointId: string): Promise<number> {
    const rows = await harness.sql<{ consecutive_failures: number }>(
      'SELECT consecutive_failures FROM webhook_endpoint_failures WHERE endpoint_id = $1',
      [endpointId],
    );
    return rows[0]?.consecutive_failures ?? 0;
  }

  it('count failed deliveries in a row in the order the answers came', async () => {
    const ws = workspaceId();
    const { id: endpointId } = await harness.createEndpoint(ws, receiver.url());
    const queue = new DeliveryQueueRepository(harness.db, {
      retryDelaysSeconds: [1, 1, 1, 1, 1, 1],
      requestsTopic: harness.topics.requests,
    });
    await harness.sql(
      'INSERT INTO webhook_endpoint_failures (endpoint_id, consecutive_failures) VALUES ($1, 5)',
      [endpointId],
    );

    // A failure, then a success: the success starts the count over.
    const [failing, succeeding] = [
      await lastAttemptInFlight(ws, endpointId),
      await lastAttemptInFlight(ws, endpointId),
    ];
    const [failed, succeeded] = await Promise.all([
      queue.finishAttempt(failing, 7, FAILED),
      queue.finishAttempt(succeeding, 7, SUCCEEDED),
    ]);
    expect([failed?.status, succeeded?.status]).toEqual(['failed', 'succeeded']);
    expect(await failuresInARow(endpointId)).toBe(0);

    // A success, then a failure: one in a row.
    const [first, second] = [
      await lastAttemptInFlight(ws, endpointId),
      await lastAttemptInFlight(ws, endpointId),
    ];
    const answers = await Promise.all([
      queue.finishAttempt(first, 7, SUCCEEDED),
      queue.finishAttempt(second, 7, FAILED),
    ]);
    expect(answers.map((answer) => answer?.status)).toEqual(['succeeded', 'failed']);
    expect(await failuresInARow(endpointId)).toBe(1);

    const attempts = await harness.sql<{
      delivery_id: string;
      response_status: number;
      error: string | null;
    }>(
      'SELECT delivery_id, response_status, error FROM webhook_attempts WHERE delivery_id = ANY ($1::uuid[]) ORDER BY response_status',
      [[first.id, second.id]],
    );
    expect(attempts).toEqual([
      { delivery_id: first.id, response_status: 204, error: null },
      { delivery_id: second.id, response_status: 500, error: 'answered 500' },
    ]);
  });

  it('leave a delivery whose lease was lost as it is, and record the others', async () => {
    const ws = workspaceId();
    const { id: endpointId } = await harness.createEndpoint(ws, receiver.url());
    const queue = new DeliveryQueueRepository(harness.db, {
      retryDelaysSeconds: [1, 1, 1, 1, 1, 1],
      requestsTopic: harness.topics.requests,
    });
    const kept = await lastAttemptInFlight(ws, endpointId);
    const lost = await lastAttemptInFlight(ws, endpointId);
    await harness.sql('UPDATE webhook_deliveries SET lease_token = $2 WHERE id = $1', [
      lost.id,
      randomUUID(),
    ]);

    const answers = await Promise.all([
      queue.finishAttempt(kept, 7, SUCCEEDED),
      queue.finishAttempt(lost, 7, SUCCEEDED),
    ]);
    expect(answers).toEqual([{ status: 'succeeded' }, undefined]);
    const rows = await harness.sql<{ id: string; status: string }>(
      'SELECT id, status FROM webhook_deliveries WHERE id = ANY ($1::uuid[])',
      [[kept.id, lost.id]],
    );
    expect(new Map(rows.map((row) => [row.id, row.status]))).toEqual(
      new Map([
        [kept.id, 'succeeded'],
        [lost.id, 'pending'],
      ]),
    );
  });
});
