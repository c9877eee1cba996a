import { eventually, startFakeChatCompletions, type FakeChatCompletions } from '@cms/testing';
import { commitSignalChannel } from '@cms/kafka';
import { Client } from 'pg';

import { startMessagingScenario, type Hook, type MessagingScenario, type System } from '../src';
import { replayInPlace, tablesOf } from '../src/ops-replay';

/**
 * Bots end to end (extensions §12, "Bots"): inbound messages on sandbox channels start and move
 * conversations in the automations service, which answers through messaging (`bot` on the message and
 * its webhooks), stores answers and tags through the contacts service, asks a model (a local fake of
 * the chat completions API) in AI mode, and expires quiet conversations on a durable timer.
 */

interface Conversation {
  id: number;
  bot_id: number;
  contact_id: number;
  channel_id: number;
  status: string;
  end_reason: string | null;
  current_step: string | null;
  messages: Array<{ direction: string; text: string | null; message_id: string | null; at: string }>;
}

interface Message {
  id: string;
  direction: string;
  body: string | null;
  template: unknown;
  bot: { id: number; name: string; conversation_id: number } | null;
}

let scenario: MessagingScenario;
let system: System;
let key: string;
let hooks: Hook[];
let model: FakeChatCompletions;
let sms: number;
let tag: number;
let greeting: number;

beforeAll(async () => {
  model = await startFakeChatCompletions({
    apiKey: 'sk-bots',
    models: ['bots-model'],
    reply: (request) => `Echo: ${String(request.messages.at(-1)?.content ?? '')}`,
  });
  scenario = await startMessagingScenario(
    'bots-e2e',
    ['message.sent'],
    {
      AI_BASE_URL: model.baseUrl,
      AI_API_KEY: 'sk-bots',
      AI_MODEL: 'bots-model',
      BOT_CONVERSATION_TIMEOUT: 'PT15S',
    },
    ['automations', 'segments'],
  );
  ({ system, key } = scenario);
  hooks = scenario.receiver.hooks;
  sms = await create('/api/v1/channels', { type: 'sms', name: 'Bot SMS', provider: 'sandbox' });
  tag = await create('/api/v1/tags', { name: 'signed-up' });
  greeting = await create('/api/v1/templates', {
    name: 'greeting',
    channel: 'sms',
    body: 'Hello {{ contact.name }}',
  });
}, 120_000);

afterAll(async () => {
  await scenario?.stop();
  await model?.close();
});

/** A call as a client of the contract makes it: a 429 waits its Retry-After and is sent again. */
async function call<T = unknown>(method: string, path: string, body?: unknown) {
  for (;;) {
    const answer = await system.call<T>(method, path, { key, ...(body === undefined ? {} : { body }) });
    if (answer.status !== 429) return answer;
    const seconds = Number(answer.headers.get('retry-after') ?? 1);
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, seconds) * 1000));
  }
}

async function create(path: string, body: Record<string, unknown>): Promise<number> {
  const answer = await call<{ data: { id: number } }>('POST', path, body);
  if (answer.status !== 201)
    throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data.id;
}

/** A contact on the phone, known to messaging (which matches inbound senders) before it writes. */
async function contactWithPhone(phone: string): Promise<number> {
  const id = await create('/api/v1/contacts/upsert', { phone, name: 'Bo', marketing_consent: { sms: true } });
  // Messaging sends to a contact once its facts arrived: a greeting sent (not suppressed) proves they did.
  await eventually(
    'the contact known to messaging',
    async () => {
      const hello = await call<{ data: { id: string } }>('POST', '/api/v1/messages', {
        contact_id: id,
        route: [{ channel_id: sms, template_id: greeting }],
      });
      const message = await eventually(
        'the greeting decided',
        async () => {
          const answer = await call<{ data: { status: string } }>(
            'GET',
            `/api/v1/messages/${hello.body.data.id}`,
          );
          return answer.body.data.status === 'queued' ? undefined : answer.body.data;
        },
        30_000,
        500,
      );
      return message.status === 'sent' || message.status === 'delivered' ? true : undefined;
    },
    60_000,
    1000,
  );
  return id;
}

