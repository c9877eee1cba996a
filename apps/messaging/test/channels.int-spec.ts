import { createHmac, randomBytes } from 'node:crypto';

import { MESSAGING_FACT_TYPES, MESSAGING_REQUEST_TYPES, OUTCOME_TYPES } from '@cms/contracts';

import { ChannelCredentials } from '../src/channels/channel-credentials';
import type { ChannelEntity } from '../src/channels/channel.entity';
import type { ChannelResource } from '../src/channels/channel.resource';
import { ChannelRepository } from '../src/channels/channel.repository';
import { MessagingHarness, type Outcome } from './support/messaging.harness';

let harness: MessagingHarness;

beforeAll(async () => {
  harness = await MessagingHarness.start({ WEBHOOK_ALLOW_NETWORKS: '10.20.0.0/16' });
});

afterAll(async () => {
  await harness?.stop();
});

const TWILIO = { account_sid: 'AC0123456789abcdef', auth_token: 'token-abcdef-9876', from: '+15005550006' };

interface ChannelInput {
  type?: string;
  provider?: string;
  name?: string;
  credentials?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  is_default?: boolean;
}

/** POST /api/v1/channels as the gateway performs it: it mints the id and seals the credentials. */
async function createChannel(
  ws: number,
  input: ChannelInput = {},
): Promise<{ id: number; outcome: Outcome }> {
  const id = harness.id();
  const { credentials, ...rest } = input;
  const outcome = await harness.request(ws, MESSAGING_REQUEST_TYPES.channelCreate, {
    channel_id: id,
    type: 'sms',
    provider: 'sandbox',
    name: `Channel ${id}`,
    metadata: {},
    credentials_sealed: credentials === undefined ? null : harness.seal(credentials),
    ...rest,
  });
  return { id, outcome };
}

function updateChannel(ws: number, id: number, patch: ChannelInput & { status?: string }): Promise<Outcome> {
  const { credentials, ...rest } = patch;
  return harness.request(ws, MESSAGING_REQUEST_TYPES.channelUpdate, {
    channel_id: id,
    ...rest,
    ...(credentials !== undefined ? { credentials_sealed: harness.seal(credentials) } : {}),
  });
}

function resourceOf(outcome: Outcome): ChannelResource {
  expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
  return (outcome.data as unknown as { resource: ChannelResource }).resource;
}

async function defaults(ws: number): Promise<number[]> {
  const rows: Array<{ id: string }> = await harness.kit.db.query(
    'SELECT id FROM channels WHERE workspace_id = $1 AND is_default ORDER BY id',
    [ws],
  );
  return rows.map((row) => Number(row.id));
}

async function stored(id: number): Promise<ChannelEntity> {
  const channel = await new ChannelRepository(harness.kit.db.manager).findOne(id);
  if (!channel) throw new Error(`channel ${id} is not stored`);
  return channel;
}

function refusal(outcome: Outcome): { status: number; pointers: string[] } {
  expect(outcome.type).toBe(OUTCOME_TYPES.rejected);
  const data = outcome.data as { status: number; errors: Array<{ source?: { pointer: string } }> };
  return { status: data.status, pointers: data.errors.map((error) => error.source?.pointer ?? '') };
}

