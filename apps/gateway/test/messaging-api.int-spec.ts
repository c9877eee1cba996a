import { decryptSecret } from '@cms/contracts';

import { ADMIN_TOKEN, SECRETS_KEY, startHarness, type Answer, type Harness } from './gateway.harness';
import { FakeDecider, FakeService, REFUSED_NAME, REPEATED_KEY, tenant } from './messaging.fixtures';

type Data = { data: Record<string, unknown> };
type Errors = {
  errors: Array<{ status: string; title: string; detail: string; source?: { pointer?: string } }>;
};

/** The contacts the fake contacts service holds, by workspace. */
const held = new Map<string, Set<number>>();
/** A contact whose read fails with 500, as a sick contacts service answers. */
const FAILING_CONTACT = 500;
const UNKNOWN_PATH = '/internal/v1/contacts/unknown';

const contacts = new FakeService([
  ({ method, target, headers, body }) => {
    if (method !== 'POST' || target !== UNKNOWN_PATH) return undefined;
    const ids = (body as { contact_ids: number[] }).contact_ids;
    if (ids.includes(FAILING_CONTACT)) return { status: 500 };
    const workspace = String(headers['x-workspace-id']);
    const unknown = ids.filter((id) => !held.get(workspace)?.has(id));
    return { status: 200, body: { data: { unknown } } };
  },
]);

/** The contact ids the gateway asked the contacts service about since `from`, each read's list. */
function askedSince(from: number): number[][] {
  return contacts
    .since(from)
    .filter((received) => received.target === UNKNOWN_PATH)
    .map((received) => (received.body as { contact_ids: number[] }).contact_ids);
}

/** Answers every read with what it was asked, so a test sees the path, query, workspace and body. */
const messaging = new FakeService([
  ({ target }) => (target.includes('fail=1') ? { status: 500 } : undefined),
  ({ method, target, headers, body }) =>
    target.startsWith('/internal/v1/')
      ? { status: 200, body: { data: { method, target, workspace: headers['x-workspace-id'], body } } }
      : undefined,
]);

/**
 * No workflow or bot uses any template and no bot any channel: their deletes are asked of the
 * automations service first.
 */
const automations = new FakeService([
  ({ target }) =>
    /^\/internal\/v1\/(templates\/\d+\/(workflows|bots)|channels\/\d+\/bots)$/.test(target)
      ? { status: 200, body: { data: [] } }
      : undefined,
]);

/** No notification sends any template: a template's delete is asked of the broadcasts service too. */
const broadcasts = new FakeService([
  ({ target }) =>
    /^\/internal\/v1\/templates\/\d+\/notifications$/.test(target)
      ? { status: 200, body: { data: [] } }
      : undefined,
]);

let harness: Harness;
let decider: FakeDecider;

beforeAll(async () => {
  harness = await startHarness({
    CONTACTS_URL: await contacts.start(),
    MESSAGING_URL: await messaging.start(),
    AUTOMATIONS_URL: await automations.start(),
    BROADCASTS_URL: await broadcasts.start(),
  });
  decider = new FakeDecider(harness);
  await decider.start();
}, 60000);

afterAll(async () => {
  await decider?.stop();
  await harness?.stop();
  await contacts.stop();
  await messaging.stop();
  await automations.stop();
  await broadcasts.stop();
});

function errorsOf(answer: Answer): Array<{ status: string; pointer: string | undefined }> {
  return (answer.body as Errors).errors.map((error) => ({
    status: error.status,
    pointer: error.source?.pointer,
  }));
}

/** The fields an answer refused, each once (a field can break several rules). */
function pointersOf(answer: Answer): string[] {
  return [...new Set(errorsOf(answer).map((error) => error.pointer ?? ''))].sort();
}

/** A later accepted request of the workspace was recorded and the refused one was not before it. */
async function expectNotRecorded(refused: Answer[], key: string): Promise<void> {
  const later = await harness.call('DELETE', '/api/v1/templates/1', { token: key });
  expect(later.status).toBe(204);
  await decider.recordOf(later);
  for (const answer of refused) expect(decider.recorded(answer)).toBe(false);
}

