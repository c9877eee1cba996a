import { eventually } from '@cms/testing';
import { Client } from 'pg';

import { startMessagingScenario, type Hook, type MessagingScenario, type System } from '../src';
import { replayInPlace, tablesOf } from '../src/ops-replay';

/**
 * Notifications end to end (extensions §13): a notification to an audience of the segments service,
 * sent through the public API; the broadcasts service takes the audience once (a fact of the log),
 * asks messaging for one message a member on a sandbox channel (consent, failures and suppressions
 * as for any message), counts them and completes; a test send; pause, resume and cancel; the
 * template and the audience kept from deletion; `ops replay broadcasts` making the same rows.
 */

interface Send {
  id: number;
  notification_id: number;
  status: string;
  test_mode: boolean;
  audience_size: number | null;
  deduplicated: number;
  counts: Record<string, number>;
  failures_by_code: Record<string, number>;
}

interface Message {
  id: string;
  contact_id: number;
  campaign_id: number | null;
  test: boolean;
  status: string;
  suppression: { reason: string } | null;
}

let scenario: MessagingScenario;
let system: System;
let key: string;
let hooks: Hook[];
let create: MessagingScenario['create'];
let template: number;
let audience: number;

function call<T = unknown>(method: string, path: string, body?: unknown) {
  return system.call<T>(method, path, { key, ...(body === undefined ? {} : { body }) });
}

async function contact(body: Record<string, unknown>): Promise<number> {
  const answer = await call<{ data: { id: number } }>('POST', '/api/v1/contacts/upsert', body);
  if (answer.status !== 200 && answer.status !== 201) throw new Error(`upsert answered ${answer.status}`);
  return answer.body.data.id;
}

