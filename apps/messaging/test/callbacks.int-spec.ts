import {
  CONTACT_REQUEST_TYPES,
  MESSAGING_FACT_TYPES,
  MESSAGING_REQUEST_TYPES,
  OUTCOME_TYPES,
  SUPPRESSION_FACT_TYPES,
  type ChannelType,
} from '@cms/contracts';
import { eventually } from '@cms/testing';

import { callbackToken } from '../src/channels/channel-secrets';
import {
  FakeMeta,
  metaCallback,
  metaHandshake,
  telegramCallback,
  telegramMessageUpdate,
  twilioCallback,
  whatsappStatusNotification,
  type ProviderCallback,
} from './fakes';
import { MessagesFixture, sleep } from './support/messages.fixture';
import { MessagingHarness } from './support/messaging.harness';

const PUBLIC_BASE_URL = 'https://api.example.test';
const TWILIO = { account_sid: 'AC1', auth_token: 'twilio-auth-token', from: '+15557770000' };
const META = {
  access_token: 'meta-access-token',
  app_secret: 'meta-app-secret',
  verify_token: 'meta-verify-token',
  phone_number_id: '105500',
};
const TELEGRAM = { bot_token: '1:telegram-bot', secret_token: 'telegram-secret' };

type Errors = { errors: Array<{ status: string; detail: string }> };