describe('messaging-channel.create.requested', () => {
  it('answers 201 with the channel, its credentials masked and its callback URL, and publishes it without them', async () => {
    const ws = harness.workspace();
    const { id, outcome } = await createChannel(ws, {
      type: 'sms',
      provider: 'twilio',
      name: 'Twilio SMS',
      credentials: TWILIO,
      metadata: { region: 'us' },
    });
    expect(outcome.data).toMatchObject({ status: 201 });
    const token = createHmac('sha256', Buffer.from(harness.secretsKey, 'base64'))
      .update(`channel-callback:${id}`)
      .digest('base64url');
    const resource = resourceOf(outcome);
    expect(resource).toEqual({
      id,
      type: 'sms',
      provider: 'twilio',
      name: 'Twilio SMS',
      status: 'active',
      is_default: true,
      credentials: { account_sid: '••••cdef', auth_token: '••••9876', from: '••••0006' },
      metadata: { region: 'us' },
      callback_url: `https://api.example.test/webhook/provider/${token}`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const [fact] = await harness.factsOf(outcome);
    expect(fact).toMatchObject({
      type: MESSAGING_FACT_TYPES.channelCreated,
      subject: String(id),
      data: {
        channel_id: id,
        type: 'sms',
        provider: 'twilio',
        name: 'Twilio SMS',
        status: 'active',
        is_default: true,
      },
    });
    expect(JSON.stringify(fact)).not.toContain('token-abcdef');

    // Only the token's hash is stored; the service finds the channel by the token and opens its credentials.
    const channels = new ChannelRepository(harness.kit.db.manager);
    const byToken = await channels.findByCallbackToken(token);
    expect(byToken?.id).toBe(id);
    const row = await stored(id);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(harness.service.app.get(ChannelCredentials).open(row)).toEqual(TWILIO);
  });

  it('refuses a provider that does not serve the type, and each missing credential, storing nothing', async () => {
    const ws = harness.workspace();
    const { outcome: wrongType } = await createChannel(ws, {
      type: 'email',
      provider: 'twilio',
      credentials: TWILIO,
    });
    expect(refusal(wrongType)).toEqual({ status: 422, pointers: ['/data/attributes/provider'] });
    const { outcome: missing } = await createChannel(ws, {
      type: 'telegram',
      provider: 'telegram',
      credentials: { bot_token: '1:a' },
    });
    expect(refusal(missing)).toEqual({
      status: 422,
      pointers: ['/data/attributes/credentials/secret_token'],
    });
    const { outcome: none } = await createChannel(ws, { type: 'sms', provider: 'twilio' });
    expect(refusal(none)).toEqual({
      status: 422,
      pointers: [
        '/data/attributes/credentials/account_sid',
        '/data/attributes/credentials/auth_token',
        '/data/attributes/credentials/from',
      ],
    });
    expect(await harness.kit.db.query('SELECT id FROM channels WHERE workspace_id = $1', [ws])).toEqual([]);
  });

  it('refuses credentials that are not a sealed JSON object, and an id in use', async () => {
    const ws = harness.workspace();
    const id = harness.id();
    const notObject = await harness.request(ws, MESSAGING_REQUEST_TYPES.channelCreate, {
      channel_id: id,
      type: 'sms',
      provider: 'sandbox',
      name: 'x',
      metadata: {},
      credentials_sealed: harness.seal([1, 2] as unknown as Record<string, unknown>),
    });
    expect(refusal(notObject)).toEqual({ status: 422, pointers: ['/data/attributes/credentials'] });
    // The gateway mints ids, so only a replayed id is ever in use; one workspace keeps the order a rebuild sees.
    const { id: taken } = await createChannel(ws);
    const again = await harness.request(ws, MESSAGING_REQUEST_TYPES.channelCreate, {
      channel_id: taken,
      type: 'sms',
      provider: 'sandbox',
      name: 'again',
      metadata: {},
      credentials_sealed: null,
    });
    expect(refusal(again).status).toBe(409);
  });
});

describe('the default channel of a type', () => {
  it('is the first of the type; is_default moves the flag; deleting it passes it to the oldest left', async () => {
    const ws = harness.workspace();
    const { id: first } = await createChannel(ws, { type: 'sms' });
    const { id: second, outcome: secondOutcome } = await createChannel(ws, { type: 'sms' });
    const { id: email } = await createChannel(ws, { type: 'email' });
    expect(resourceOf(secondOutcome).is_default).toBe(false);
    expect(await defaults(ws)).toEqual([first, email]);

    const { id: third, outcome } = await createChannel(ws, { type: 'sms', is_default: true });
    expect(resourceOf(outcome).is_default).toBe(true);
    expect(await defaults(ws)).toEqual([email, third]);
    const facts = await harness.factsOf(outcome, 2);
    expect(facts.map((fact) => [fact.type, fact.data.channel_id, fact.data.is_default])).toEqual([
      [MESSAGING_FACT_TYPES.channelUpdated, first, false],
      [MESSAGING_FACT_TYPES.channelCreated, third, true],
    ]);

    expect(resourceOf(await updateChannel(ws, second, { is_default: true })).is_default).toBe(true);
    expect(await defaults(ws)).toEqual([second, email]);

    const removed = await harness.request(ws, MESSAGING_REQUEST_TYPES.channelDelete, { channel_id: second });
    expect(removed.data).toMatchObject({ status: 204 });
    expect(await defaults(ws)).toEqual([first, email]);
    const deletion = await harness.factsOf(removed, 2);
    expect(deletion.map((fact) => fact.type)).toEqual([
      MESSAGING_FACT_TYPES.channelDeleted,
      MESSAGING_FACT_TYPES.channelUpdated,
    ]);
    expect(deletion[0]!.data).toEqual({ id: second, at: expect.any(String) });

    // is_default: false leaves the type without a default until one is chosen.
    expect(resourceOf(await updateChannel(ws, first, { is_default: false })).is_default).toBe(false);
    expect(await defaults(ws)).toEqual([email]);
  });
});

describe('messaging-channel.update.requested', () => {
  it('merges credentials and metadata one level deep, seals them again and sets the status', async () => {
    const ws = harness.workspace();
    const { id } = await createChannel(ws, {
      type: 'sms',
      provider: 'twilio',
      credentials: TWILIO,
      metadata: { region: 'us', team: 'ops' },
    });
    const before = await stored(id);
    const outcome = await updateChannel(ws, id, {
      name: 'Renamed',
      credentials: {
        from: null,
        messaging_service_sid: 'MG00000000000000000000000000000042',
        extra: 12345678,
      },
      metadata: { team: null, tier: 2 },
      status: 'disabled',
    });
    expect(resourceOf(outcome)).toMatchObject({
      name: 'Renamed',
      status: 'disabled',
      credentials: {
        account_sid: '••••cdef',
        auth_token: '••••9876',
        messaging_service_sid: '••••0042',
        extra: '••••5678',
      },
      metadata: { region: 'us', tier: 2 },
    });
    const after = await stored(id);
    expect(after.credentialsSealed).not.toBe(before.credentialsSealed);
    expect(harness.service.app.get(ChannelCredentials).open(after)).toEqual({
      account_sid: TWILIO.account_sid,
      auth_token: TWILIO.auth_token,
      messaging_service_sid: 'MG00000000000000000000000000000042',
      extra: 12345678,
    });
    expect(resourceOf(await updateChannel(ws, id, { status: 'active' })).status).toBe('active');
  });

  it('refuses merged credentials that no longer have what the provider needs, changing nothing', async () => {
    const ws = harness.workspace();
    const { id } = await createChannel(ws, { type: 'sms', provider: 'twilio', credentials: TWILIO });
    const before = await stored(id);
    const outcome = await updateChannel(ws, id, { name: 'Changed', credentials: { auth_token: null } });
    expect(refusal(outcome)).toEqual({ status: 422, pointers: ['/data/attributes/credentials/auth_token'] });
    expect(await stored(id)).toEqual(before);
  });

  it('answers 404 for a channel of another workspace, or none, on update and delete', async () => {
    const ws = harness.workspace();
    const { id } = await createChannel(ws);
    const other = harness.workspace();
    expect(refusal(await updateChannel(other, id, { name: 'x' })).status).toBe(404);
    expect(
      refusal(await harness.request(other, MESSAGING_REQUEST_TYPES.channelDelete, { channel_id: id })).status,
    ).toBe(404);
    expect(refusal(await updateChannel(ws, harness.id(), { name: 'x' })).status).toBe(404);
    expect((await stored(id)).name).toBe(`Channel ${id}`);
  });
});

describe('the internal channel reads', () => {
  it('lists the workspace channels oldest first, paged, filtered by type, and reads one', async () => {
    const ws = harness.workspace();
    const ids: number[] = [];
    for (const type of ['sms', 'email', 'sms', 'whatsapp', 'sms'])
      ids.push((await createChannel(ws, { type })).id);
    await createChannel(harness.workspace());

    const all = await harness.get<{ data: ChannelResource[]; meta: Record<string, number> }>('channels', ws);
    expect(all.status).toBe(200);
    expect(all.body.data.map((channel) => channel.id)).toEqual(ids);
    expect(all.body.meta).toEqual({ current_page: 1, per_page: 25, total: 5, last_page: 1 });

    const sms = await harness.get<{ data: ChannelResource[]; meta: Record<string, number> }>(
      'channels?filter[type]=sms&per_page=2&page=2',
      ws,
    );
    expect(sms.body.data.map((channel) => channel.id)).toEqual([ids[4]]);
    expect(sms.body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });

    const one = await harness.get<{ data: ChannelResource }>(`channels/${ids[1]}`, ws);
    expect(one).toEqual({
      status: 200,
      body: { data: expect.objectContaining({ id: ids[1], type: 'email' }) },
    });
    expect(one.body.data.callback_url).toMatch(
      /^https:\/\/api\.example\.test\/webhook\/provider\/[\w-]{43}$/,
    );

    expect((await harness.get(`channels/${ids[1]}`, harness.workspace())).status).toBe(404);
    expect((await harness.get('channels/abc', ws)).status).toBe(404);
    expect((await harness.get('channels?filter[type]=fax', ws)).status).toBe(422);
    expect((await harness.get('channels?filter[provider]=twilio', ws)).status).toBe(422);
    expect((await harness.get('channels?per_page=101', ws)).status).toBe(422);
  });
});

describe('push-subscription.create.requested', () => {
  const keys = {
    p256dh: Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  };

  function subscribe(ws: number, channelId: number, endpoint: string): Promise<Outcome> {
    return harness.request(ws, MESSAGING_REQUEST_TYPES.pushSubscriptionCreate, {
      channel_id: channelId,
      endpoint,
      keys,
    });
  }

  it('answers 201 with the subscriber id, the same one for the same endpoint again', async () => {
    const ws = harness.workspace();
    const { id } = await createChannel(ws, { type: 'browser_push' });
    const endpoint = 'https://push.example.com/send/abc';
    const first = await subscribe(ws, id, endpoint);
    expect(first.data).toMatchObject({
      status: 201,
      resource: {
        subscriber_id: expect.stringMatching(/^ps_[0-9a-f]{24}$/),
        endpoint,
        created_at: expect.any(String),
      },
    });
    const again = await subscribe(ws, id, endpoint);
    expect(again.data).toEqual(first.data);
    const other = await subscribe(ws, id, 'https://10.20.3.4/send/allowed');
    expect((other.data as { status: number }).status).toBe(201);
    expect(
      await harness.kit.db.query('SELECT count(*)::int AS n FROM push_subscriptions WHERE channel_id = $1', [
        id,
      ]),
    ).toEqual([{ n: 2 }]);
  });

  it('refuses another type of channel, an unknown one, and endpoints that are not https to a public address', async () => {
    const ws = harness.workspace();
    const { id: sms } = await createChannel(ws, { type: 'sms' });
    const { id: push } = await createChannel(ws, { type: 'browser_push' });
    expect(refusal(await subscribe(ws, sms, 'https://push.example.com/x')).status).toBe(422);
    expect(refusal(await subscribe(ws, harness.id(), 'https://push.example.com/x')).status).toBe(404);
    for (const endpoint of [
      'http://push.example.com/x',
      'https://127.0.0.1/x',
      'https://10.30.0.1/x',
      'https://[::1]/x',
    ]) {
      expect(refusal(await subscribe(ws, push, endpoint))).toEqual({
        status: 422,
        pointers: ['/data/attributes/endpoint'],
      });
    }
  });
});

describe('rebuilding from the log', () => {
  it('makes the same channel and subscription rows in a new schema', async () => {
    const live = await harness.kit.projectionRows();
    expect(live.channels!.length).toBeGreaterThan(10);
    expect(await harness.kit.projectionRows(await harness.kit.rebuild())).toEqual(live);
  });
});