/** Polls through the API once a second: the key's 120 requests a minute are the suite's. */
function poll<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  return eventually(what, probe, 60_000, 1000);
}

function inbound(channel: number, from: string, text: string) {
  return call('POST', `/api/v1/channels/${channel}/sandbox/inbound`, { from, text });
}

async function conversationsOf(botId: number, query = ''): Promise<Conversation[]> {
  const answer = await call<{ data: Conversation[] }>('GET', `/api/v1/bots/${botId}/conversations${query}`);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

function conversationWhere(botId: number, what: string, holds: (conversation: Conversation) => boolean) {
  return poll(what, async () => (await conversationsOf(botId)).find(holds));
}

function outboundTexts(conversation: Conversation): Array<string | null> {
  return conversation.messages
    .filter((message) => message.direction === 'outbound')
    .map((message) => message.text);
}

describe('the bots API', () => {
  it('refuses what §12 refuses, each with its pointer, and changes nothing', async () => {
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ mode: 'flow', trigger_type: 'keyword' }, '/data/attributes/name'],
      [{ name: 'x', trigger_type: 'any_message', ai_instructions: 'hi' }, '/data/attributes/mode'],
      [{ name: 'x', mode: 'ai', ai_instructions: 'hi' }, '/data/attributes/trigger_type'],
      [{ name: 'x', mode: 'flow', trigger_type: 'any_message' }, '/data/attributes/flow_definition/steps'],
      [
        { name: 'x', mode: 'ai', trigger_type: 'keyword', ai_instructions: 'hi' },
        '/data/attributes/trigger_value',
      ],
      [
        {
          name: 'x',
          mode: 'flow',
          trigger_type: 'any_message',
          flow_definition: { steps: [{ id: 'a', type: 'sing' }] },
        },
        '/data/attributes/flow_definition/steps/0/type',
      ],
      [
        {
          name: 'x',
          mode: 'flow',
          trigger_type: 'any_message',
          flow_definition: { steps: [{ id: 'a', type: 'message', text: 'hi', next: 'nowhere' }] },
        },
        '/data/attributes/flow_definition/steps/0/next',
      ],
      [
        {
          name: 'x',
          mode: 'ai',
          trigger_type: 'schedule',
          ai_instructions: 'hi',
          target_group_id: 1,
          settings: { schedule_cron: 'every day', channel_id: sms },
        },
        '/data/attributes/settings/schedule_cron',
      ],
      [
        {
          name: 'x',
          mode: 'ai',
          trigger_type: 'any_message',
          ai_instructions: 'hi',
          settings: { schedule_cron: '0 9 * * *', schedule_timezone: 'Mars/Olympus' },
        },
        '/data/attributes/settings/schedule_timezone',
      ],
      [
        {
          name: 'x',
          mode: 'flow',
          trigger_type: 'any_message',
          flow_definition: { steps: [{ id: 't', type: 'tag', tag_id: 987654 }] },
        },
        '/data/attributes/flow_definition/steps/0/tag_id',
      ],
      [
        {
          name: 'x',
          mode: 'ai',
          trigger_type: 'any_message',
          ai_instructions: 'hi',
          target_group_id: 987654,
        },
        '/data/attributes/target_group_id',
      ],
    ];
    for (const [body, pointer] of refusals) {
      const answer = await call<{ errors: Array<{ source?: { pointer?: string } }> }>(
        'POST',
        '/api/v1/bots',
        body,
      );
      expect({ body, status: answer.status }).toEqual({ body, status: 422 });
      expect(answer.body.errors.map((error) => error.source?.pointer)).toContain(pointer);
    }
    const list = await call<{ meta: { total: number } }>('GET', '/api/v1/bots');
    expect(list.body.meta.total).toBe(0);
  });

  it('PATCH needs name, mode and trigger_type, keeps what it does not send, and is 404 across workspaces', async () => {
    const id = await create('/api/v1/bots', {
      name: 'Patchable',
      mode: 'ai',
      trigger_type: 'keyword',
      trigger_value: 'patch-me',
      ai_instructions: 'Be short.',
      ai_temperature: 0.2,
      enabled: false,
    });
    const missing = await call<{ errors: Array<{ source?: { pointer?: string } }> }>(
      'PATCH',
      `/api/v1/bots/${id}`,
      {
        name: 'Renamed',
      },
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors.map((error) => error.source?.pointer).sort()).toEqual([
      '/data/attributes/mode',
      '/data/attributes/trigger_type',
    ]);
    // As patched, a flow bot with no steps breaks the create rules.
    const broken = await call('PATCH', `/api/v1/bots/${id}`, {
      name: 'Renamed',
      mode: 'flow',
      trigger_type: 'keyword',
    });
    expect(broken.status).toBe(422);
    const patched = await call<{ data: Record<string, unknown> }>('PATCH', `/api/v1/bots/${id}`, {
      name: 'Renamed',
      mode: 'ai',
      trigger_type: 'keyword',
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({
      id,
      name: 'Renamed',
      trigger_value: 'patch-me',
      ai_instructions: 'Be short.',
      ai_temperature: 0.2,
      enabled: false,
    });
    const other = await system.tenant('pro');
    const foreign = await system.call('GET', `/api/v1/bots/${id}`, { key: other.key });
    expect(foreign.status).toBe(404);
    const foreignPatch = await system.call('PATCH', `/api/v1/bots/${id}`, {
      key: other.key,
      body: { name: 'Mine', mode: 'ai', trigger_type: 'any_message' },
    });
    expect(foreignPatch.status).toBe(404);
    expect((await call('DELETE', `/api/v1/bots/${id}`)).status).toBe(204);
    expect((await call('GET', `/api/v1/bots/${id}`)).status).toBe(404);
  });
});

