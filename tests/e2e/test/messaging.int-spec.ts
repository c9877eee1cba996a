import { createHmac } from 'node:crypto';

import { createKafka } from '@cms/kafka';
import { eventually } from '@cms/testing';
import { Client } from 'pg';
import { replayInPlace, tablesOf, topicSize } from '../src/ops-replay';

import { startMessagingScenario, type Hook, type MessagingScenario, type System } from '../src';

/**
 * Messages end to end through the real gateway, contacts, messaging and webhook-dispatch, on sandbox
 * channels: what a customer building against the sandbox sees, from POST /api/v1/messages to the
 * signed message.* webhooks at their receiver.
 */

interface Message {
  id: string;
  status: string;
  channel: string;
  channel_id: number;
  recipient: string | null;
  body: string | null;
  fallback_from: string | null;
  failure: { code: string; reason: string; fix: string } | null;
  suppression: { reason: string; detail: string } | null;
  history: Array<{ status: string; at: string; source: string }>;
}

type Errors = { errors: Array<{ status: string; detail: string; source?: { pointer: string } }> };

let scenario: MessagingScenario;
let system: System;
let key: string;
let hooks: Hook[];
let create: MessagingScenario['create'];
let sms: number;
let email: number;
let smsTemplate: number;
let emailTemplate: number;

beforeAll(async () => {
  scenario = await startMessagingScenario('messaging-e2e', [
    'message.sent',
    'message.delivered',
    'message.read',
    'message.failed',
    'message.suppressed',
  ]);
  ({ system, key, create } = scenario);
  hooks = scenario.receiver.hooks;
  sms = await create('/api/v1/channels', { type: 'sms', name: 'Sandbox SMS', provider: 'sandbox' });
  email = await create('/api/v1/channels', { type: 'email', name: 'Sandbox email', provider: 'sandbox' });
  smsTemplate = await create('/api/v1/templates', {
    name: 'code',
    channel: 'sms',
    body: 'Hi {{ contact.name }}, your code is {{ vars.code }}',
  });
  emailTemplate = await create('/api/v1/templates', {
    name: 'code by email',
    channel: 'email',
    subject: 'Your code',
    body: 'Your code is {{ vars.code | default: "none" }}',
  });
}, 120000);

afterAll(async () => {
  await scenario?.stop();
});

async function contact(body: Record<string, unknown>): Promise<number> {
  const answer = await system.call<{ data: { id: number } }>('POST', '/api/v1/contacts/upsert', {
    key,
    body,
  });
  expect({ status: answer.status, body: answer.status < 300 ? {} : answer.body }).toEqual({
    status: answer.status < 300 ? answer.status : 201,
    body: {},
  });
  return answer.body.data.id;
}

async function send(body: Record<string, unknown>): Promise<Message> {
  const answer = await system.call<{ data: Message }>('POST', '/api/v1/messages', { key, body });
  expect(answer.status).toBe(202);
  return answer.body.data;
}

async function message(id: string): Promise<Message> {
  const answer = await system.call<{ data: Message }>('GET', `/api/v1/messages/${id}`, { key });
  expect(answer.status).toBe(200);
  return answer.body.data;
}

function hooksOf(id: string): Hook[] {
  return hooks.filter((hook) => hook.data.id === id);
}

/** The first webhook received that `matches`, once one is. */
function hookWhere(what: string, matches: (hook: Hook) => boolean): Promise<Hook> {
  return eventually(what, () => Promise.resolve(hooks.find(matches)), 20000);
}

