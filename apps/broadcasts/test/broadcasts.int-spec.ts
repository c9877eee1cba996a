import {
  BROADCASTS_FACT_TYPES,
  BROADCASTS_REQUEST_TYPES,
  MESSAGING_REQUEST_TYPES,
  OUTCOME_TYPES,
  SEGMENTS_REQUEST_TYPES,
  type Envelope,
  type MessageSendRequestedV1,
  type RequestAcceptedV1,
} from '@cms/contracts';
import { migrationDrift } from '@cms/persistence';
import type { RunningService } from '@cms/service-kit';
import { ServiceHarness, type OutcomeEnvelope } from '@cms/service-kit/testing';
import { eventually } from '@cms/testing';
import { DataSource } from 'typeorm';

import { BROADCASTS_SERVICE } from '../src/broadcasts.service';
import type { BroadcastsConfig } from '../src/config';
import { messageFact, snapshotFacts } from './broadcast-facts';

let harness: ServiceHarness<BroadcastsConfig>;
let service: RunningService;
let lastWorkspace = 0;
let lastNotification = 0;

const TEMPLATE_ID = 5;
const AUDIENCE_ID = 9;

beforeAll(async () => {
  harness = await ServiceHarness.start({
    definition: BROADCASTS_SERVICE,
    prefix: 'broadcasts',
    read: ['broadcasts', 'requests'],
    // The safety polls short, so a test never waits on a lost wake-up for long.
    env: { FANOUT_POLL_MS: '200', SCHEDULE_TIMER_POLL_MS: '200' },
  });
  service = await harness.startService();
});

afterAll(async () => {
  await harness?.stop();
});

/** What `probe` returns once its expectations hold (it is tried again while they throw). */
async function holds<T>(probe: () => T | Promise<T>): Promise<T> {
  return (await eventually('the expectations to hold', async () => ({ value: await probe() }))).value;
}

/** A workspace of its own for each test. */
function workspace(): number {
  lastWorkspace += 1;
  return lastWorkspace;
}

/** `notification.create.requested` as the gateway produces it (the definition read, the names looked up). */
async function createNotification(
  workspaceId: number,
  attributes: Record<string, unknown> = {},
): Promise<{ id: number; outcome: OutcomeEnvelope }> {
  const id = ++lastNotification;
  const outcome = await harness.request(BROADCASTS_REQUEST_TYPES.notificationCreate, workspaceId, {
    notification_id: id,
    definition: {
      name: `Spring sale ${id}`,
      template_id: TEMPLATE_ID,
      target_group_id: AUDIENCE_ID,
      variables: { code: 'SPRING' },
      route: null,
      schedule: null,
      schedule_timezone: 'UTC',
      enabled: true,
      purpose: 'marketing',
      throttle_per_minute: null,
      ...attributes,
    },
    template_name: 'promo',
    template_channel: 'sms',
    target_group_name: 'VIP',
  });
  return { id, outcome };
}

async function send(
  workspaceId: number,
  notificationId: number,
  test?: { contactId: number },
): Promise<OutcomeEnvelope> {
  return harness.request(BROADCASTS_REQUEST_TYPES.notificationSend, workspaceId, {
    notification_id: notificationId,
    test_mode: test !== undefined,
    ...(test ? { test_phone: '+14155550199', test_contact_id: test.contactId } : {}),
  });
}

function sendIdOf(outcome: OutcomeEnvelope): number {
  return ((outcome.data as RequestAcceptedV1).resource as { send_id: number }).send_id;
}

interface Item {
  id: number;
  [attribute: string]: unknown;
}

interface Send extends Item {
  status: string;
  audience_size: number | null;
  counts: Record<string, number>;
}

async function read<T = Item>(
  path: string,
  workspaceId: number,
): Promise<{ status: number; body: { data: T } }> {
  const response = await fetch(`${service.url}${path}`, {
    headers: { 'x-workspace-id': String(workspaceId) },
  });
  return { status: response.status, body: (await response.json()) as { data: T } };
}

/** A list's ids, in its order. */
async function idsOf(path: string, workspaceId: number): Promise<number[]> {
  return (await read<Item[]>(path, workspaceId)).body.data.map((item) => item.id);
}

async function sendResource(workspaceId: number, sendId: number): Promise<Send> {
  return (await read<Send>(`/internal/v1/notification-sends/${sendId}`, workspaceId)).body.data;
}