/** The sign-up bot, and a conversation with it nobody answers: it expires while the other tests run. */
let signUpBot: number;
const QUIET_PHONE = '+14155550302';

describe('a keyword bot in flow mode', () => {
  let botId: number;
  const phone = '+14155550301';
  let contactId: number;

  beforeAll(async () => {
    contactId = await contactWithPhone(phone);
    botId = await create('/api/v1/bots', {
      name: 'Sign-up',
      mode: 'flow',
      trigger_type: 'keyword',
      trigger_value: 'menu',
      flow_definition: {
        steps: [
          { id: 'hello', type: 'message', text: 'Welcome to the club.' },
          {
            id: 'email',
            type: 'question',
            text: 'What is your email?',
            save_as: 'email',
            validate: 'email',
            retry_text: 'Please send an email address.',
          },
          {
            id: 'route',
            type: 'branch',
            on: 'answer',
            cases: [{ matches: '@vip\\.', next: 'vip' }],
            default: 'done',
          },
          { id: 'vip', type: 'tag', tag_id: tag },
          { id: 'done', type: 'message', text: 'You are in.' },
        ],
      },
    });
    signUpBot = botId;
    await contactWithPhone(QUIET_PHONE);
    await inbound(sms, QUIET_PHONE, 'Menu');
  });

  it('answers "menu" (any case, trimmed), retries a bad answer, stores a good one, tags and completes', async () => {
    expect((await inbound(sms, phone, '  MENU ')).status).toBe(202);
    const waiting = await conversationWhere(
      botId,
      'the conversation at the question',
      (c) => c.contact_id === contactId && c.current_step === 'email',
    );
    expect(waiting).toMatchObject({
      status: 'active',
      contact_id: contactId,
      channel_id: sms,
      end_reason: null,
    });
    expect(waiting.messages[0]).toMatchObject({ direction: 'inbound', text: '  MENU ' });
    expect(outboundTexts(waiting)).toEqual(['Welcome to the club.', 'What is your email?']);

    await inbound(sms, phone, 'not an email');
    await conversationWhere(botId, 'the retry', (c) =>
      outboundTexts(c).includes('Please send an email address.'),
    );
    await inbound(sms, phone, 'bo@vip.example.com');
    const done = await conversationWhere(
      botId,
      'the completed conversation',
      (c) => c.contact_id === contactId && c.status === 'completed',
    );
    expect(done).toMatchObject({ end_reason: 'completed', current_step: null });
    expect(outboundTexts(done).at(-1)).toBe('You are in.');

    const contact = await poll('the answer stored and the tag attached', async () => {
      const answer = await call<{ data: { data: Record<string, unknown>; tags: Array<{ id: number }> } }>(
        'GET',
        `/api/v1/contacts/${contactId}`,
      );
      const { data } = answer.body;
      return data.data['email'] === 'bo@vip.example.com' && data.tags.some((item) => item.id === tag)
        ? data
        : undefined;
    });
    expect(contact.data['email']).toBe('bo@vip.example.com');

    // The bot's messages carry `bot`, are sent as written, and their message.sent webhooks say so.
    const sent = done.messages.filter((message) => message.direction === 'outbound');
    const message = await call<{ data: Message }>('GET', `/api/v1/messages/${sent[0]!.message_id}`);
    expect(message.body.data).toMatchObject({
      body: 'Welcome to the club.',
      template: null,
      bot: { id: botId, name: 'Sign-up', conversation_id: done.id },
    });
    const hook = await eventually('the message.sent webhook of the bot message', async () =>
      hooks.find(
        (item) => item.type === 'message.sent' && (item.data as { id?: string }).id === sent[0]!.message_id,
      ),
    );
    expect(hook.data).toMatchObject({ bot: { id: botId, name: 'Sign-up', conversation_id: done.id } });
    const first = await call<{ data: Message }>('GET', `/api/v1/messages/${done.messages[0]!.message_id}`);
    expect(first.body.data).toMatchObject({ direction: 'inbound', bot: null });
    const single = await call<{ data: Conversation }>('GET', `/api/v1/bot-conversations/${done.id}`);
    expect(single.body.data).toEqual(done);
  });

  it('ends the conversation on an opt-out, which no bot answers', async () => {
    await inbound(sms, phone, 'menu');
    const active = await conversationWhere(
      botId,
      'a second conversation',
      (c) => c.contact_id === contactId && c.status === 'active',
    );
    await inbound(sms, phone, 'STOP');
    const ended = await conversationWhere(
      botId,
      'the opted-out conversation',
      (c) => c.id === active.id && c.status !== 'active',
    );
    expect(ended).toMatchObject({ status: 'completed', end_reason: 'opted_out' });
    expect(outboundTexts(ended)).toEqual(['Welcome to the club.', 'What is your email?']);
    await inbound(sms, phone, 'START');
  });
});