describe('messages through sandbox channels', () => {
  it('sends, delivers and reads a message, each webhook once and in order with the specification data', async () => {
    const contactId = await contact({ phone: '+14155550005', name: 'Ada', email: 'ada@example.com' });
    const queued = await send({
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
      variables: { code: '4711' },
    });
    expect(queued).toMatchObject({ status: 'queued', channel: 'sms', channel_id: sms });
    expect(queued.id).toMatch(/^msg_[0-9a-f]{32}$/);

    await hookWhere('message.read', (hook) => hook.data.id === queued.id && hook.type === 'message.read');
    // Given a moment for anything that should not come (a second webhook of a stage).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(hooksOf(queued.id).map((hook) => hook.type)).toEqual([
      'message.sent',
      'message.delivered',
      'message.read',
    ]);
    const read = hooksOf(queued.id)[2]!;
    expect(read.data).toMatchObject({
      id: queued.id,
      status: 'read',
      channel: 'sms',
      recipient: '+14155550005',
      template: 'code',
      workflow: null,
      campaign_id: null,
      bot: null,
      fallback_from: null,
      contact: { id: contactId, name: 'Ada', phone: '+14155550005', email: 'ada@example.com' },
    });
    for (const stage of ['sent_at', 'delivered_at', 'read_at'])
      expect(read.data[stage]).toEqual(expect.any(String));

    const stored = await message(queued.id);
    expect(stored).toMatchObject({
      status: 'read',
      body: 'Hi Ada, your code is 4711',
      bot: null,
      purpose: 'transactional',
    });
    expect(stored.history.map((entry) => entry.status)).toEqual(['queued', 'sent', 'delivered', 'read']);
  });

  it('falls back to the next step when the first fails for the recipient, with fallback_from', async () => {
    const contactId = await contact({ phone: '+14155550001', name: 'Bo', email: 'bo@example.com' });
    const first = await send({
      contact_id: contactId,
      route: [
        { channel_id: sms, template_id: smsTemplate },
        { channel: 'email', template_id: emailTemplate },
      ],
      variables: { code: '1' },
    });
    const failed = await hookWhere(
      'message.failed',
      (hook) => hook.data.id === first.id && hook.type === 'message.failed',
    );
    expect(failed.data.failure).toMatchObject({ code: 'invalid_recipient', reason: expect.any(String) });
    const next = await hookWhere('the fallback', (hook) => hook.data.fallback_from === first.id);
    expect(next.data).toMatchObject({ channel: 'email', recipient: 'bo@example.com' });
    expect((await message(next.data.id as string)).channel_id).toBe(email);
  });

  it('suppresses a marketing message without consent and says why', async () => {
    const contactId = await contact({ phone: '+14155550123', name: 'Cy', marketing_consent: { sms: false } });
    const queued = await send({
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
      variables: { code: '2' },
      purpose: 'marketing',
    });
    const suppressed = await hookWhere(
      'message.suppressed',
      (hook) => hook.data.id === queued.id && hook.type === 'message.suppressed',
    );
    expect(suppressed.data.status).toBe('suppressed');
    expect((await message(queued.id)).suppression).toMatchObject({ reason: 'no_consent' });
  });

  it('answers 422 with a pointer for an unknown contact, channel or template, and sends nothing', async () => {
    const contactId = await contact({ phone: '+14155550124', name: 'Dee' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { contact_id: 999999999, route: [{ channel: 'sms', template_id: smsTemplate }] },
        '/data/attributes/contact_id',
      ],
      [
        { contact_id: contactId, route: [{ channel_id: 999999999, template_id: smsTemplate }] },
        '/data/attributes/route/0/channel_id',
      ],
      [
        { contact_id: contactId, route: [{ channel: 'whatsapp', template_id: smsTemplate }] },
        '/data/attributes/route/0/channel',
      ],
      [
        { contact_id: contactId, route: [{ channel: 'email', template_id: smsTemplate }] },
        '/data/attributes/route/0/template_id',
      ],
    ];
    for (const [body, pointer] of cases) {
      const answer = await system.call<Errors>('POST', '/api/v1/messages', { key, body });
      expect([pointer, answer.status, answer.body.errors[0]!.source?.pointer]).toEqual([
        pointer,
        422,
        pointer,
      ]);
    }
    const list = await system.call<{ data: Message[] }>(
      'GET',
      `/api/v1/messages?filter[contact_id]=${contactId}`,
      {
        key,
      },
    );
    expect([list.status, list.body.data]).toEqual([200, []]);
  });

  it("answers 422 at each field only a service sends: a bot's `text` and `bot`, and a step without a template", async () => {
    const contactId = await contact({ phone: '+14155550125', name: 'Eve' });
    const answer = await system.call<Errors>('POST', '/api/v1/messages', {
      key,
      body: {
        contact_id: contactId,
        route: [{ channel_id: sms }],
        text: 'Sent as written',
        bot: { id: 1, name: 'Concierge', conversation_id: 1 },
      },
    });
    expect(answer.status).toBe(422);
    // One error a rule the field fails: the pointers, each once.
    const pointers = new Set(answer.body.errors.map((error) => error.source?.pointer));
    expect([...pointers].sort()).toEqual([
      '/data/attributes/bot',
      '/data/attributes/route/0/template_id',
      '/data/attributes/text',
    ]);
    const list = await system.call<{ data: Message[] }>(
      'GET',
      `/api/v1/messages?filter[contact_id]=${contactId}`,
      {
        key,
      },
    );
    expect([list.status, list.body.data]).toEqual([200, []]);
  });
});