describe('channels', () => {
  it('creates a channel under a minted id with its credentials sealed, never in clear in the record', async () => {
    const { workspaceId, key } = await tenant(harness);
    const credentials = { account_sid: 'AC123', auth_token: 'secret-auth-token-4242', from: '+15005550006' };
    const answer = await harness.call('POST', '/api/v1/channels', {
      token: key,
      body: { type: 'sms', name: 'Twilio', provider: 'twilio', credentials, is_default: true },
    });
    expect(answer.status).toBe(201);
    const record = await decider.recordOf(answer);
    expect(record).toMatchObject({
      type: 'messaging-channel.create.requested',
      workspaceid: String(workspaceId),
    });
    expect(record.data).toEqual({
      channel_id: expect.any(Number),
      type: 'sms',
      name: 'Twilio',
      provider: 'twilio',
      credentials_sealed: expect.any(String),
      metadata: {},
      is_default: true,
    });
    expect(JSON.parse(decryptSecret(record.data.credentials_sealed as string, SECRETS_KEY))).toEqual(
      credentials,
    );
    expect(JSON.stringify(record)).not.toContain('secret-auth-token-4242');
    expect((answer.body as Data).data).toEqual({ echo: record.data });
  });

  it('records null credentials when none are sent, and mints a new id for each channel', async () => {
    const { key } = await tenant(harness);
    const body = { type: 'email', name: 'Sandbox', provider: 'sandbox', metadata: { from_name: 'Acme' } };
    const first = await harness.call('POST', '/api/v1/channels', { token: key, body });
    const second = await harness.call('POST', '/api/v1/channels', { token: key, body });
    const [one, two] = [await decider.recordOf(first), await decider.recordOf(second)];
    expect(one.data).toMatchObject({ credentials_sealed: null, metadata: { from_name: 'Acme' } });
    expect(one.data.channel_id).not.toBe(two.data.channel_id);
  });

  it('updates only the fields sent, credentials sealed, and deletes with 204', async () => {
    const { key } = await tenant(harness);
    const patched = await harness.call('PATCH', '/api/v1/channels/41', {
      token: key,
      body: { status: 'disabled', credentials: { auth_token: 'rotated-token-9999' } },
    });
    expect(patched.status).toBe(200);
    const update = await decider.recordOf(patched);
    expect(update.type).toBe('messaging-channel.update.requested');
    expect(Object.keys(update.data).sort()).toEqual(['channel_id', 'credentials_sealed', 'status']);
    expect(update.data.channel_id).toBe(41);
    expect(JSON.parse(decryptSecret(update.data.credentials_sealed as string, SECRETS_KEY))).toEqual({
      auth_token: 'rotated-token-9999',
    });
    expect(JSON.stringify(update)).not.toContain('rotated-token-9999');

    const deleted = await harness.call('DELETE', '/api/v1/channels/41', { token: key });
    expect([deleted.status, deleted.body]).toEqual([204, undefined]);
    expect((await decider.recordOf(deleted)).data).toEqual({ channel_id: 41 });
  });

  it('takes push subscriptions and sandbox inbound messages for a channel', async () => {
    const { key } = await tenant(harness);
    const subscription = {
      endpoint: 'https://push.example.test/abc',
      keys: {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
    };
    const subscribed = await harness.call('POST', '/api/v1/channels/7/push-subscriptions', {
      token: key,
      body: subscription,
    });
    expect(subscribed.status).toBe(201);
    const record = await decider.recordOf(subscribed);
    expect([record.type, record.data]).toEqual([
      'push-subscription.create.requested',
      { channel_id: 7, ...subscription },
    ]);

    const inbound = await harness.call('POST', '/api/v1/channels/7/sandbox/inbound', {
      token: key,
      body: { from: '+15005550123', text: 'STOP' },
    });
    expect(inbound.status).toBe(202);
    const sandbox = await decider.recordOf(inbound);
    expect([sandbox.type, sandbox.data]).toEqual([
      'messaging-channel.sandbox-inbound.requested',
      {
        channel_id: 7,
        from: '+15005550123',
        text: 'STOP',
        // The contact an unknown sender becomes, minted before the log, and the pro plan's limit.
        contact_id: expect.any(Number),
        contact_limit: 25_000,
      },
    ]);
  });

  it('reads the list and one channel from the messaging service, with the query and the workspace', async () => {
    const { workspaceId, key } = await tenant(harness);
    const list = await harness.call('GET', '/api/v1/channels?per_page=5&page=2&filter[type]=sms', {
      token: key,
    });
    expect(list.status).toBe(200);
    expect((list.body as Data).data).toEqual({
      method: 'GET',
      target: '/internal/v1/channels?per_page=5&page=2&filter[type]=sms',
      workspace: String(workspaceId),
    });
    const one = await harness.call('GET', '/api/v1/channels/12', { token: key });
    expect((one.body as Data).data).toMatchObject({ target: '/internal/v1/channels/12' });
  });

  it('refuses bodies by their rules with pointers, and passes on the service’s own refusal', async () => {
    const { key } = await tenant(harness);
    const invalid = await harness.call('POST', '/api/v1/channels', {
      token: key,
      body: { type: 'fax', name: '  ', provider: 'twilio', credentials: 'x' },
    });
    expect(invalid.status).toBe(422);
    expect(pointersOf(invalid)).toEqual([
      '/data/attributes/credentials',
      '/data/attributes/name',
      '/data/attributes/type',
    ]);
    const nullPatch = await harness.call('PATCH', '/api/v1/channels/3', {
      token: key,
      body: { credentials: null, status: 'failing' },
    });
    expect(pointersOf(nullPatch)).toEqual(['/data/attributes/credentials', '/data/attributes/status']);
    const push = await harness.call('POST', '/api/v1/channels/3/push-subscriptions', {
      token: key,
      body: { endpoint: 'https://push.example.test/x', keys: { p256dh: 'k' } },
    });
    expect([push.status, pointersOf(push)]).toEqual([422, ['/data/attributes/keys/auth']]);
    const refused = await harness.call('POST', '/api/v1/channels', {
      token: key,
      body: { type: 'sms', name: REFUSED_NAME, provider: 'sandbox' },
    });
    expect(errorsOf(refused)).toEqual([{ status: '422', pointer: '/data/attributes/name' }]);
    await expectNotRecorded([invalid, nullPatch, push], key);
  });

  it('answers 404 for a channel id that is not one, asking nobody', async () => {
    const { key } = await tenant(harness);
    const before = messaging.received.length;
    for (const [method, path, body] of [
      ['GET', '/api/v1/channels/0'],
      ['GET', '/api/v1/channels/1e3'],
      ['PATCH', '/api/v1/channels/abc', { name: 'x' }],
      ['DELETE', '/api/v1/channels/-1'],
      ['POST', '/api/v1/channels/9007199254740992/push-subscriptions', { endpoint: 'x', keys: {} }],
      ['POST', '/api/v1/channels/007/sandbox/inbound', { from: 'a', text: 'b' }],
    ] as Array<[string, string, unknown?]>) {
      const answer = await harness.call(method, path, { token: key, ...(body ? { body } : {}) });
      expect([method, path, answer.status]).toEqual([method, path, 404]);
    }
    expect(messaging.since(before)).toEqual([]);
  });
});

describe('templates', () => {
  it('creates under a minted id, updates and deletes through the log', async () => {
    const { key } = await tenant(harness);
    const created = await harness.call('POST', '/api/v1/templates', {
      token: key,
      body: { name: 'Welcome', channel: 'sms', body: 'Hi {{ contact.name }}' },
    });
    expect(created.status).toBe(201);
    const create = await decider.recordOf(created);
    expect([create.type, create.data]).toEqual([
      'template.create.requested',
      { name: 'Welcome', channel: 'sms', body: 'Hi {{ contact.name }}', template_id: expect.any(Number) },
    ]);
    const patched = await harness.call('PATCH', '/api/v1/templates/5', {
      token: key,
      body: { body: null, track_links: false },
    });
    expect(patched.status).toBe(200);
    expect((await decider.recordOf(patched)).data).toEqual({
      template_id: 5,
      body: null,
      track_links: false,
    });
    const deleted = await harness.call('DELETE', '/api/v1/templates/5', { token: key });
    expect(deleted.status).toBe(204);
    expect((await decider.recordOf(deleted)).type).toBe('template.delete.requested');
  });

  it('reads the list and one template, and renders through the messaging service with a read key', async () => {
    const { workspaceId, key } = await tenant(harness, 'pro', ['read']);
    const list = await harness.call('GET', '/api/v1/templates?filter[channel]=sms', { token: key });
    expect((list.body as Data).data).toMatchObject({ target: '/internal/v1/templates?filter[channel]=sms' });
    const one = await harness.call('GET', '/api/v1/templates/9', { token: key });
    expect((one.body as Data).data).toMatchObject({ target: '/internal/v1/templates/9' });
    const body = { contact_id: 3, variables: { code: '1234' }, event: { data: { total: 5 } } };
    const rendered = await harness.call('POST', '/api/v1/templates/9/render', { token: key, body });
    expect(rendered.status).toBe(200);
    expect((rendered.body as Data).data).toEqual({
      method: 'POST',
      target: '/internal/v1/templates/9/render',
      workspace: String(workspaceId),
      body,
    });
    const bare = await harness.call('POST', '/api/v1/templates/9/render', { token: key });
    expect([bare.status, (bare.body as Data).data.body]).toEqual([200, {}]);
    const invalid = await harness.call('POST', '/api/v1/templates/9/render', {
      token: key,
      body: { contact_id: 0, variables: [] },
    });
    expect(pointersOf(invalid)).toEqual(['/data/attributes/contact_id', '/data/attributes/variables']);
  });
});

describe('messages', () => {
  const route = [{ channel: 'sms', template_id: 4 }];

  it('sends to a contact of the workspace: 202, and 200 for a repeated Idempotency-Key', async () => {
    const { workspaceId, key } = await tenant(harness);
    held.set(String(workspaceId), new Set([31]));
    const asking = contacts.received.length;
    const sent = await harness.call('POST', '/api/v1/messages', {
      token: key,
      body: { contact_id: 31, route, variables: { code: '1' }, purpose: 'marketing' },
      headers: { 'idempotency-key': 'order-77' },
    });
    expect(sent.status).toBe(202);
    const record = await decider.recordOf(sent);
    expect([record.type, record.data]).toEqual([
      'message.send.requested',
      {
        contact_id: 31,
        route,
        variables: { code: '1' },
        purpose: 'marketing',
        idempotency_key: 'order-77',
      },
    ]);
    expect(askedSince(asking)).toEqual([[31]]);
    // Contacts are never removed: a contact once known is not asked about again.
    const known = contacts.received.length;
    const repeated = await harness.call('POST', '/api/v1/messages', {
      token: key,
      body: { contact_id: 31, route },
      headers: { 'idempotency-key': REPEATED_KEY },
    });
    expect(repeated.status).toBe(200);
    expect(askedSince(known)).toEqual([]);
  });

  it('answers 422 at contact_id for a contact the workspace does not hold, recording nothing', async () => {
    const owner = await tenant(harness);
    const other = await tenant(harness);
    held.set(String(owner.workspaceId), new Set([52]));
    const answers: Answer[] = [];
    const before = contacts.received.length;
    for (const contactId of [52, 53, 53]) {
      const answer = await harness.call('POST', '/api/v1/messages', {
        token: other.key,
        body: { contact_id: contactId, route },
      });
      expect(errorsOf(answer)).toEqual([{ status: '422', pointer: '/data/attributes/contact_id' }]);
      answers.push(answer);
    }
    // A contact not found is asked about again: it may have been made meanwhile.
    expect(askedSince(before)).toEqual([[52], [53], [53]]);
    await expectNotRecorded(answers, other.key);
  });

  it('refuses a body, a route and an Idempotency-Key by their rules with pointers, before asking for the contact', async () => {
    const { key } = await tenant(harness);
    const before = contacts.received.length;
    const cases: Array<[unknown, Record<string, string>, string[]]> = [
      [{ route }, {}, ['/data/attributes/contact_id']],
      [{ contact_id: 1, route: [] }, {}, ['/data/attributes/route']],
      [
        { contact_id: 1, route: [1, 2, 3, 4, 5].map(() => ({ channel: 'sms', template_id: 1 })) },
        {},
        ['/data/attributes/route'],
      ],
      [
        { contact_id: 1, route: [{ channel: 'fax', template_id: 0, wait_for: 'seen', timeout: 'PT1S' }] },
        {},
        [
          '/data/attributes/route/0/channel',
          '/data/attributes/route/0/template_id',
          '/data/attributes/route/0/timeout',
          '/data/attributes/route/0/wait_for',
        ],
      ],
      [
        { contact_id: 1, route: [{ template_id: 2 }, { channel: 'email', template_id: 3, timeout: 'PT1M' }] },
        {},
        ['/data/attributes/route/0/channel_id', '/data/attributes/route/1/timeout'],
      ],
      [{ contact_id: 1, route, purpose: 'spam' }, {}, ['/data/attributes/purpose']],
      [
        { contact_id: 1, route },
        { 'idempotency-key': 'k'.repeat(256) },
        ['/data/attributes/idempotency_key'],
      ],
    ];
    for (const [body, headers, pointers] of cases) {
      const answer = await harness.call('POST', '/api/v1/messages', { token: key, body, headers });
      expect([body, answer.status]).toEqual([body, 422]);
      expect([body, pointersOf(answer)]).toEqual([body, pointers]);
    }
    expect(contacts.since(before)).toEqual([]);
  });

  it('reads the list with its filters and one message by its id', async () => {
    const { key } = await tenant(harness);
    const query = 'filter[status]=sent&filter[channel]=sms&filter[contact_id]=3&filter[direction]=inbound';
    const list = await harness.call('GET', `/api/v1/messages?${query}`, { token: key });
    expect((list.body as Data).data).toMatchObject({ target: `/internal/v1/messages?${query}` });
    const id = `msg_${'0123456789abcdef'.repeat(2)}`;
    const one = await harness.call('GET', `/api/v1/messages/${id}`, { token: key });
    expect(one.status).toBe(200);
    expect((one.body as Data).data).toMatchObject({ target: `/internal/v1/messages/${id}` });
  });

  it('answers 404 for a message id that is not `msg_` and 32 lower-case hex digits, asking nobody', async () => {
    const { key } = await tenant(harness);
    const before = messaging.received.length;
    for (const id of [
      '1',
      'msg_123',
      `msg_${'A'.repeat(32)}`,
      `msg_${'a'.repeat(33)}`,
      `MSG_${'a'.repeat(32)}`,
      `msg_${'g'.repeat(32)}`,
      `x${'a'.repeat(32)}`,
    ]) {
      const answer = await harness.call('GET', `/api/v1/messages/${id}`, { token: key });
      expect([id, answer.status]).toEqual([id, 404]);
      expect((answer.body as Errors).errors[0]).toMatchObject({ status: '404', title: 'Not Found' });
    }
    expect(messaging.since(before)).toEqual([]);
  });
});

describe('the door', () => {
  it('judges every send by the plan of now: those after a downgrade is answered are refused at once', async () => {
    const { workspaceId, key } = await tenant(harness, 'pro');
    held.set(String(workspaceId), new Set([33]));
    const send = () =>
      harness.call('POST', '/api/v1/messages', {
        token: key,
        body: { contact_id: 33, route: [{ channel: 'sms', template_id: 4 }] },
      });
    expect((await send()).status).toBe(202);
    const downgraded = await harness.call('PATCH', `/admin/v1/workspaces/${workspaceId}`, {
      token: ADMIN_TOKEN,
      body: { plan: 'starter' },
    });
    expect(downgraded.status).toBe(200);
    // The key's cached principal still says pro; sends asked together share one read of the plan.
    const after = await Promise.all(Array.from({ length: 5 }, send));
    expect(after.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403]);
  });

  it('answers 403 on the starter plan for every messaging path', async () => {
    const { key } = await tenant(harness, 'starter');
    for (const [method, path] of [
      ['GET', '/api/v1/channels'],
      ['POST', '/api/v1/channels'],
      ['GET', '/api/v1/templates/1'],
      ['POST', '/api/v1/templates/1/render'],
      ['POST', '/api/v1/messages'],
      ['GET', '/api/v1/messages'],
    ] as const) {
      const answer = await harness.call(method, path, {
        token: key,
        ...(method === 'POST' ? { body: {} } : {}),
      });
      expect([method, path, answer.status]).toEqual([method, path, 403]);
    }
  });

  it('asks each route for its permission: read, create, update, delete', async () => {
    const routes: Array<[string, string, string, unknown?]> = [
      ['read', 'GET', '/api/v1/channels'],
      ['read', 'GET', '/api/v1/channels/1'],
      ['read', 'GET', '/api/v1/templates'],
      ['read', 'POST', '/api/v1/templates/1/render', {}],
      ['read', 'GET', '/api/v1/messages'],
      ['read', 'GET', `/api/v1/messages/msg_${'a'.repeat(32)}`],
      ['create', 'POST', '/api/v1/channels', { type: 'sms', name: 'x', provider: 'sandbox' }],
      ['create', 'POST', '/api/v1/channels/1/push-subscriptions', {}],
      ['create', 'POST', '/api/v1/channels/1/sandbox/inbound', {}],
      ['create', 'POST', '/api/v1/templates', {}],
      ['create', 'POST', '/api/v1/messages', {}],
      ['update', 'PATCH', '/api/v1/channels/1', {}],
      ['update', 'PATCH', '/api/v1/templates/1', {}],
      ['delete', 'DELETE', '/api/v1/channels/1'],
      ['delete', 'DELETE', '/api/v1/templates/1'],
    ];
    const keys = new Map<string, string>();
    for (const permission of ['read', 'create', 'update', 'delete']) {
      const others = ['read', 'create', 'update', 'delete'].filter((other) => other !== permission);
      keys.set(permission, (await tenant(harness, 'pro', others)).key);
    }
    for (const [permission, method, path, body] of routes) {
      const answer = await harness.call(method, path, {
        token: keys.get(permission)!,
        ...(body !== undefined ? { body } : {}),
      });
      expect([permission, method, path, answer.status]).toEqual([permission, method, path, 403]);
      expect((answer.body as Errors).errors[0]!.detail).toContain(`lacks the ${permission} permission`);
    }
  });
});