describe('an AI bot', () => {
  it('answers every message with the model, its instructions first and the conversation in order', async () => {
    const chat = await create('/api/v1/channels', { type: 'sms', name: 'AI SMS', provider: 'sandbox' });
    const phone = '+14155550311';
    await contactWithPhone(phone);
    const botId = await create('/api/v1/bots', {
      name: 'Helper',
      mode: 'ai',
      trigger_type: 'any_message',
      ai_instructions: 'You answer questions about orders.',
      ai_temperature: 0.3,
      ai_max_tokens: 120,
      settings: { channel_id: chat },
    });
    await inbound(chat, phone, 'Where is my order?');
    await conversationWhere(botId, 'the first answer', (c) =>
      outboundTexts(c).includes('Echo: Where is my order?'),
    );
    await inbound(chat, phone, 'Thanks');
    const conversation = await conversationWhere(botId, 'the second answer', (c) =>
      outboundTexts(c).includes('Echo: Thanks'),
    );
    expect(conversation.messages.map((message) => [message.direction, message.text])).toEqual([
      ['inbound', 'Where is my order?'],
      ['outbound', 'Echo: Where is my order?'],
      ['inbound', 'Thanks'],
      ['outbound', 'Echo: Thanks'],
    ]);
    const last = model.requests.at(-1)!;
    expect(last.headers['authorization']).toBe('Bearer sk-bots');
    expect(last.body).toMatchObject({
      model: 'bots-model',
      temperature: 0.3,
      max_tokens: 120,
      messages: [
        { role: 'system', content: 'You answer questions about orders.' },
        { role: 'user', content: 'Where is my order?' },
        { role: 'assistant', content: 'Echo: Where is my order?' },
        { role: 'user', content: 'Thanks' },
      ],
    });
    // Deleting the bot ends its active conversation.
    expect((await call('DELETE', `/api/v1/bots/${botId}`)).status).toBe(204);
    const ended = await poll('the conversation ended by the delete', async () => {
      const answer = await call<{ data: Conversation }>(
        'GET',
        `/api/v1/bot-conversations/${conversation.id}`,
      );
      return answer.body.data.status === 'completed' ? answer.body.data : undefined;
    });
    expect(ended.end_reason).toBe('bot_deleted');
  });
});