describe('provider callbacks: verified for the gateway, decided from the log', () => {
  let meta: FakeMeta;
  let harness: MessagingHarness;
  let fixture: MessagesFixture;
  /** Workspaces whose rows all come from records in the log. */
  const fromRecords: number[] = [];

  beforeAll(async () => {
    meta = new FakeMeta();
    await meta.server.start();
    meta.addWhatsAppNumber(META.phone_number_id, META.access_token);
    harness = await MessagingHarness.start(
      {
        PUBLIC_BASE_URL,
        PROVIDER_BASE_URLS: `meta=${meta.server.baseUrl}`,
        SEND_WORKER_POLL_MS: '20',
        SANDBOX_STATUS_DELAY_MS: '60000',
      },
      ['requests'],
    );
    fixture = new MessagesFixture(harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
    await meta?.server.close();
  });

  /** POST /api/v1/channels as the gateway performs it; answers the channel id and its callback URL. */
  async function channel(
    workspaceId: number,
    type: ChannelType,
    provider: string,
    credentials?: Record<string, unknown>,
  ): Promise<{ id: number; url: string; token: string }> {
    const id = harness.id();
    const outcome = await harness.request(workspaceId, MESSAGING_REQUEST_TYPES.channelCreate, {
      channel_id: id,
      type,
      provider,
      name: `${provider} ${id}`,
      metadata: {},
      credentials_sealed: credentials === undefined ? null : harness.seal(credentials),
    });
    expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
    const token = callbackToken(id, harness.secretsKey);
    return { id, token, url: `${PUBLIC_BASE_URL}/webhook/provider/${token}` };
  }

  /** What the gateway asks about a callback to `/webhook/provider/<token>`. */
  async function verify(
    token: string,
    callback: ProviderCallback,
  ): Promise<{ status: number; body: unknown }> {
    const url = new URL(callback.url);
    const response = await fetch(`${harness.service.url}/internal/v1/provider-callbacks/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        token,
        method: callback.method,
        url: callback.url,
        query: Object.fromEntries(url.searchParams),
        headers: callback.headers,
        body_base64: Buffer.from(callback.body).toString('base64'),
      }),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  }

  /** provider-callback.received as the gateway records a verified callback. */
  async function received(workspaceId: number, channelId: number, callback: ProviderCallback): Promise<void> {
    await harness.kit.produce(
      harness.kit.envelope(MESSAGING_REQUEST_TYPES.providerCallback, workspaceId, {
        channel_id: channelId,
        content_type: callback.headers['content-type'] ?? 'application/x-www-form-urlencoded',
        body_base64: Buffer.from(callback.body).toString('base64'),
        received_at: new Date().toISOString(),
      }),
    );
  }

  function consentRequests(workspaceId: number) {
    return harness.kit
      .recordsOn(harness.kit.topics.requests)
      .filter(
        (record) =>
          record.type === CONTACT_REQUEST_TYPES.consentChange && record.workspaceid === String(workspaceId),
      );
  }

  async function suppressions(workspaceId: number): Promise<Array<Record<string, unknown>>> {
    return harness.kit.db.query(
      'SELECT channel, address, reason, source FROM suppressions WHERE workspace_id = $1 ORDER BY address',
      [workspaceId],
    );
  }

  /** The workspace's suppression facts once there are `count`, as the entries they are about. */
  async function suppressionFacts(workspaceId: number, count: number) {
    const facts = await fixture.untilSuppressionFacts(workspaceId, count);
    const ids: Array<{ id: string; address: string; created_at: Date }> = await harness.kit.db.query(
      'SELECT id, address, created_at FROM suppressions WHERE workspace_id = $1',
      [workspaceId],
    );
    const entries = new Map(ids.map((row) => [row.address, row]));
    return facts.map((fact) => {
      const entry = entries.get(fact.data['address'] as string);
      expect(fact.subject).toBe(entry?.id);
      expect(fact.data).toMatchObject({ id: entry?.id, at: entry?.created_at.toISOString() });
      const { channel: type, address, reason, source } = fact.data;
      return [fact.type, type, address, reason, source];
    });
  }

  describe('the verification', () => {
    it('answers the workspace and channel of a Twilio callback signed with the full URL, 401 otherwise', async () => {
      const workspaceId = harness.workspace();
      const sms = await channel(workspaceId, 'sms', 'twilio', TWILIO);
      const params = { MessageSid: 'SM1', MessageStatus: 'delivered', To: '+15551230000' };
      const signed = twilioCallback(`${sms.url}?attempt=1`, TWILIO.auth_token, params);
      expect(await verify(sms.token, signed)).toEqual({
        status: 200,
        body: { data: { workspace_id: workspaceId, channel_id: sms.id, inbound_messages: 0 } },
      });
      const otherKey = twilioCallback(`${sms.url}?attempt=1`, 'another-token', params);
      const otherUrl = { ...signed, url: `${sms.url}?attempt=2` };
      const { 'x-twilio-signature': _signature, ...unsigned } = signed.headers;
      for (const refused of [otherKey, otherUrl, { ...signed, headers: unsigned }]) {
        const answer = await verify(sms.token, refused);
        expect(answer.status).toBe(401);
        expect((answer.body as Errors).errors[0]).toMatchObject({ status: '401' });
        expect(JSON.stringify(answer.body)).not.toContain(TWILIO.auth_token);
      }
    });

    it("checks Meta's X-Hub-Signature-256 and answers its handshake, 403 for another verify token", async () => {
      const workspaceId = harness.workspace();
      const whatsapp = await channel(workspaceId, 'whatsapp', 'meta', META);
      const notification = whatsappStatusNotification(META.phone_number_id, {
        id: 'wamid.1',
        status: 'read',
      });
      expect(
        (await verify(whatsapp.token, metaCallback(whatsapp.url, META.app_secret, notification))).body,
      ).toEqual({
        data: { workspace_id: workspaceId, channel_id: whatsapp.id, inbound_messages: 0 },
      });
      const forged = metaCallback(whatsapp.url, 'not-the-secret', notification);
      expect((await verify(whatsapp.token, forged)).status).toBe(401);
      expect(await verify(whatsapp.token, metaHandshake(whatsapp.url, META.verify_token, 'ch-4711'))).toEqual(
        {
          status: 200,
          body: { data: { handshake: 'ch-4711' } },
        },
      );
      const wrong = await verify(whatsapp.token, metaHandshake(whatsapp.url, 'guessed', 'ch-4712'));
      expect(wrong.status).toBe(403);
      expect(JSON.stringify(wrong.body)).not.toContain('ch-4712');
    });

    it('verifies a callback as large as the edge takes (1 MiB), which reaches it base64-encoded', async () => {
      const workspaceId = harness.workspace();
      const whatsapp = await channel(workspaceId, 'whatsapp', 'meta', META);
      const notification = whatsappStatusNotification(META.phone_number_id, {
        id: 'wamid.big',
        status: 'read',
      });
      const padded = {
        ...notification,
        padding: 'x'.repeat(1024 * 1024 - JSON.stringify(notification).length - 20),
      };
      const callback = metaCallback(whatsapp.url, META.app_secret, padded);
      expect(Buffer.byteLength(callback.body)).toBeGreaterThan(1024 * 1024 - 64);
      expect(await verify(whatsapp.token, callback)).toEqual({
        status: 200,
        body: { data: { workspace_id: workspaceId, channel_id: whatsapp.id, inbound_messages: 0 } },
      });
    });

    it("checks Telegram's secret token header", async () => {
      const workspaceId = harness.workspace();
      const telegram = await channel(workspaceId, 'telegram', 'telegram', TELEGRAM);
      const update = telegramMessageUpdate(4242, 'hello', 1);
      expect(
        (await verify(telegram.token, telegramCallback(telegram.url, TELEGRAM.secret_token, update))).status,
      ).toBe(200);
      expect((await verify(telegram.token, telegramCallback(telegram.url, 'guess', update))).status).toBe(
        401,
      );
    });

    it('answers 404 for a token no channel has, and for a sandbox channel', async () => {
      const workspaceId = harness.workspace();
      const sandbox = await channel(workspaceId, 'sms', 'sandbox');
      const callback = twilioCallback(sandbox.url, 'x', { MessageSid: 'SM2', MessageStatus: 'sent' });
      for (const token of ['no-such-token', sandbox.token]) {
        const answer = await verify(token, callback);
        expect(answer.status).toBe(404);
        expect((answer.body as Errors).errors[0]).toMatchObject({ status: '404' });
      }
    });
  });

  describe('provider-callback.received', () => {
    /** A WhatsApp message sent through the Meta adapter to the Graph API fake, once it is sent. */
    async function sentOnWhatsApp(phone: string) {
      const workspaceId = harness.workspace();
      const whatsapp = await channel(workspaceId, 'whatsapp', 'meta', META);
      const template = await fixture.template(workspaceId, 'whatsapp', 'Order {{ vars.order }} shipped');
      const contactId = harness.id();
      await harness.contacts(workspaceId, { id: contactId, name: 'W', phone });
      const id = await fixture.sent(workspaceId, {
        contact_id: contactId,
        route: [{ channel_id: whatsapp.id, template_id: template }],
        variables: { order: 'A-1' },
      });
      await fixture.untilStatus(workspaceId, id, 'sent');
      const [row]: Array<{ provider_message_id: string }> = await harness.kit.db.query(
        'SELECT provider_message_id FROM messages WHERE id = $1',
        [id],
      );
      const wamid = row!.provider_message_id;
      expect(wamid).toMatch(/^wamid\./);
      const status = (kind: 'delivered' | 'read' | 'failed', at: Date, errorCode?: number) =>
        metaCallback(
          whatsapp.url,
          META.app_secret,
          whatsappStatusNotification(META.phone_number_id, {
            id: wamid,
            status: kind,
            at,
            ...(errorCode !== undefined ? { errorCode } : {}),
          }),
        );
      return { workspaceId, whatsapp, contactId, id, status };
    }

    it('moves a WhatsApp message sent through Meta to delivered and read, and keeps a late delivered in history', async () => {
      const { workspaceId, whatsapp, id, status } = await sentOnWhatsApp('+15551239876');
      const deliveredAt = new Date(Date.now() - 2000);
      const readAt = new Date(Date.now() - 1000);
      await received(workspaceId, whatsapp.id, status('delivered', deliveredAt));
      await received(workspaceId, whatsapp.id, status('read', readAt));
      const read = await fixture.untilStatus(workspaceId, id, 'read');
      expect(read.delivered_at).toBe(new Date(Math.floor(deliveredAt.getTime() / 1000) * 1000).toISOString());
      expect(read.history.slice(-2)).toEqual([
        { status: 'delivered', at: read.delivered_at, source: 'provider' },
        { status: 'read', at: read.read_at, source: 'provider' },
      ]);
      await received(workspaceId, whatsapp.id, status('delivered', new Date()));
      const late = await fixture.until(workspaceId, id, 'keeps the late delivered', (message) =>
        message.history.some((entry) => entry.ignored === true),
      );
      expect(late).toMatchObject({ status: 'read', delivered_at: read.delivered_at });
      expect(late.history.at(-1)).toMatchObject({ status: 'delivered', source: 'provider', ignored: true });
      // The facts of the two changes on their way, then a moment for one the late receipt must not make.
      await eventually('the read fact', async () => fixture.factsAbout(id).length >= 4 || undefined);
      await sleep(200);
      expect(fixture.factsAbout(id).map((fact) => fact.type)).toEqual([
        'message.queued',
        'message.sent',
        'message.delivered',
        'message.read',
      ]);
    });

    it('fails a message the provider reports opted out, suppresses the address and asks to revoke consent', async () => {
      const { workspaceId, whatsapp, contactId, id, status } = await sentOnWhatsApp('+15551238888');
      await received(workspaceId, whatsapp.id, status('failed', new Date(), 131050));
      const failed = await fixture.untilStatus(workspaceId, id, 'failed');
      expect(failed.failure).toMatchObject({ code: 'opted_out', provider_code: '131050' });
      expect(failed.history.at(-1)).toMatchObject({ status: 'failed', source: 'provider' });
      expect(await suppressions(workspaceId)).toEqual([
        { channel: 'whatsapp', address: '+15551238888', reason: 'opted_out', source: 'provider' },
      ]);
      expect(await suppressionFacts(workspaceId, 1)).toEqual([
        [SUPPRESSION_FACT_TYPES.added, 'whatsapp', '+15551238888', 'opted_out', 'provider'],
      ]);
      const [request] = await harness.kit.waitFor('the consent change', () => {
        const found = consentRequests(workspaceId);
        return found.length > 0 ? found : undefined;
      });
      expect(request!.data).toEqual({
        contact_id: contactId,
        channel: 'whatsapp',
        granted: false,
        source: 'provider',
        occurred_at: failed.failed_at,
      });
    });

    it('matches a Telegram sender by the chat id linked to the contact', async () => {
      const workspaceId = harness.workspace();
      fromRecords.push(workspaceId);
      const telegram = await channel(workspaceId, 'telegram', 'telegram', TELEGRAM);
      const contactId = harness.id();
      await harness.contacts(workspaceId, { id: contactId, name: 'T', channels: { telegram: '777001' } });
      const update = telegramMessageUpdate(777001, 'hi there', 31);
      await received(workspaceId, telegram.id, telegramCallback(telegram.url, TELEGRAM.secret_token, update));
      const [message] = await eventually('the inbound Telegram message', async () => {
        const { body } = await harness.get<{ data: Array<Record<string, unknown>> }>(
          'messages?filter[direction]=inbound',
          workspaceId,
        );
        return body.data.length > 0 ? body.data : undefined;
      });
      expect(message).toMatchObject({
        channel: 'telegram',
        contact_id: contactId,
        recipient: '777001',
        body: 'hi there',
      });
    });

    it('holds statuses decided before the attempt that names their message, and applies them with it', async () => {
      const workspaceId = harness.workspace();
      const phone = '+15551237771';
      meta.answerSlowly('7771', 1500);
      const whatsapp = await channel(workspaceId, 'whatsapp', 'meta', META);
      const template = await fixture.template(workspaceId, 'whatsapp', 'Early {{ vars.n }}');
      const contactId = harness.id();
      await harness.contacts(workspaceId, { id: contactId, name: 'E', phone });
      const id = await fixture.sent(workspaceId, {
        contact_id: contactId,
        route: [{ channel_id: whatsapp.id, template_id: template }],
        variables: { n: '1' },
      });
      const wamid = await eventually('the send to reach Meta', () =>
        Promise.resolve(meta.acceptedIds.get(phone)),
      );
      const deliveredAt = new Date(Date.now() + 100);
      const readAt = new Date(Date.now() + 200);
      for (const [status, at] of [
        ['read', readAt],
        ['delivered', deliveredAt],
      ] as const) {
        const notification = whatsappStatusNotification(META.phone_number_id, { id: wamid, status, at });
        await received(workspaceId, whatsapp.id, metaCallback(whatsapp.url, META.app_secret, notification));
      }
      await eventually('both statuses held', async () => {
        const held: unknown[] = await harness.kit.db.query(
          'SELECT status FROM early_statuses WHERE provider_message_id = $1',
          [wamid],
        );
        return held.length === 2 || undefined;
      });

      const read = await fixture.untilStatus(workspaceId, id, 'read');
      expect(read.history.map((entry) => [entry.status, entry.source])).toEqual([
        ['queued', 'api'],
        ['sent', 'provider'],
        ['delivered', 'provider'],
        ['read', 'provider'],
      ]);
      expect(read.delivered_at).toBe(new Date(Math.floor(deliveredAt.getTime() / 1000) * 1000).toISOString());
      // The facts on their way, then a moment for a repeated one that must not come.
      await eventually('the read fact', async () => fixture.factsAbout(id).length >= 4 || undefined);
      await sleep(200);
      expect(fixture.factsAbout(id).map((fact) => fact.type)).toEqual([
        'message.queued',
        'message.sent',
        'message.delivered',
        'message.read',
      ]);
      expect(
        await harness.kit.db.query('SELECT 1 FROM early_statuses WHERE provider_message_id = $1', [wamid]),
      ).toEqual([]);
    });

    it('records a Twilio inbound message from a known sender once, listed as inbound', async () => {
      const workspaceId = harness.workspace();
      fromRecords.push(workspaceId);
      const sms = await channel(workspaceId, 'sms', 'twilio', TWILIO);
      const contactId = harness.id();
      await harness.contacts(workspaceId, { id: contactId, name: 'I', phone: '+15551234444' });
      const inbound = twilioCallback(sms.url, TWILIO.auth_token, {
        MessageSid: 'SMin1',
        SmsStatus: 'received',
        From: '+15551234444',
        To: TWILIO.from,
        Body: 'Where is my order?',
      });
      // The provider sent it again: one message.
      await received(workspaceId, sms.id, inbound);
      await received(workspaceId, sms.id, inbound);
      const list = await eventually('the inbound message', async () => {
        const { status, body } = await harness.get<{ data: Array<Record<string, unknown>> }>(
          'messages?filter[direction]=inbound',
          workspaceId,
        );
        return status === 200 && body.data.length > 0 ? body.data : undefined;
      });
      await sleep(300);
      const { body } = await harness.get<{ data: Array<Record<string, unknown>> }>(
        'messages?filter[direction]=inbound',
        workspaceId,
      );
      expect(body.data).toHaveLength(1);
      expect(list[0]).toMatchObject({
        direction: 'inbound',
        status: 'received',
        channel: 'sms',
        channel_id: sms.id,
        contact_id: contactId,
        recipient: '+15551234444',
        body: 'Where is my order?',
      });
      expect((list[0]!['history'] as Array<Record<string, unknown>>)[0]).toMatchObject({
        status: 'received',
        source: 'provider',
      });
    });

    it('puts a Twilio STOP on the suppression list and asks once to revoke the contact’s consent', async () => {
      const workspaceId = harness.workspace();
      fromRecords.push(workspaceId);
      const sms = await channel(workspaceId, 'sms', 'twilio', TWILIO);
      const contactId = harness.id();
      await harness.contacts(workspaceId, { id: contactId, name: 'S', phone: '+15551235555' });
      const stop = twilioCallback(sms.url, TWILIO.auth_token, {
        MessageSid: 'SMstop',
        SmsStatus: 'received',
        From: '+15551235555',
        To: TWILIO.from,
        Body: 'STOP',
        OptOutType: 'STOP',
      });
      await received(workspaceId, sms.id, stop);
      const [request] = await harness.kit.waitFor('the consent change', () => {
        const found = consentRequests(workspaceId);
        return found.length > 0 ? found : undefined;
      });
      expect(request!.data).toEqual({
        contact_id: contactId,
        channel: 'sms',
        granted: false,
        source: 'provider',
        occurred_at: expect.any(String),
      });
      expect(await suppressions(workspaceId)).toEqual([
        { channel: 'sms', address: '+15551235555', reason: 'opted_out', source: 'provider' },
      ]);
      await sleep(300);
      expect(consentRequests(workspaceId)).toHaveLength(1);
      const { body } = await harness.get<{ data: Array<{ id: string }> }>(
        'messages?filter[direction]=inbound',
        workspaceId,
      );
      expect(body.data).toHaveLength(1);
      // Twilio's opt-out is one for the consumers of message.received too (a bot never answers it).
      const fact = await harness.kit.waitFor('message.received', () =>
        fixture
          .factsAbout(body.data[0]!.id)
          .find((record) => record.type === MESSAGING_FACT_TYPES.messageReceived),
      );
      expect(fact.data).toMatchObject({ body: 'STOP', contact: { id: contactId }, keyword: 'opt_out' });
    });

    it('publishes suppression.added once for an address Twilio reports opted out twice', async () => {
      const workspaceId = harness.workspace();
      const sms = await channel(workspaceId, 'sms', 'twilio', TWILIO);
      const stop = (from: string, sid: string) =>
        twilioCallback(sms.url, TWILIO.auth_token, {
          MessageSid: sid,
          SmsStatus: 'received',
          From: from,
          To: TWILIO.from,
          Body: 'STOP',
          OptOutType: 'STOP',
        });
      await received(workspaceId, sms.id, stop('+15551236666', 'SMtwice1'));
      // A second opt-out of the same address keeps its entry; the next address is added.
      await received(workspaceId, sms.id, stop('+15551236666', 'SMtwice2'));
      await received(workspaceId, sms.id, stop('+15551236667', 'SMtwice3'));
      expect(await suppressionFacts(workspaceId, 2)).toEqual([
        [SUPPRESSION_FACT_TYPES.added, 'sms', '+15551236666', 'opted_out', 'provider'],
        [SUPPRESSION_FACT_TYPES.added, 'sms', '+15551236667', 'opted_out', 'provider'],
      ]);
    });

    it("asks once to revoke consent on a sandbox opt-out recipient's failure (the provider opt-out path)", async () => {
      const workspaceId = harness.workspace();
      await fixture.channel(workspaceId, 'sms');
      const template = await fixture.template(workspaceId, 'sms', 'Hi');
      const contactId = harness.id();
      await harness.contacts(workspaceId, { id: contactId, name: 'O', phone: '+15550004' });
      const id = await fixture.sent(workspaceId, {
        contact_id: contactId,
        route: [{ channel: 'sms', template_id: template }],
      });
      await fixture.untilStatus(workspaceId, id, 'failed');
      const [request] = await harness.kit.waitFor('the consent change', () => {
        const found = consentRequests(workspaceId);
        return found.length > 0 ? found : undefined;
      });
      expect(request!.data).toMatchObject({
        contact_id: contactId,
        channel: 'sms',
        granted: false,
        source: 'provider',
      });
      await sleep(300);
      expect(consentRequests(workspaceId)).toHaveLength(1);
    });

    it('is decided again by a rebuild into the same rows, and its requests are not appended again', async () => {
      const appended = (): number =>
        harness.kit
          .recordsOn(harness.kit.topics.requests)
          .filter((record) => record.type === CONTACT_REQUEST_TYPES.consentChange).length;
      // The workspaces made only of records (the others have rows the fixture wrote to the tables).
      const ofRecords = async (schema?: string) => {
        const rows = await harness.kit.projectionRows(schema);
        return Object.fromEntries(
          Object.entries(rows).map(([table, list]) => [
            table,
            (list as Array<{ workspace_id: string }>).filter((row) =>
              fromRecords.includes(Number(row.workspace_id)),
            ),
          ]),
        );
      };
      await sleep(300);
      const live = await ofRecords();
      expect(live['messages']!.length).toBeGreaterThanOrEqual(2);
      expect(live['suppressions']).toHaveLength(1);
      const before = appended();
      expect(await ofRecords(await harness.kit.rebuild())).toEqual(live);
      await sleep(300);
      expect(appended()).toBe(before);
    });
  });
});