describe('services away', () => {
  it('answers 503 with Retry-After when the contacts or the messaging service fails, recording nothing', async () => {
    const { workspaceId, key } = await tenant(harness);
    held.set(String(workspaceId), new Set([FAILING_CONTACT]));
    const send = await harness.call('POST', '/api/v1/messages', {
      token: key,
      body: { contact_id: FAILING_CONTACT, route: [{ channel: 'sms', template_id: 1 }] },
    });
    expect([send.status, send.headers.get('retry-after')]).toEqual([503, '5']);
    const read = await harness.call('GET', '/api/v1/messages?fail=1', { token: key });
    expect([read.status, read.headers.get('retry-after')]).toEqual([503, '5']);
    await expectNotRecorded([send], key);
  });
});

describe('the published reference', () => {
  type Response = {
    headers?: Record<string, { required?: boolean }>;
    content?: Record<string, { schema: { $ref?: string; properties?: Record<string, { $ref?: string }> } }>;
  };
  type Operation = {
    tags?: string[];
    summary?: string;
    parameters?: Array<{ name: string; in: string; schema?: Record<string, unknown> }>;
    requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
    responses: Record<string, Response>;
    security?: unknown[];
  };
  type Document = {
    paths: Record<string, Record<string, Operation>>;
    components: {
      schemas: Record<
        string,
        { properties?: Record<string, unknown>; required?: string[]; additionalProperties?: unknown }
      >;
    };
  };

  /**
   * Every messaging path of the public API: its tag, each success status it answers and the resource
   * in `data` (null: no body).
   */
  const MESSAGING_PATHS: Array<[string, string, string, Record<string, string | null>]> = [
    ['/api/v1/channels', 'post', 'Channels', { 201: 'Channel' }],
    ['/api/v1/channels', 'get', 'Channels', { 200: 'Channel' }],
    ['/api/v1/channels/{id}', 'get', 'Channels', { 200: 'Channel' }],
    ['/api/v1/channels/{id}', 'patch', 'Channels', { 200: 'Channel' }],
    ['/api/v1/channels/{id}', 'delete', 'Channels', { 204: null }],
    ['/api/v1/channels/{id}/push-subscriptions', 'post', 'Channels', { 201: 'PushSubscription' }],
    ['/api/v1/channels/{id}/sandbox/inbound', 'post', 'Channels', { 202: 'InboundMessage' }],
    ['/api/v1/templates', 'post', 'Templates', { 201: 'Template' }],
    ['/api/v1/templates', 'get', 'Templates', { 200: 'Template' }],
    ['/api/v1/templates/{id}', 'get', 'Templates', { 200: 'Template' }],
    ['/api/v1/templates/{id}', 'patch', 'Templates', { 200: 'Template' }],
    ['/api/v1/templates/{id}', 'delete', 'Templates', { 204: null }],
    ['/api/v1/templates/{id}/render', 'post', 'Templates', { 200: 'RenderedTemplate' }],
    ['/api/v1/messages', 'post', 'Messages', { 200: 'Message', 202: 'Message' }],
    ['/api/v1/messages', 'get', 'Messages', { 200: 'Message' }],
    ['/api/v1/messages/{id}', 'get', 'Messages', { 200: 'Message' }],
    ['/api/v1/alert-rules', 'post', 'Alert rules', { 201: 'AlertRule' }],
    ['/api/v1/alert-rules', 'get', 'Alert rules', { 200: 'AlertRule' }],
    ['/api/v1/alert-rules/{id}', 'get', 'Alert rules', { 200: 'AlertRule' }],
    ['/api/v1/alert-rules/{id}', 'patch', 'Alert rules', { 200: 'AlertRule' }],
    ['/api/v1/alert-rules/{id}', 'delete', 'Alert rules', { 204: null }],
    ['/api/v1/alerts', 'get', 'Alerts', { 200: 'Alert' }],
    ['/api/v1/alerts/{id}', 'get', 'Alerts', { 200: 'Alert' }],
  ];

  /** The component a success answer's `data` is (or holds a list of); null for no body. */
  function resourceOf(response: Response | undefined): string | null | undefined {
    if (response === undefined) return undefined;
    const schema = response.content?.['application/json']?.schema;
    if (schema === undefined) return null;
    const data = schema.properties?.['data'] as { $ref?: string; items?: { $ref?: string } } | undefined;
    return (data?.$ref ?? data?.items?.$ref ?? '').split('/').pop();
  }

  it('documents every messaging path with its body schema, its errors and the form of its ids', async () => {
    const { paths, components } = (await harness.call('GET', '/openapi.json')).body as Document;
    for (const [path, method, tag, answers] of MESSAGING_PATHS) {
      const operation = paths[path]?.[method];
      expect([path, method, operation !== undefined]).toEqual([path, method, true]);
      expect([path, method, operation!.tags, Boolean(operation!.summary)]).toEqual([
        path,
        method,
        [tag],
        true,
      ]);
      expect(operation!.security).toEqual([{ apiKey: [] }]);
      expect(Object.keys(operation!.responses)).toEqual(expect.arrayContaining(['401', '403', '422', '429']));
      const successes = Object.keys(operation!.responses).filter((status) => Number(status) < 300);
      expect([path, method, successes.sort()]).toEqual([path, method, Object.keys(answers).sort()]);
      for (const [status, resource] of Object.entries(answers)) {
        const response = operation!.responses[status];
        expect([path, method, status, resourceOf(response)]).toEqual([path, method, status, resource]);
        expect(response!.headers?.['X-RateLimit-Remaining']?.required).toBe(true);
      }
      if (method === 'post' || method === 'patch') {
        const ref = operation!.requestBody?.content['application/json']?.schema.$ref ?? '';
        const schema = components.schemas[ref.split('/').pop() ?? ''];
        expect([path, method, Object.keys(schema?.properties ?? {}).length > 0]).toEqual([
          path,
          method,
          true,
        ]);
      }
    }
    expect(Object.keys(components.schemas.SendMessageBody!.properties ?? {}).sort()).toEqual([
      'contact_id',
      'purpose',
      'route',
      'variables',
    ]);
    expect(Object.keys(components.schemas.RouteStepBody!.properties ?? {}).sort()).toEqual([
      'channel',
      'channel_id',
      'template_id',
      'timeout',
      'wait_for',
    ]);
    const messageId = paths['/api/v1/messages/{id}']!.get!.parameters!.find((p) => p.name === 'id');
    expect(messageId).toMatchObject({
      in: 'path',
      schema: { type: 'string', pattern: '^msg_[0-9a-f]{32}$' },
    });
    const channelId = paths['/api/v1/channels/{id}']!.patch!.parameters!.find((p) => p.name === 'id');
    expect(channelId).toMatchObject({ in: 'path', schema: { type: 'integer', minimum: 1 } });
    expect(
      paths['/api/v1/messages']!.post!.parameters!.some(
        (p) => p.name === 'Idempotency-Key' && p.in === 'header',
      ),
    ).toBe(true);
  });

  it('documents the provider callback by GET and POST, without a key, with its refusals', async () => {
    const { paths } = (await harness.call('GET', '/openapi.json')).body as Document;
    for (const method of ['get', 'post']) {
      const operation = paths['/webhook/provider/{token}']![method]!;
      expect(operation.security).toEqual([]);
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['200', '401', '403', '404', '503']),
      );
    }
    const post = paths['/webhook/provider/{token}']!.post!;
    expect(Object.keys(post.requestBody!.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
    // A recorded callback answers `{}`; the GET handshake answers its challenge as text/plain.
    expect(post.tags).toEqual(['Provider callbacks']);
    expect(Object.keys(post.responses['200']!.content!)).toEqual(['application/json']);
    const get = paths['/webhook/provider/{token}']!.get!;
    expect(Object.keys(get.responses['200']!.content!).sort()).toEqual(['application/json', 'text/plain']);
    expect(Object.keys(get.responses['429']!.headers ?? {})).toEqual(expect.arrayContaining(['Retry-After']));
  });

  it('answers with public shapes that name every field they hold', async () => {
    const { components } = (await harness.call('GET', '/openapi.json')).body as Document;
    const channel = components.schemas['Channel']!;
    expect(channel.required?.sort()).toEqual(
      [
        'id',
        'type',
        'provider',
        'name',
        'status',
        'is_default',
        'credentials',
        'metadata',
        'callback_url',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(channel.additionalProperties).toBe(false);
    expect(channel.properties!['status']).toMatchObject({ enum: ['active', 'disabled', 'failing'] });
    expect(components.schemas['Suppression']!.required?.sort()).toEqual(
      ['id', 'channel', 'address', 'reason', 'source', 'created_at'].sort(),
    );
    expect(components.schemas['Message']!.required).toEqual(
      expect.arrayContaining(['failure', 'suppression', 'history', 'links', 'workflow', 'fallback_from']),
    );
    // Only what a customer receives: the service's records and facts are no components.
    expect(Object.keys(components.schemas).filter((name) => /V\d+$/.test(name))).toEqual([]);
  });
});

describe('suppressions', () => {
  const id = `sup_${'0123456789abcdef'.repeat(2)}`;

  it('records a manual entry and a deletion through the log, and reads through the messaging service', async () => {
    const { workspaceId, key } = await tenant(harness);
    const created = await harness.call('POST', '/api/v1/suppressions', {
      token: key,
      body: { channel: 'sms', address: '+15550001234' },
    });
    expect(created.status).toBe(201);
    const record = await decider.recordOf(created);
    expect(record).toMatchObject({
      type: 'suppression.create.requested',
      workspaceid: String(workspaceId),
      data: { channel: 'sms', address: '+15550001234' },
    });
    const deleted = await harness.call('DELETE', `/api/v1/suppressions/${id}`, { token: key });
    expect(deleted.status).toBe(204);
    expect((await decider.recordOf(deleted)).data).toEqual({ suppression_id: id });
    const query = 'filter[channel]=sms&filter[address]=%2B15550001234&filter[reason]=manual&per_page=5';
    const list = await harness.call('GET', `/api/v1/suppressions?${query}`, { token: key });
    expect((list.body as Data).data).toMatchObject({
      target: `/internal/v1/suppressions?${query}`,
      workspace: String(workspaceId),
    });
    const one = await harness.call('GET', `/api/v1/suppressions/${id}`, { token: key });
    expect((one.body as Data).data).toMatchObject({ target: `/internal/v1/suppressions/${id}` });
  });

  it('refuses a body by its rules with pointers, and answers 404 for an id that is not sup_ and 32 hex digits', async () => {
    const { key } = await tenant(harness);
    const refused = await harness.call('POST', '/api/v1/suppressions', {
      token: key,
      body: { channel: 'fax', address: ' ' },
    });
    expect(refused.status).toBe(422);
    expect(pointersOf(refused)).toEqual(['/data/attributes/address', '/data/attributes/channel']);
    const before = messaging.received.length;
    for (const bad of ['1', 'sup_123', `sup_${'A'.repeat(32)}`, `msg_${'a'.repeat(32)}`]) {
      for (const method of ['GET', 'DELETE'] as const) {
        const answer = await harness.call(method, `/api/v1/suppressions/${bad}`, { token: key });
        expect([method, bad, answer.status]).toEqual([method, bad, 404]);
      }
    }
    expect(messaging.since(before)).toEqual([]);
    await expectNotRecorded([refused], key);
  });

  it('asks each route for its permission and the plan for the API', async () => {
    const { key: starter } = await tenant(harness, 'starter');
    expect((await harness.call('GET', '/api/v1/suppressions', { token: starter })).status).toBe(403);
    const routes: Array<[string, 'GET' | 'POST' | 'DELETE', string, unknown?]> = [
      ['read', 'GET', '/api/v1/suppressions'],
      ['read', 'GET', `/api/v1/suppressions/${id}`],
      ['create', 'POST', '/api/v1/suppressions', { channel: 'sms', address: '+15550001234' }],
      ['delete', 'DELETE', `/api/v1/suppressions/${id}`],
    ];
    for (const [permission, method, path, body] of routes) {
      const others = ['read', 'create', 'update', 'delete'].filter((other) => other !== permission);
      const { key } = await tenant(harness, 'pro', others);
      const answer = await harness.call(method, path, {
        token: key,
        ...(body !== undefined ? { body } : {}),
      });
      expect([permission, method, path, answer.status]).toEqual([permission, method, path, 403]);
    }
  });

  it('is documented in the published reference with its body, its errors and the form of its ids', async () => {
    type Operation = {
      parameters?: Array<{ name: string; schema?: Record<string, unknown> }>;
      responses: Record<string, unknown>;
      requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
    };
    const document = (await harness.call('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
    };
    for (const [path, method] of [
      ['/api/v1/suppressions', 'post'],
      ['/api/v1/suppressions', 'get'],
      ['/api/v1/suppressions/{id}', 'get'],
      ['/api/v1/suppressions/{id}', 'delete'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      expect([path, method, operation !== undefined]).toEqual([path, method, true]);
      expect(Object.keys(operation!.responses)).toEqual(expect.arrayContaining(['401', '403', '422', '429']));
    }
    const ref =
      document.paths['/api/v1/suppressions']!.post!.requestBody!.content['application/json']!.schema.$ref!;
    const body = document.components.schemas[ref.split('/').pop()!]!;
    expect(Object.keys(body.properties ?? {}).sort()).toEqual(['address', 'channel', 'reason']);
    // §9: `reason` is optional and `manual` when given.
    expect(body.properties!['reason']).toMatchObject({ enum: ['manual'] });
    expect(body.required ?? []).not.toContain('reason');
    const param = document.paths['/api/v1/suppressions/{id}']!.get!.parameters!.find((p) => p.name === 'id');
    expect(param!.schema).toEqual({ type: 'string', pattern: '^sup_[0-9a-f]{32}$' });
  });
});