describe('bots limited to an audience', () => {
  let vipTag: number;
  let audience: number;
  let member: number;
  let outsider: number;
  const memberPhone = '+14155550321';
  const outsiderPhone = '+14155550322';

  beforeAll(async () => {
    vipTag = await create('/api/v1/tags', { name: 'vip' });
    audience = await create('/api/v1/audiences', {
      name: 'VIPs',
      filter_criteria: [{ field: 'tags', operator: 'has', value: vipTag }],
    });
    member = await contactWithPhone(memberPhone);
    outsider = await contactWithPhone(outsiderPhone);
    expect(
      (await call('POST', '/api/v1/tags/attach', { contact_id: member, tag_ids: [vipTag] })).status,
    ).toBe(200);
    await poll('the member counted by the audience', async () => {
      const preview = await call<{ data: { count: number } }>('POST', '/api/v1/audience/preview', {
        filter_criteria: [{ field: 'audience', operator: 'in', value: audience }],
      });
      return preview.body.data.count === 1 ? true : undefined;
    });
  });

  it('answers a keyword only from members, and starts an event bot only for members', async () => {
    const keywordBot = await create('/api/v1/bots', {
      name: 'VIP line',
      mode: 'flow',
      trigger_type: 'keyword',
      trigger_value: 'vip',
      target_group_id: audience,
      flow_definition: { steps: [{ id: 'hi', type: 'message', text: 'Welcome, VIP.' }] },
    });
    await inbound(sms, outsiderPhone, 'vip');
    await inbound(sms, memberPhone, 'vip');
    const answered = await conversationWhere(
      keywordBot,
      'the member answered',
      (c) => c.contact_id === member,
    );
    expect(answered).toMatchObject({ status: 'completed' });
    expect(outboundTexts(answered)).toEqual(['Welcome, VIP.']);

    const eventBot = await create('/api/v1/bots', {
      name: 'VIP welcome',
      mode: 'flow',
      trigger_type: 'event',
      trigger_value: 'vip.checked_in',
      target_group_id: audience,
      settings: { channel_id: sms },
      flow_definition: { steps: [{ id: 'hi', type: 'message', text: 'Your table is ready.' }] },
    });
    for (const phone of [outsiderPhone, memberPhone]) {
      const answer = await call('POST', '/api/v1/events', { name: 'vip.checked_in', contact: { phone } });
      expect([200, 202]).toContain(answer.status);
    }
    await conversationWhere(eventBot, 'the member started', (c) => c.contact_id === member);
    // Both inputs were decided in order, the member's after the outsider's: the outsider has none.
    expect((await conversationsOf(keywordBot)).map((c) => c.contact_id)).toEqual([member]);
    expect((await conversationsOf(eventBot)).map((c) => c.contact_id)).toEqual([member]);
    expect(outsider).not.toBe(member);
  });

  it("starts a schedule bot's conversations with the audience's members at its tick", async () => {
    const scheduleBot = await create('/api/v1/bots', {
      name: 'Monday check-in',
      mode: 'flow',
      trigger_type: 'schedule',
      target_group_id: audience,
      settings: { channel_id: sms, schedule_cron: '0 9 * * 1', schedule_timezone: 'Europe/Berlin' },
      flow_definition: { steps: [{ id: 'q', type: 'question', text: 'How was your week?' }] },
    });
    const db = new Client({ connectionString: system.stack.databaseUrl });
    await db.connect();
    try {
      const schema = system.schema('automations');
      const [timer] = (
        await db.query(
          `SELECT id, due_at FROM "${schema}".bot_timers WHERE kind = 'schedule' AND bot_id = $1`,
          [scheduleBot],
        )
      ).rows as Array<{ id: string; due_at: Date }>;
      // The next Monday at 09:00 in Berlin.
      expect(timer).toBeDefined();
      expect(timer!.due_at.getUTCDay()).toBe(1);
      expect([7, 8]).toContain(timer!.due_at.getUTCHours());
      // Due now: the tick comes as it would on Monday.
      await db.query(`UPDATE "${schema}".bot_timers SET due_at = now() WHERE id = $1`, [timer!.id]);
      await db.query('SELECT pg_notify($1, $2)', [commitSignalChannel('bot_timers', schema), '']);
      const started = await conversationWhere(
        scheduleBot,
        "the member's conversation",
        (c) => c.contact_id === member,
      );
      expect(started).toMatchObject({ status: 'active', current_step: 'q', channel_id: sms });
      expect((await conversationsOf(scheduleBot)).map((c) => c.contact_id)).toEqual([member]);
      // The next tick is armed.
      const next = (await db.query(`SELECT due_at FROM "${schema}".bot_timers WHERE id = $1`, [timer!.id]))
        .rows as Array<{ due_at: Date }>;
      expect(next[0]!.due_at.getTime()).toBeGreaterThan(Date.now());
    } finally {
      await db.end();
    }
  });
});