/** The message requests the fan-out appended for a send so far. */
function messageRequests(sendId: number): Array<Envelope<Record<string, unknown>>> {
  return harness
    .recordsOn(harness.topics.requests)
    .filter(
      (record) =>
        record.type === MESSAGING_REQUEST_TYPES.messageSend &&
        (record.data as unknown as MessageSendRequestedV1).campaign_id === sendId,
    );
}

describe('the process', () => {
  it('starts from main.ts, migrates, and answers /health, /ready and /metrics', async () => {
    const started = await harness.spawnService({
      schema: harness.newSchema(),
      env: { CONSUMER_NAME: 'broadcasts-process' },
    });
    try {
      expect((await fetch(`${started.url}/health`)).status).toBe(200);
      expect((await fetch(`${started.url}/ready`)).status).toBe(200);
      const metrics = await fetch(`${started.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('service="broadcasts"');
    } finally {
      await started.stop();
    }
  });
});

describe('notifications', () => {
  it('creates one with its defaults and names, publishes its fact, reads it back and filters the list', async () => {
    const ws = workspace();
    const { id, outcome } = await createNotification(ws);
    expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
    const { status, resource } = outcome.data as RequestAcceptedV1;
    expect(status).toBe(201);
    expect(resource).toEqual({
      id,
      name: `Spring sale ${id}`,
      template_id: TEMPLATE_ID,
      template_name: 'promo',
      target_group_id: AUDIENCE_ID,
      target_group: { id: AUDIENCE_ID, name: 'VIP' },
      variables: { code: 'SPRING' },
      route: null,
      schedule: null,
      schedule_timezone: 'UTC',
      next_run_at: null,
      enabled: true,
      purpose: 'marketing',
      throttle_per_minute: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    await harness.waitFor('the created fact', () =>
      harness
        .recordsOn(harness.topics.broadcasts)
        .find(
          (record) =>
            record.type === BROADCASTS_FACT_TYPES.notificationCreated && record.subject === String(id),
        ),
    );
    expect(await read(`/internal/v1/notifications/${id}`, ws)).toEqual({
      status: 200,
      body: { data: resource },
    });
    expect((await read(`/internal/v1/notifications/${id}`, workspace())).status).toBe(404);

    const other = await createNotification(ws, { name: 'Autumn', enabled: false });
    const list = (query: string): Promise<number[]> => idsOf(`/internal/v1/notifications?${query}`, ws);
    expect(await list('')).toEqual([id, other.id]);
    expect(await list('filter[enabled]=false')).toEqual([other.id]);
    expect(await list('filter[search]=SPRING')).toEqual([id]);
    expect(await list('filter[search]=PROM')).toEqual([id, other.id]);
    expect(await list('filter[target_group.name]=VIP')).toEqual([id, other.id]);
    expect(await list(`filter[target_group_id]=${AUDIENCE_ID + 1}`)).toEqual([]);
    expect(await list('filter[name]=Autumn')).toEqual([other.id]);
    expect((await read('/internal/v1/notifications?filter[colour]=red', ws)).status).toBe(422);
    // The template and the audience are in use.
    expect(await idsOf(`/internal/v1/templates/${TEMPLATE_ID}/notifications`, ws)).toEqual([id, other.id]);
    expect(await idsOf(`/internal/v1/audiences/${AUDIENCE_ID}/notifications`, ws)).toEqual([id, other.id]);
  });

  it('refuses a schedule in the past at its pointer, and changes only what a PATCH sends', async () => {
    const ws = workspace();
    const refused = await createNotification(ws, { schedule: '2020-01-01T00:00:00Z' });
    expect(refused.outcome.data).toMatchObject({
      status: 422,
      errors: [{ source: { pointer: '/data/attributes/schedule' } }],
    });
    const { id } = await createNotification(ws);
    const changed = await harness.request(BROADCASTS_REQUEST_TYPES.notificationUpdate, ws, {
      notification_id: id,
      changes: { schedule: '0 9 * * 1', schedule_timezone: 'Europe/Berlin' },
    });
    const resource = (changed.data as RequestAcceptedV1).resource as Record<string, unknown>;
    expect(resource).toMatchObject({
      schedule: '0 9 * * 1',
      schedule_timezone: 'Europe/Berlin',
      name: `Spring sale ${id}`,
    });
    // Mondays at 09:00 in Berlin: 07:00 or 08:00 UTC.
    expect(new Date(resource['next_run_at'] as string).getUTCDay()).toBe(1);
    const disabled = await harness.request(BROADCASTS_REQUEST_TYPES.notificationUpdate, ws, {
      notification_id: id,
      changes: { enabled: false },
    });
    expect((disabled.data as RequestAcceptedV1).resource).toMatchObject({
      enabled: false,
      next_run_at: null,
    });
  });

  it('starts a send at its scheduled time, once', async () => {
    const ws = workspace();
    const { id } = await createNotification(ws, { schedule: new Date(Date.now() + 1500).toISOString() });
    const sends = await holds(async () => {
      const list = await read<Item[]>(`/internal/v1/notifications/${id}/sends`, ws);
      expect(list.body.data).toHaveLength(1);
      return list.body.data;
    });
    expect(sends[0]).toMatchObject({ notification_id: id, status: 'preparing', test_mode: false });
    expect((await read(`/internal/v1/notifications/${id}`, ws)).body.data.next_run_at).toBeNull();
  });
});

describe('sends', () => {
  it('takes the audience once, asks messaging for one message a member, counts them and completes', async () => {
    const ws = workspace();
    const { id } = await createNotification(ws);
    const accepted = await send(ws, id);
    expect(accepted.data).toMatchObject({
      status: 202,
      resource: { notification_id: id, status: 'queued', test_mode: false },
    });
    const sendId = sendIdOf(accepted);
    const snapshot = await harness.waitFor('the snapshot request', () =>
      harness
        .recordsOn(harness.topics.requests)
        .find(
          (record) =>
            record.type === SEGMENTS_REQUEST_TYPES.audienceSnapshot && record.subject === String(sendId),
        ),
    );
    expect(snapshot.data).toEqual({ snapshot_id: sendId, audience_id: AUDIENCE_ID, channel: 'sms' });
    expect(await sendResource(ws, sendId)).toMatchObject({ status: 'preparing', audience_size: null });

    await harness.publish(
      harness.topics.segments,
      snapshotFacts(ws, sendId, AUDIENCE_ID, [101, 102, 103], { deduplicated: 1 }),
    );
    const requests = await holds(() => {
      const made = messageRequests(sendId);
      expect(made).toHaveLength(3);
      return made;
    });
    expect(
      requests.map((record) => (record.data as unknown as MessageSendRequestedV1).contact_id).sort(),
    ).toEqual([101, 102, 103]);
    expect(requests[0]!.data).toEqual({
      contact_id: expect.any(Number),
      route: [{ channel: 'sms', template_id: TEMPLATE_ID }],
      variables: { code: 'SPRING' },
      purpose: 'marketing',
      campaign_id: sendId,
      test: false,
    });
    expect(await sendResource(ws, sendId)).toMatchObject({
      status: 'sending',
      audience_size: 4,
      deduplicated: 1,
    });

    await harness.publish(harness.topics.messaging, [
      messageFact(ws, { id: 'msg_a', sendId, contactId: 101, status: 'queued' }),
      messageFact(ws, { id: 'msg_b', sendId, contactId: 102, status: 'queued' }),
      messageFact(ws, { id: 'msg_c', sendId, contactId: 103, status: 'queued' }),
      messageFact(ws, { id: 'msg_a', sendId, contactId: 101, status: 'sent' }),
      messageFact(ws, { id: 'msg_b', sendId, contactId: 102, status: 'sent' }),
      messageFact(ws, { id: 'msg_a', sendId, contactId: 101, status: 'delivered' }),
      messageFact(ws, {
        id: 'msg_c',
        sendId,
        contactId: 103,
        status: 'failed',
        failureCode: 'invalid_recipient',
      }),
    ]);
    const done = await holds(async () => {
      const resource = await sendResource(ws, sendId);
      expect(resource.status).toBe('completed');
      return resource;
    });
    expect(done).toMatchObject({
      counts: { queued: 0, sent: 2, delivered: 1, read: 0, failed: 1, suppressed: 0 },
      failures_by_code: { invalid_recipient: 1 },
      finished_at: expect.any(String),
    });
    // A fact after completion still counts (a read receipt), and nothing is asked for again.
    await harness.publish(harness.topics.messaging, [
      messageFact(ws, { id: 'msg_a', sendId, contactId: 101, status: 'read' }),
    ]);
    await holds(async () => expect((await sendResource(ws, sendId)).counts.read).toBe(1));
    expect(messageRequests(sendId)).toHaveLength(3);
  });

  it('counts the member once when its route falls back to another message', async () => {
    const ws = workspace();
    const { id } = await createNotification(ws);
    const sendId = sendIdOf(await send(ws, id));
    await harness.publish(harness.topics.segments, snapshotFacts(ws, sendId, AUDIENCE_ID, [201]));
    await holds(() => expect(messageRequests(sendId)).toHaveLength(1));
    await harness.publish(harness.topics.messaging, [
      messageFact(ws, { id: 'msg_sms', sendId, contactId: 201, status: 'queued' }),
      messageFact(ws, {
        id: 'msg_sms',
        sendId,
        contactId: 201,
        status: 'failed',
        failureCode: 'undelivered',
      }),
      messageFact(ws, { id: 'msg_email', sendId, contactId: 201, status: 'queued', fallbackFrom: 'msg_sms' }),
    ]);
    await holds(async () =>
      expect(await sendResource(ws, sendId)).toMatchObject({
        status: 'sending',
        counts: { queued: 1, sent: 0, failed: 0 },
        failures_by_code: {},
      }),
    );
    await harness.publish(harness.topics.messaging, [
      messageFact(ws, { id: 'msg_email', sendId, contactId: 201, status: 'sent' }),
    ]);
    await holds(async () =>
      expect(await sendResource(ws, sendId)).toMatchObject({
        status: 'completed',
        counts: { queued: 0, sent: 1 },
      }),
    );
  });

  it('pauses, resumes and cancels from the statuses §13 allows, 409 otherwise; a cancelled send asks for nobody', async () => {
    const ws = workspace();
    const { id } = await createNotification(ws);
    const sendId = sendIdOf(await send(ws, id));
    const act = (action: 'sendPause' | 'sendResume' | 'sendCancel') =>
      harness.request(BROADCASTS_REQUEST_TYPES[action], ws, { send_id: sendId });
    expect((await act('sendPause')).data).toMatchObject({
      status: 200,
      resource: { id: sendId, status: 'paused' },
    });
    expect((await act('sendPause')).data).toMatchObject({ status: 409 });
    expect((await act('sendResume')).data).toMatchObject({ status: 200, resource: { status: 'preparing' } });
    expect((await act('sendCancel')).data).toMatchObject({
      status: 200,
      resource: { status: 'cancelled', finished_at: expect.any(String) },
    });
    expect((await act('sendResume')).data).toMatchObject({ status: 409 });
    expect((await act('sendCancel')).data).toMatchObject({ status: 409 });
    // Another workspace's send is not found.
    const foreign = await harness.request(BROADCASTS_REQUEST_TYPES.sendPause, workspace(), {
      send_id: sendId,
    });
    expect(foreign.data).toMatchObject({ status: 404 });

    await harness.publish(harness.topics.segments, snapshotFacts(ws, sendId, AUDIENCE_ID, [301, 302]));
    await holds(async () => expect((await sendResource(ws, sendId)).audience_size).toBe(2));
    expect((await sendResource(ws, sendId)).status).toBe('cancelled');
    expect(messageRequests(sendId)).toHaveLength(0);
  });

  it('a paused send makes no message until it is resumed', async () => {
    const ws = workspace();
    const { id } = await createNotification(ws);
    const sendId = sendIdOf(await send(ws, id));
    await harness.request(BROADCASTS_REQUEST_TYPES.sendPause, ws, { send_id: sendId });
    await harness.publish(harness.topics.segments, snapshotFacts(ws, sendId, AUDIENCE_ID, [401, 402]));
    await holds(async () =>
      expect(await sendResource(ws, sendId)).toMatchObject({ status: 'paused', audience_size: 2 }),
    );
    expect(messageRequests(sendId)).toHaveLength(0);
    const resumed = await harness.request(BROADCASTS_REQUEST_TYPES.sendResume, ws, { send_id: sendId });
    expect(resumed.data).toMatchObject({ status: 200, resource: { status: 'sending' } });
    await holds(() => expect(messageRequests(sendId)).toHaveLength(2));
  });

  it('keeps throttle_per_minute: one second’s share, then the next a share later', async () => {
    const ws = workspace();
    // 60 a minute: one message a second.
    const { id } = await createNotification(ws, { throttle_per_minute: 60 });
    const sendId = sendIdOf(await send(ws, id));
    const members = Array.from({ length: 50 }, (_, index) => 501 + index);
    await harness.publish(harness.topics.segments, snapshotFacts(ws, sendId, AUDIENCE_ID, members));
    await holds(() => expect(messageRequests(sendId).length).toBeGreaterThanOrEqual(2));
    const times = messageRequests(sendId).map((record) => Date.parse(record.time));
    // Each batch is stamped with the database's time when it was made: a second apart at least.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(1000);
  });

  it('sends a test message to the test contact, transactional and marked test, whatever `enabled` says', async () => {
    const ws = workspace();
    const { id } = await createNotification(ws, { enabled: false });
    const refused = await send(ws, id);
    expect(refused.data).toMatchObject({
      status: 422,
      errors: [{ source: { pointer: '/data/attributes/notification_id' } }],
    });
    const accepted = await send(ws, id, { contactId: 777 });
    expect(accepted.data).toMatchObject({ status: 202, resource: { test_mode: true, status: 'queued' } });
    const sendId = sendIdOf(accepted);
    const [request] = await holds(() => {
      const made = messageRequests(sendId);
      expect(made).toHaveLength(1);
      return made;
    });
    expect(request!.data).toMatchObject({
      contact_id: 777,
      purpose: 'transactional',
      test: true,
      campaign_id: sendId,
    });
    expect(await sendResource(ws, sendId)).toMatchObject({
      test_mode: true,
      audience_size: 1,
      status: 'sending',
    });
    const unknown = await send(ws, 999_999);
    expect(unknown.data).toMatchObject({
      status: 422,
      errors: [{ source: { pointer: '/data/attributes/notification_id' } }],
    });
  });

  it('fails a send whose audience no longer exists, and completes one with nobody to message', async () => {
    const ws = workspace();
    const { id } = await createNotification(ws);
    const missing = sendIdOf(await send(ws, id));
    const empty = sendIdOf(await send(ws, id));
    await harness.publish(harness.topics.segments, [
      ...snapshotFacts(ws, missing, AUDIENCE_ID, [], { found: false }),
      ...snapshotFacts(ws, empty, AUDIENCE_ID, []),
    ]);
    await holds(async () => {
      expect(await sendResource(ws, missing)).toMatchObject({ status: 'failed', audience_size: 0 });
      expect(await sendResource(ws, empty)).toMatchObject({ status: 'completed', audience_size: 0 });
    });
    // Each change of status is a fact of the topic.
    const statuses = (sendId: number): unknown[] =>
      harness
        .recordsOn(harness.topics.broadcasts)
        .filter(
          (record) =>
            record.type === BROADCASTS_FACT_TYPES.sendStatusChanged && record.subject === String(sendId),
        )
        .map((record) => record.data['status']);
    await holds(() => expect([statuses(missing), statuses(empty)]).toEqual([['failed'], ['completed']]));
    // Newest first.
    expect(await idsOf(`/internal/v1/notifications/${id}/sends`, ws)).toEqual([empty, missing]);
  });

  it('deleting a notification cancels its unfinished sends and frees its template and audience', async () => {
    const ws = workspace();
    const { id } = await createNotification(ws);
    const sendId = sendIdOf(await send(ws, id));
    const deleted = await harness.request(BROADCASTS_REQUEST_TYPES.notificationDelete, ws, {
      notification_id: id,
    });
    expect(deleted.data).toMatchObject({ status: 204 });
    expect(await sendResource(ws, sendId)).toMatchObject({ status: 'cancelled' });
    expect(await idsOf(`/internal/v1/templates/${TEMPLATE_ID}/notifications`, ws)).toEqual([]);
    expect((await read(`/internal/v1/notifications/${id}`, ws)).status).toBe(404);
  });
});

describe('rebuilding from the log', () => {
  it('makes the same rows in a new schema, as `ops replay` does', async () => {
    const live = await harness.projectionRows();
    expect(Object.values(live).every((rows) => rows.length > 0)).toBe(true);
    expect(await harness.projectionRows(await harness.rebuild())).toEqual(live);
  });

  it('has migrations that match the entities (no drift)', async () => {
    expect(await migrationDrift(service.app.get(DataSource))).toEqual([]);
  });
});