async function sendOf(id: number): Promise<Send> {
  const answer = await call<{ data: Send }>('GET', `/api/v1/notification-sends/${id}`);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

function sendWhere(id: number, what: string, holds: (send: Send) => boolean): Promise<Send> {
  return eventually(
    what,
    async () => {
      const send = await sendOf(id);
      return holds(send) ? send : undefined;
    },
    30_000,
    200,
  );
}

beforeAll(async () => {
  scenario = await startMessagingScenario('notifications-e2e', ['message.sent'], {}, [
    'segments',
    'broadcasts',
    'automations',
  ]);
  ({ system, key, create } = scenario);
  hooks = scenario.receiver.hooks;
  await create('/api/v1/channels', { type: 'sms', name: 'Sandbox SMS', provider: 'sandbox' });
  template = await create('/api/v1/templates', {
    name: 'spring',
    channel: 'sms',
    body: 'Hi {{ contact.name }}, {{ vars.code }} takes 20% off.',
  });
  const tag = await create('/api/v1/tags', { name: 'spring' });
  // The sandbox decides by the last four digits: 0001 fails, 0009 is only sent, others are delivered.
  const members = [
    { name: 'Ada', phone: '+14155550101', marketing_consent: { sms: true } },
    { name: 'Bob', phone: '+14155550001', marketing_consent: { sms: true } },
    { name: 'Cy', phone: '+14155550009', marketing_consent: { sms: true } },
    { name: 'Di', phone: '+14155550102' },
  ];
  for (const member of members) {
    const id = await contact(member);
    expect((await call('POST', '/api/v1/tags/attach', { contact_id: id, tag_ids: [tag] })).status).toBe(200);
  }
  audience = await create('/api/v1/audiences', {
    name: 'Spring list',
    filter_criteria: [{ field: 'tags', operator: 'has', value: tag }],
  });
  await eventually(
    'the audience counting its four members',
    async () =>
      (await call<{ data: { size: number } }>('GET', `/api/v1/audiences/${audience}`)).body.data.size === 4 ||
      undefined,
    20_000,
  );
}, 180_000);

afterAll(async () => {
  await scenario?.stop();
});

describe('a notification sent to its audience', () => {
  let notification: number;
  let slow: number;
  let sendId: number;

  it('is created with its names and defaults, listed by the specification’s filters and changed by PATCH', async () => {
    const created = await call<{ data: Record<string, unknown> }>('POST', '/api/v1/notifications', {
      name: 'Spring sale',
      template_id: template,
      target_group_id: audience,
      variables: { code: 'SPRING20' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Spring sale',
      template_name: 'spring',
      target_group: { id: audience, name: 'Spring list' },
      schedule: null,
      schedule_timezone: 'UTC',
      next_run_at: null,
      enabled: true,
      purpose: 'marketing',
      throttle_per_minute: null,
    });
    notification = created.body.data['id'] as number;
    const listed = async (query: string) =>
      (await call<{ data: Array<{ id: number }> }>('GET', `/api/v1/notifications?${query}`)).body.data.map(
        (item) => item.id,
      );
    expect(await listed('filter[search]=SPRING')).toEqual([notification]);
    expect(await listed('filter[target_group.name]=Spring%20list')).toEqual([notification]);
    expect(await listed('filter[enabled]=false')).toEqual([]);
    const missing = await call<{ errors: Array<{ source: { pointer: string } }> }>(
      'POST',
      '/api/v1/notifications',
      {
        name: 'Nowhere',
        template_id: template,
        target_group_id: 999_999,
        schedule: 'every day',
      },
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((error) => error.source.pointer)).toEqual(
      expect.arrayContaining(['/data/attributes/schedule']),
    );
    const renamed = await call<{ data: { name: string } }>('PATCH', `/api/v1/notifications/${notification}`, {
      name: 'Spring sale 2026',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.name).toBe('Spring sale 2026');
  });

  it('sends one message a member through messaging, counts them by how far each got, and completes', async () => {
    const accepted = await call<{ data: { send_id: number; notification_id: number; status: string } }>(
      'POST',
      '/api/v1/notifications/send',
      { notification_id: notification, notification_audience: 'ignored' },
    );
    expect(accepted.status).toBe(202);
    expect(accepted.body.data).toMatchObject({
      notification_id: notification,
      status: 'queued',
      test_mode: false,
    });
    sendId = accepted.body.data.send_id;
    const done = await sendWhere(sendId, 'the send completed', (send) => send.status === 'completed');
    expect(done).toMatchObject({
      audience_size: 4,
      deduplicated: 0,
      counts: { queued: 0, sent: 2, failed: 1, suppressed: 1 },
      failures_by_code: { invalid_recipient: 1 },
    });
    await sendWhere(sendId, 'the delivery counted', (send) => send.counts['delivered'] === 1);
    const messages = await call<{ data: Message[] }>('GET', `/api/v1/messages?filter[campaign_id]=${sendId}`);
    expect(messages.body.data).toHaveLength(4);
    expect(messages.body.data.every((message) => message.campaign_id === sendId && !message.test)).toBe(true);
    expect(messages.body.data.filter((message) => message.suppression?.reason === 'no_consent')).toHaveLength(
      1,
    );
    await eventually(
      'the message.sent webhooks naming the send',
      () =>
        Promise.resolve(
          hooks.filter((hook) => hook.type === 'message.sent' && hook.data['campaign_id'] === sendId)
            .length === 2 || undefined,
        ),
      20_000,
    );
    const sends = await call<{ data: Send[] }>('GET', `/api/v1/notifications/${notification}/sends`);
    expect(sends.body.data.map((send) => send.id)).toEqual([sendId]);
  });

  it('sends a test to one phone, making its contact, marked test and counted for no other send', async () => {
    const accepted = await call<{ data: { send_id: number; test_mode: boolean } }>(
      'POST',
      '/api/v1/notifications/batch-send',
      {
        notification_id: notification,
        test_mode: true,
        test_phone: '+14155550177',
        notification_template: null,
      },
    );
    expect(accepted.status).toBe(202);
    expect(accepted.body.data.test_mode).toBe(true);
    const testSend = await sendWhere(
      accepted.body.data.send_id,
      'the test send completed',
      (send) => send.status === 'completed',
    );
    expect(testSend).toMatchObject({ test_mode: true, audience_size: 1, counts: { sent: 1 } });
    const messages = await call<{ data: Message[] }>(
      'GET',
      `/api/v1/messages?filter[campaign_id]=${accepted.body.data.send_id}`,
    );
    expect(messages.body.data).toHaveLength(1);
    expect(messages.body.data[0]).toMatchObject({ test: true });
    expect((await sendOf(sendId)).counts['sent']).toBe(2);
    const bad = await call<{ errors: Array<{ source: { pointer: string } }> }>(
      'POST',
      '/api/v1/notifications/send',
      {
        notification_id: notification,
        test_mode: true,
      },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]!.source.pointer).toBe('/data/attributes/test_phone');
  });

  it('pauses, resumes and cancels a throttled send, 409 where its status does not allow it', async () => {
    slow = await create('/api/v1/notifications', {
      name: 'Trickle',
      template_id: template,
      target_group_id: audience,
      throttle_per_minute: 1,
    });
    const accepted = await call<{ data: { send_id: number } }>('POST', '/api/v1/notifications/send', {
      notification_id: slow,
    });
    const id = accepted.body.data.send_id;
    const action = (name: string) => call<{ data: Send }>('POST', `/api/v1/notification-sends/${id}/${name}`);
    const paused = await action('pause');
    expect(paused.status).toBe(200);
    expect(paused.body.data.status).toBe('paused');
    expect((await action('pause')).status).toBe(409);
    expect((await action('resume')).status).toBe(200);
    const cancelled = await action('cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
    expect((await action('resume')).status).toBe(409);
    // One a minute: at most the first member was messaged before the cancel, and none after it.
    const made = (await sendOf(id)).counts;
    expect(made['queued']! + made['sent']! + made['failed']! + made['suppressed']!).toBeLessThanOrEqual(1);
  });

  it('keeps its template and audience from deletion until it is deleted', async () => {
    expect((await call('DELETE', `/api/v1/templates/${template}`)).status).toBe(422);
    expect((await call('DELETE', `/api/v1/audiences/${audience}`)).status).toBe(409);
    for (const id of [notification, slow]) {
      expect((await call('DELETE', `/api/v1/notifications/${id}`)).status).toBe(204);
    }
    expect((await call('GET', `/api/v1/notifications/${notification}`)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/audiences/${audience}`)).status).toBe(204);
  });
});

describe('ops replay broadcasts --in-place', () => {
  it('rebuilds notifications, sends, members and counts row for row, and asks for no message again', async () => {
    const db = new Client({ connectionString: system.stack.databaseUrl });
    await db.connect();
    try {
      const schema = system.schema('broadcasts');
      const messagesBefore = await call<{ meta: { total: number } }>('GET', '/api/v1/messages');
      await system.halt('broadcasts');
      const before = await tablesOf(db, schema);
      expect(before['send_members']!.length).toBeGreaterThanOrEqual(5);
      await replayInPlace(system, 'broadcasts', schema);
      expect(await tablesOf(db, schema)).toEqual(before);
      await system.resume('broadcasts');
      const messagesAfter = await call<{ meta: { total: number } }>('GET', '/api/v1/messages');
      expect(messagesAfter.body.meta.total).toBe(messagesBefore.body.meta.total);
    } finally {
      await db.end();
    }
  });
});