describe('ops replay messaging --in-place', () => {
  it('rebuilds every message, channel and template row for row, and sends and publishes nothing again', async () => {
    const db = new Client({ connectionString: system.stack.databaseUrl });
    await db.connect();
    const admin = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-ops-messaging' }).admin();
    await admin.connect();
    try {
      const schema = system.schema('messaging');
      // Settled: every send attempted and every sandbox receipt reported (no job or timer left).
      await eventually(
        'the sends and receipts settled',
        async () => {
          const tables = await tablesOf(db, schema);
          return tables.messaging_send_jobs!.length === 0 && tables.messaging_timers!.length === 0;
        },
        30000,
        200,
      );
      await system.halt('messaging');
      const before = await tablesOf(db, schema);
      expect(before.messages!.length).toBeGreaterThanOrEqual(4);
      const sizes: Record<string, number> = {};
      for (const topic of Object.values(system.topics)) sizes[topic] = await topicSize(admin, topic);
      const hooksBefore = hooks.length;

      const report = await replayInPlace(system, 'messaging', schema);
      expect(report).toEqual(expect.objectContaining({ service: 'messaging', mode: 'in-place', schema }));
      expect(await tablesOf(db, schema)).toEqual(before);
      for (const topic of Object.values(system.topics)) {
        expect([topic, await topicSize(admin, topic)]).toEqual([topic, sizes[topic]]);
      }

      await system.resume('messaging');
      const contactId = await contact({ phone: '+14155550321', name: 'After' });
      const queued = await send({
        contact_id: contactId,
        route: [{ channel: 'sms', template_id: smsTemplate }],
        variables: { code: '3' },
      });
      await hookWhere(
        'the first send after the replay',
        (hook) => hook.data.id === queued.id && hook.type === 'message.delivered',
      );
      // Nothing that was sent before the replay was announced again.
      expect(hooks.slice(hooksBefore).every((hook) => hook.data.id === queued.id)).toBe(true);
    } finally {
      await admin.disconnect();
      await db.end();
    }
  });
});

describe('provider callbacks through the public edge', () => {
  it("takes a browser's push subscription on a browser_push channel, once per endpoint, and refuses it elsewhere", async () => {
    const push = await create('/api/v1/channels', {
      type: 'browser_push',
      name: 'Push',
      provider: 'sandbox',
    });
    const subscription = {
      endpoint: 'https://push.example.test/sub/e2e',
      keys: {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
    };
    type Subscribed = { data: { subscriber_id: string; endpoint: string; created_at: string } };
    const first = await system.call<Subscribed>('POST', `/api/v1/channels/${push}/push-subscriptions`, {
      key,
      body: subscription,
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual({
      subscriber_id: expect.stringMatching(/^ps_[0-9a-f]{24}$/),
      endpoint: subscription.endpoint,
      created_at: expect.any(String),
    });
    const again = await system.call<Subscribed>('POST', `/api/v1/channels/${push}/push-subscriptions`, {
      key,
      body: subscription,
    });
    expect(again.body.data).toEqual(first.body.data);
    const onSms = await system.call<Errors>('POST', `/api/v1/channels/${sms}/push-subscriptions`, {
      key,
      body: subscription,
    });
    expect(onSms.status).toBe(422);
    const internal = await system.call<Errors>('POST', `/api/v1/channels/${push}/push-subscriptions`, {
      key,
      body: { ...subscription, endpoint: 'https://169.254.169.254/sub' },
    });
    expect([internal.status, internal.body.errors[0]?.source?.pointer]).toEqual([
      422,
      '/data/attributes/endpoint',
    ]);
  });

  it("answers Meta's handshake for the channel's verify token only, and takes a signed notification", async () => {
    const channel = await system.call<{ data: { id: number; callback_url: string } }>(
      'POST',
      '/api/v1/channels',
      {
        key,
        body: {
          type: 'whatsapp',
          name: 'WhatsApp (Meta)',
          provider: 'meta',
          credentials: {
            access_token: 'EAAG-e2e',
            app_secret: 'e2e-app-secret',
            verify_token: 'e2e-verify',
            phone_number_id: '1055',
          },
        },
      },
    );
    expect(channel.status).toBe(201);
    const path = new URL(channel.body.data.callback_url).pathname;
    const handshake = (token: string) =>
      system.call<string>('GET', `${path}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=8817`);
    const answered = await handshake('e2e-verify');
    // The challenge comes back as sent, as text (the harness reads any body that parses as JSON).
    expect([answered.status, String(answered.body)]).toEqual([200, '8817']);
    expect((await handshake('guess')).status).toBe(403);

    const notification = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        { id: 'waba', changes: [{ field: 'messages', value: { metadata: { phone_number_id: '1055' } } }] },
      ],
    });
    const signed = (secret: string) => ({
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(notification).digest('hex')}`,
    });
    const taken = await system.call('POST', path, { body: notification, headers: signed('e2e-app-secret') });
    expect(taken.status).toBe(200);
    const forged = await system.call('POST', path, { body: notification, headers: signed('guessed') });
    expect(forged.status).toBe(401);
  });
});