describe('a quiet conversation', () => {
  it('expires after BOT_CONVERSATION_TIMEOUT', async () => {
    const expired = await conversationWhere(
      signUpBot,
      'the expired conversation',
      (c) => c.status === 'expired' && c.messages[0]?.text === 'Menu',
    );
    expect(expired).toMatchObject({ end_reason: 'expired', current_step: null });
  });
});

describe('ops replay automations --in-place', () => {
  it('rebuilds bots and conversations row for row, and asks the model and messaging nothing again', async () => {
    const db = new Client({ connectionString: system.stack.databaseUrl });
    await db.connect();
    try {
      const schema = system.schema('automations');
      const modelCalls = model.requests.length;
      const messagesBefore = await call<{ meta: { total: number } }>('GET', '/api/v1/messages');
      await system.halt('automations');
      const before = await tablesOf(db, schema);
      expect(before['bot_conversations']!.length).toBeGreaterThan(3);
      await replayInPlace(system, 'automations', schema);
      expect(await tablesOf(db, schema)).toEqual(before);
      await system.resume('automations');
      expect(model.requests.length).toBe(modelCalls);
      const messagesAfter = await call<{ meta: { total: number } }>('GET', '/api/v1/messages');
      expect(messagesAfter.body.meta.total).toBe(messagesBefore.body.meta.total);
    } finally {
      await db.end();
    }
  });
});
