import {
  CONTACT_REQUEST_TYPES,
  INBOUND_SENDER_REQUEST_TYPE,
  MESSAGING_FACT_TYPES,
  MESSAGING_REQUEST_TYPES,
  OUTCOME_TYPES,
  SUPPRESSION_FACT_TYPES,
  SUPPRESSION_REQUEST_TYPES,
  type Envelope,
} from '@cms/contracts';
import { eventually } from '@cms/testing';

import { callbackToken } from '../src/channels/channel-secrets';
import { FakeSmtp, FakeTwilio, TWILIO_ERRORS, twilioCallback } from './fakes';
import { MessagesFixture, sleep } from './support/messages.fixture';
import { MessagingHarness, type Outcome } from './support/messaging.harness';

const PUBLIC_BASE_URL = 'https://api.example.test';
const TWILIO = { account_sid: 'AC1', auth_token: 'twilio-auth-token', from: '+15557770000' };

type Entry = {
  id: string;
  channel: string;
  address: string;
  reason: string;
  source: string;
  created_at: string;
};

const { added: ADDED, removed: REMOVED } = SUPPRESSION_FACT_TYPES;

/** What a suppression fact carries of its entry: all of it but the creation time, and when it changed. */
function changeOf(entry: Entry, at: string): Record<string, unknown> {
  const { id, channel, address, reason, source } = entry;
  return { id, channel, address, reason, source, at };
}

/** The facts as [type, subject], each checked to be about the entry its subject names. */
function changes(facts: Envelope<Record<string, unknown>>[]): Array<[string, string | undefined]> {
  for (const fact of facts) expect(fact.data['id']).toBe(fact.subject);
  return facts.map((fact) => [fact.type, fact.subject]);
}

describe('suppressions: the list, keywords and provider opt-outs', () => {
  let harness: MessagingHarness;
  let fixture: MessagesFixture;
  const twilio = new FakeTwilio();
  const smtp = new FakeSmtp();

  beforeAll(async () => {
    await Promise.all([twilio.server.start(), smtp.start()]);
    twilio.addAccount(TWILIO.account_sid, TWILIO.auth_token);
    twilio.refuseRecipients('0610', TWILIO_ERRORS.optedOut);
    smtp.refuseRecipients((address) => address.startsWith('gone@'));
    harness = await MessagingHarness.start(
      {
        PUBLIC_BASE_URL,
        SEND_WORKER_POLL_MS: '20',
        SANDBOX_STATUS_DELAY_MS: '60000',
        PROVIDER_BASE_URLS: `twilio=${twilio.server.baseUrl}`,
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32',
      },
      ['requests'],
    );
    fixture = new MessagesFixture(harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
    await Promise.all([twilio.server.close(), smtp.close()]);
  });

  function refusal(outcome: Outcome): { status: number; pointers: string[] } {
    expect(outcome.type).toBe(OUTCOME_TYPES.rejected);
    const data = outcome.data as { status: number; errors: Array<{ source?: { pointer: string } }> };
    return { status: data.status, pointers: data.errors.map((error) => error.source?.pointer ?? '') };
  }

  function answered(outcome: Outcome): { status: number; resource: Entry } {
    expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
    return outcome.data as { status: number; resource: Entry };
  }

  async function channel(
    workspaceId: number,
    type: string,
    provider = 'sandbox',
    metadata: Record<string, unknown> = {},
    credentials?: Record<string, unknown>,
  ): Promise<number> {
    const id = harness.id();
    const outcome = await harness.request(workspaceId, MESSAGING_REQUEST_TYPES.channelCreate, {
      channel_id: id,
      type,
      provider,
      name: `${type} ${id}`,
      metadata,
      credentials_sealed: credentials === undefined ? null : harness.seal(credentials),
    });
    expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
    return id;
  }

  function inbound(workspaceId: number, channelId: number, from: string, text: string): Promise<Outcome> {
    return harness.request(workspaceId, MESSAGING_REQUEST_TYPES.sandboxInbound, {
      channel_id: channelId,
      from,
      text,
    });
  }

  async function entries(workspaceId: number, query = ''): Promise<Entry[]> {
    const { status, body } = await harness.get<{ data: Entry[] }>(`suppressions${query}`, workspaceId);
    expect(status).toBe(200);
    return body.data;
  }

  function consentRequests(workspaceId: number) {
    return harness.kit
      .recordsOn(harness.kit.topics.requests)
      .filter(
        (record) =>
          record.type === CONTACT_REQUEST_TYPES.consentChange && record.workspaceid === String(workspaceId),
      );
  }

  describe('the API', () => {
    it('adds a manual entry with the phone number in E.164, and answers the entry already there for the same address', async () => {
      const ws = harness.workspace();
      const created = answered(
        await harness.request(ws, SUPPRESSION_REQUEST_TYPES.create, {
          channel: 'sms',
          address: '+44 7700 900123',
        }),
      );
      expect(created.status).toBe(201);
      expect(created.resource).toEqual({
        id: expect.stringMatching(/^sup_[0-9a-f]{32}$/),
        channel: 'sms',
        address: '+447700900123',
        reason: 'manual',
        source: 'api',
        created_at: expect.any(String),
      });
      const again = answered(
        await harness.request(ws, SUPPRESSION_REQUEST_TYPES.create, {
          channel: 'sms',
          address: '447700900123',
        }),
      );
      expect(again).toEqual({ status: 200, resource: created.resource });
      const email = answered(
        await harness.request(ws, SUPPRESSION_REQUEST_TYPES.create, {
          channel: 'email',
          address: ' Ann@Example.COM ',
        }),
      );
      expect(email.resource.address).toBe('ann@example.com');
      expect((await entries(ws)).map((entry) => entry.address)).toEqual(['+447700900123', 'ann@example.com']);
    });

    it('refuses an address that is not one for the channel type with a pointer, and adds nothing', async () => {
      const ws = harness.workspace();
      for (const [channelType, address] of [
        ['sms', 'ann@example.com'],
        ['whatsapp', '12'],
        ['email', 'not-an-email'],
        ['telegram', 'two words'],
      ]) {
        const outcome = await harness.request(ws, SUPPRESSION_REQUEST_TYPES.create, {
          channel: channelType,
          address,
        });
        expect(refusal(outcome)).toEqual({ status: 422, pointers: ['/data/attributes/address'] });
      }
      expect(await entries(ws)).toEqual([]);
    });

    it('lists with filters and pages, reads one, and deletes one of its own workspace only', async () => {
      const ws = harness.workspace();
      const other = harness.workspace();
      const add = async (workspaceId: number, channelType: string, address: string) =>
        answered(
          await harness.request(workspaceId, SUPPRESSION_REQUEST_TYPES.create, {
            channel: channelType,
            address,
          }),
        ).resource;
      const first = await add(ws, 'sms', '+15550100001');
      await add(ws, 'email', 'b@example.com');
      await add(ws, 'sms', '+15550100002');
      const foreign = await add(other, 'sms', '+15550100001');

      expect((await entries(ws, '?filter[channel]=sms')).map((entry) => entry.address)).toEqual([
        '+15550100001',
        '+15550100002',
      ]);
      expect(await entries(ws, '?filter[address]=B@example.com')).toHaveLength(1);
      expect(await entries(ws, '?filter[reason]=opted_out')).toEqual([]);
      const page = await harness.get<{ data: Entry[]; meta: { total: number } }>(
        'suppressions?per_page=2',
        ws,
      );
      expect(page.body.data).toHaveLength(2);
      expect(page.body.meta.total).toBe(3);
      expect((await harness.get('suppressions?filter[reason]=lost', ws)).status).toBe(422);

      expect((await harness.get<{ data: Entry }>(`suppressions/${first.id}`, ws)).body.data).toEqual(first);
      expect((await harness.get(`suppressions/${foreign.id}`, ws)).status).toBe(404);
      expect((await harness.get('suppressions/sup_nope', ws)).status).toBe(404);

      const foreignDelete = await harness.request(ws, SUPPRESSION_REQUEST_TYPES.delete, {
        suppression_id: foreign.id,
      });
      expect(refusal(foreignDelete).status).toBe(404);
      expect(await entries(other)).toHaveLength(1);
      const deleted = await harness.request(ws, SUPPRESSION_REQUEST_TYPES.delete, {
        suppression_id: first.id,
      });
      expect(answered(deleted).status).toBe(204);
      expect((await harness.get(`suppressions/${first.id}`, ws)).status).toBe(404);
      const twice = await harness.request(ws, SUPPRESSION_REQUEST_TYPES.delete, { suppression_id: first.id });
      expect(refusal(twice).status).toBe(404);
    });

    it('publishes suppression.added once per new entry and suppression.removed once per deletion, nothing for a repeat', async () => {
      const ws = harness.workspace();
      const create = (channelType: string, address: string) =>
        harness.request(ws, SUPPRESSION_REQUEST_TYPES.create, { channel: channelType, address });
      const remove = (id: string) =>
        harness.request(ws, SUPPRESSION_REQUEST_TYPES.delete, { suppression_id: id });
      const created = answered(await create('sms', '+44 7700 900123')).resource;
      // The same address again, an address refused, the same request record read twice: no change.
      expect(answered(await create('sms', '447700900123')).status).toBe(200);
      expect(refusal(await create('email', 'not-an-email')).status).toBe(422);
      const twice = harness.kit.envelope(SUPPRESSION_REQUEST_TYPES.create, ws, {
        channel: 'email',
        address: 'twice@example.com',
      });
      await harness.kit.produce(twice, twice);
      const once = answered(await harness.kit.outcomeOf(twice)).resource;
      expect(answered(await remove(created.id)).status).toBe(204);
      // Gone already: nothing is removed.
      expect(refusal(await remove(created.id)).status).toBe(404);
      const last = answered(await create('sms', '+15550100009')).resource;

      const facts = await fixture.untilSuppressionFacts(ws, 4);
      expect(changes(facts)).toEqual([
        [ADDED, created.id],
        [ADDED, once.id],
        [REMOVED, created.id],
        [ADDED, last.id],
      ]);
      expect(facts[0]!.data).toEqual(changeOf(created, created.created_at));
      expect(facts[1]!.data).toEqual(changeOf(once, once.created_at));
      // As of the deletion: the entry as it was on the list.
      expect(facts[2]!.data).toEqual(changeOf(created, facts[2]!.time));
      expect(facts[2]!.time).not.toBe(created.created_at);
      expect(facts.map((fact) => fact.source)).toEqual(Array(4).fill('messaging'));
      expect(await entries(ws)).toEqual([once, last]);
    });

    it('suppresses a later send to a manual entry with suppressed_address, and sends again once it is deleted', async () => {
      const ws = harness.workspace();
      await fixture.channel(ws, 'sms');
      const template = await fixture.template(ws, 'sms', 'Hi');
      const contactId = harness.id();
      await harness.contacts(ws, { id: contactId, name: 'M', phone: '+15550200007' });
      const entry = answered(
        await harness.request(ws, SUPPRESSION_REQUEST_TYPES.create, {
          channel: 'sms',
          address: '+15550200007',
        }),
      ).resource;
      const body = { contact_id: contactId, route: [{ channel: 'sms', template_id: template }] };
      const suppressed = await fixture.untilStatus(ws, await fixture.sent(ws, body), 'suppressed');
      expect(suppressed.suppression).toMatchObject({ reason: 'suppressed_address' });
      await harness.request(ws, SUPPRESSION_REQUEST_TYPES.delete, { suppression_id: entry.id });
      await fixture.untilStatus(ws, await fixture.sent(ws, body), 'sent');
    });
  });

  describe('keywords', () => {
    it('puts a sandbox "stop" on the list and revokes consent with source keyword; "Start" reverses both', async () => {
      const ws = harness.workspace();
      const sms = await channel(ws, 'sms');
      const contactId = harness.id();
      await harness.contacts(ws, { id: contactId, name: 'K', phone: '+15550300001' });
      expect(answered(await inbound(ws, sms, '+15550300001', '  stop ')).status).toBe(202);
      expect(await entries(ws)).toEqual([
        expect.objectContaining({
          channel: 'sms',
          address: '+15550300001',
          reason: 'opted_out',
          source: 'keyword',
        }),
      ]);
      const [revoke] = await harness.kit.waitFor('the revocation', () => {
        const found = consentRequests(ws);
        return found.length > 0 ? found : undefined;
      });
      expect(revoke!.data).toEqual({
        contact_id: contactId,
        channel: 'sms',
        granted: false,
        source: 'keyword',
        occurred_at: expect.any(String),
      });

      await inbound(ws, sms, '+15550300001', 'Start');
      expect(await entries(ws)).toEqual([]);
      const requests = await harness.kit.waitFor('the grant', () => {
        const found = consentRequests(ws);
        return found.length > 1 ? found : undefined;
      });
      expect(requests[1]!.data).toMatchObject({ contact_id: contactId, granted: true, source: 'keyword' });
    });

    it('publishes the entry an opt-out adds and an opt-in removes, once each, and nothing for a keyword that changes nothing', async () => {
      const ws = harness.workspace();
      const sms = await channel(ws, 'sms');
      const accepted = async (from: string, text: string) =>
        expect(answered(await inbound(ws, sms, from, text)).status).toBe(202);
      await accepted('+15550300005', 'STOP');
      const [first] = await entries(ws);
      await accepted('+15550300005', 'stop');
      await accepted('+15550300005', 'START');
      await accepted('+15550300005', 'start');
      // An opt-in keeps an entry of another reason, and publishes nothing.
      const manual = answered(
        await harness.request(ws, SUPPRESSION_REQUEST_TYPES.create, {
          channel: 'sms',
          address: '+15550300006',
        }),
      ).resource;
      await accepted('+15550300006', 'YES');
      await accepted('+15550300005', 'STOP');
      const second = (await entries(ws)).find((entry) => entry.address === '+15550300005');

      const facts = await fixture.untilSuppressionFacts(ws, 4);
      expect(changes(facts)).toEqual([
        [ADDED, first!.id],
        [REMOVED, first!.id],
        [ADDED, manual.id],
        [ADDED, second!.id],
      ]);
      expect(second!.id).not.toBe(first!.id);
      expect(facts[0]!.data).toEqual(changeOf(first!, first!.created_at));
      expect(facts[0]!.data).toMatchObject({
        address: '+15550300005',
        reason: 'opted_out',
        source: 'keyword',
      });
      expect(facts[1]!.data).toEqual(changeOf(first!, facts[1]!.time));
      expect(facts[3]!.data).toEqual(changeOf(second!, second!.created_at));
    });

    it('reads only the whole text as a keyword, and keeps an entry of another reason on opt-in', async () => {
      const ws = harness.workspace();
      const sms = await channel(ws, 'sms');
      await inbound(ws, sms, '+15550300002', 'please stop');
      await inbound(ws, sms, '+15550300002', 'STOP!');
      expect(await entries(ws)).toEqual([]);
      await harness.request(ws, SUPPRESSION_REQUEST_TYPES.create, {
        channel: 'sms',
        address: '+15550300002',
      });
      await inbound(ws, sms, '+15550300002', 'UNSUBSCRIBE');
      await inbound(ws, sms, '+15550300002', 'yes');
      expect((await entries(ws)).map((entry) => entry.reason)).toEqual(['manual']);
      // An unknown sender is on the list all the same; there is no contact whose consent to change.
      expect(consentRequests(ws)).toEqual([]);
    });

    it('answers a keyword with the channel confirmation, sent although the address is suppressed', async () => {
      const ws = harness.workspace();
      const sms = await channel(ws, 'sms', 'sandbox', {
        opt_out_reply: 'You will get no more messages. Text START to come back.',
        opt_in_reply: 'Welcome back.',
      });
      const contactId = harness.id();
      await harness.contacts(ws, { id: contactId, name: 'R', phone: '+15550300077' });
      const stop = answered(await inbound(ws, sms, '+15550300077', 'STOP')).resource as unknown as {
        id: string;
      };
      const reply = await eventually('the confirmation, sent', async () => {
        const { body } = await harness.get<{ data: Array<Record<string, unknown>> }>(
          'messages?filter[direction]=outbound',
          ws,
        );
        const found = body.data.find((message) => message['status'] !== 'queued');
        return found;
      });
      expect(reply).toMatchObject({
        direction: 'outbound',
        status: 'sent',
        channel_id: sms,
        recipient: '+15550300077',
        contact_id: contactId,
        template: null,
        suppression: null,
        body: 'You will get no more messages. Text START to come back.',
      });
      expect(reply['id']).not.toBe(stop.id);
      expect((reply['history'] as Array<{ status: string }>).map((entry) => entry.status)).toEqual([
        'queued',
        'sent',
      ]);
      expect(fixture.factsAbout(reply['id'] as string).map((fact) => fact.type)).toEqual(
        expect.arrayContaining(['message.queued', 'message.sent']),
      );
      expect((await entries(ws)).map((entry) => entry.reason)).toEqual(['opted_out']);
      await inbound(ws, sms, '+15550300077', 'start');
      await eventually('the opt-in confirmation', async () => {
        const { body } = await harness.get<{ data: Array<{ body: string; status: string }> }>(
          'messages?filter[direction]=outbound',
          ws,
        );
        return (
          body.data.some((message) => message.body === 'Welcome back.' && message.status === 'sent') ||
          undefined
        );
      });
    });

    it("uses a channel's own keyword lists instead of the defaults", async () => {
      const ws = harness.workspace();
      const sms = await channel(ws, 'sms', 'sandbox', {
        opt_out_keywords: ['Alto', 'BAJA'],
        opt_in_keywords: ['alta'],
      });
      await inbound(ws, sms, '+15550300003', 'STOP');
      expect(await entries(ws)).toEqual([]);
      await inbound(ws, sms, '+15550300003', 'baja');
      expect((await entries(ws)).map((entry) => entry.reason)).toEqual(['opted_out']);
      await inbound(ws, sms, '+15550300003', 'START');
      expect(await entries(ws)).toHaveLength(1);
      await inbound(ws, sms, '+15550300003', ' ALTA ');
      expect(await entries(ws)).toEqual([]);
    });

    it('refuses keyword metadata that is not a list of short non-blank strings, on create and update', async () => {
      const ws = harness.workspace();
      const create = (metadata: Record<string, unknown>) =>
        harness.request(ws, MESSAGING_REQUEST_TYPES.channelCreate, {
          channel_id: harness.id(),
          type: 'sms',
          provider: 'sandbox',
          name: 'K',
          metadata,
          credentials_sealed: null,
        });
      expect(refusal(await create({ opt_out_keywords: 'STOP' }))).toEqual({
        status: 422,
        pointers: ['/data/attributes/metadata/opt_out_keywords'],
      });
      expect(refusal(await create({ opt_in_keywords: ['GO', 7, ' ', 'X'.repeat(65)] }))).toEqual({
        status: 422,
        pointers: [
          '/data/attributes/metadata/opt_in_keywords/1',
          '/data/attributes/metadata/opt_in_keywords/2',
          '/data/attributes/metadata/opt_in_keywords/3',
        ],
      });
      const sms = await channel(ws, 'sms');
      const update = await harness.request(ws, MESSAGING_REQUEST_TYPES.channelUpdate, {
        channel_id: sms,
        metadata: { opt_out_keywords: [], opt_in_keywords: { word: 'GO' } },
      });
      expect(refusal(update)).toEqual({
        status: 422,
        pointers: ['/data/attributes/metadata/opt_in_keywords'],
      });
      const removed = await harness.request(ws, MESSAGING_REQUEST_TYPES.channelUpdate, {
        channel_id: sms,
        metadata: { opt_out_keywords: null },
      });
      expect(removed.type).toBe(OUTCOME_TYPES.accepted);
    });

    it('reads a Twilio inbound "Stop" as a keyword when Twilio does not report the opt-out itself', async () => {
      const ws = harness.workspace();
      const sms = await channel(ws, 'sms', 'twilio', {}, TWILIO);
      const url = `${PUBLIC_BASE_URL}/webhook/provider/${callbackToken(sms, harness.secretsKey)}`;
      const callback = twilioCallback(url, TWILIO.auth_token, {
        MessageSid: 'SMkw1',
        SmsStatus: 'received',
        From: '+15550300004',
        To: TWILIO.from,
        Body: 'Stop',
      });
      await harness.kit.produce(
        harness.kit.envelope(MESSAGING_REQUEST_TYPES.providerCallback, ws, {
          channel_id: sms,
          content_type: 'application/x-www-form-urlencoded',
          body_base64: Buffer.from(callback.body).toString('base64'),
          received_at: new Date().toISOString(),
        }),
      );
      const found = await eventually('the keyword entry', async () => {
        const list = await entries(ws);
        return list.length > 0 ? list : undefined;
      });
      expect(found).toEqual([
        expect.objectContaining({ address: '+15550300004', reason: 'opted_out', source: 'keyword' }),
      ]);
    });
  });

  describe('inbound matches', () => {
    it('publishes message.received with the contact the sender was matched to, from the match it appended', async () => {
      const ws = harness.workspace();
      const sms = await channel(ws, 'sms');
      const contactId = harness.id();
      await harness.contacts(ws, { id: contactId, name: 'R', phone: '+15550400001' });
      const outcome = await inbound(ws, sms, '+1 555 040 0001', 'hello');
      const message = answered(outcome).resource as unknown as { id: string; contact_id: number };
      expect(message.contact_id).toBe(contactId);
      const match = await harness.kit.waitFor('the match record', () =>
        harness.kit
          .recordsOn(harness.kit.topics.requests)
          .find(
            (record) =>
              record.type === SUPPRESSION_REQUEST_TYPES.inboundMatch && record.subject === message.id,
          ),
      );
      expect(match.data).toEqual({ message_id: message.id, contact_id: contactId });
      const fact = await harness.kit.waitFor('message.received', () =>
        fixture.factsAbout(message.id).find((record) => record.type === MESSAGING_FACT_TYPES.messageReceived),
      );
      expect(fact.data).toMatchObject({
        id: message.id,
        direction: 'inbound',
        status: 'received',
        body: 'hello',
        contact: { id: contactId, name: 'R', phone: '+15550400001' },
        bot: null,
        keyword: null,
      });
      await sleep(200);
      expect(fixture.factsAbout(message.id)).toHaveLength(1);
    });

    it("marks message.received with the channel's keyword the text was: opt_out, opt_in, or null", async () => {
      const ws = harness.workspace();
      const sms = await channel(ws, 'sms');
      const custom = await channel(ws, 'sms', 'sandbox', {
        opt_out_keywords: ['BAJA'],
        opt_in_keywords: ['ALTA'],
      });
      const contactId = harness.id();
      await harness.contacts(ws, { id: contactId, name: 'W', phone: '+15550400009' });
      const received = async (channelId: number, text: string) => {
        const message = answered(await inbound(ws, channelId, '+15550400009', text)).resource as unknown as {
          id: string;
        };
        const fact = await harness.kit.waitFor(`message.received of ${JSON.stringify(text)}`, () =>
          fixture
            .factsAbout(message.id)
            .find((record) => record.type === MESSAGING_FACT_TYPES.messageReceived),
        );
        return fact.data;
      };
      expect(await received(sms, ' STOP ')).toMatchObject({
        body: ' STOP ',
        contact: { id: contactId },
        keyword: 'opt_out',
      });
      expect(await received(sms, 'start')).toMatchObject({ keyword: 'opt_in' });
      expect(await received(sms, 'stop please')).toMatchObject({ body: 'stop please', keyword: null });
      // A channel's own lists replace the defaults, for the mark as for the suppression list.
      expect(await received(custom, 'baja')).toMatchObject({ keyword: 'opt_out' });
      expect(await received(custom, 'Alta')).toMatchObject({ keyword: 'opt_in' });
      expect(await received(custom, 'STOP')).toMatchObject({ keyword: null });
    });

    it('asks the contacts service for an unknown sender on a phone channel, and links the message to its answer', async () => {
      const ws = harness.workspace();
      const sms = await channel(ws, 'sms');
      const minted = harness.id();
      const outcome = await harness.request(ws, MESSAGING_REQUEST_TYPES.sandboxInbound, {
        channel_id: sms,
        from: '+15550400002',
        text: 'who is this?',
        contact_id: minted,
        contact_limit: 1000,
      });
      const message = answered(outcome).resource as unknown as { id: string; contact_id: number | null };
      expect(message.contact_id).toBeNull();
      const asked = await harness.kit.waitFor('the inbound sender request', () =>
        harness.kit
          .recordsOn(harness.kit.topics.requests)
          .find((record) => record.type === INBOUND_SENDER_REQUEST_TYPE && record.subject === message.id),
      );
      expect(asked.data).toEqual({
        message_id: message.id,
        channel: 'sms',
        phone: '+15550400002',
        contact_id: minted,
        contact_limit: 1000,
      });
      // Not matched by messaging itself: the contacts service answers the match.
      expect(
        harness.kit
          .recordsOn(harness.kit.topics.requests)
          .filter(
            (record) =>
              record.type === SUPPRESSION_REQUEST_TYPES.inboundMatch && record.subject === message.id,
          ),
      ).toEqual([]);
      await harness.contacts(ws, { id: minted, phone: '+15550400002' });
      await harness.kit.produce(
        harness.kit.envelope(SUPPRESSION_REQUEST_TYPES.inboundMatch, ws, {
          message_id: message.id,
          contact_id: minted,
        }),
      );
      const fact = await harness.kit.waitFor('message.received', () =>
        fixture.factsAbout(message.id).find((record) => record.type === MESSAGING_FACT_TYPES.messageReceived),
      );
      expect(fact.data).toMatchObject({ contact: { id: minted, phone: '+15550400002' } });
      const { body } = await harness.get<{ data: { contact_id: number } }>(`messages/${message.id}`, ws);
      expect(body.data.contact_id).toBe(minted);
    });

    it('matches an unknown sender on another channel to nobody, and publishes message.received all the same', async () => {
      const ws = harness.workspace();
      const telegram = await channel(ws, 'telegram');
      const outcome = await inbound(ws, telegram, '424242', 'hi');
      const message = answered(outcome).resource as unknown as { id: string };
      const fact = await harness.kit.waitFor('message.received', () =>
        fixture.factsAbout(message.id).find((record) => record.type === MESSAGING_FACT_TYPES.messageReceived),
      );
      expect(fact.data).toMatchObject({ contact: { id: null } });
      expect(
        harness.kit
          .recordsOn(harness.kit.topics.requests)
          .some((record) => record.type === INBOUND_SENDER_REQUEST_TYPE && record.subject === message.id),
      ).toBe(false);
    });

    it('counts the inbound messages of a callback for the gateway to mint contact ids, and uses them in order', async () => {
      const ws = harness.workspace();
      const sms = await channel(ws, 'sms', 'twilio', {}, TWILIO);
      const token = callbackToken(sms, harness.secretsKey);
      const url = `${PUBLIC_BASE_URL}/webhook/provider/${token}`;
      const callback = twilioCallback(url, TWILIO.auth_token, {
        MessageSid: 'SMnew1',
        SmsStatus: 'received',
        From: '+15550400003',
        To: TWILIO.from,
        Body: 'hello',
      });
      const verified = await fetch(`${harness.service.url}/internal/v1/provider-callbacks/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          token,
          method: 'POST',
          url,
          query: {},
          headers: callback.headers,
          body_base64: Buffer.from(callback.body).toString('base64'),
        }),
      });
      expect(await verified.json()).toEqual({
        data: { workspace_id: ws, channel_id: sms, inbound_messages: 1 },
      });
      const minted = harness.id();
      await harness.kit.produce(
        harness.kit.envelope(MESSAGING_REQUEST_TYPES.providerCallback, ws, {
          channel_id: sms,
          content_type: 'application/x-www-form-urlencoded',
          body_base64: Buffer.from(callback.body).toString('base64'),
          received_at: new Date().toISOString(),
          contact_ids: [minted],
          contact_limit: 25000,
        }),
      );
      const asked = await harness.kit.waitFor('the inbound sender request', () =>
        harness.kit
          .recordsOn(harness.kit.topics.requests)
          .find((record) => record.type === INBOUND_SENDER_REQUEST_TYPE && record.workspaceid === String(ws)),
      );
      expect(asked.data).toMatchObject({ phone: '+15550400003', contact_id: minted, contact_limit: 25000 });
    });
  });

  describe('provider opt-outs and bounces (source provider)', () => {
    it('puts an address Twilio refuses with 21610 on the list as opted_out and asks to revoke consent', async () => {
      const ws = harness.workspace();
      const sms = await fixture.channel(ws, 'sms', {
        provider: 'twilio',
        credentialsSealed: harness.seal(TWILIO),
      });
      const template = await fixture.template(ws, 'sms', 'Hi');
      const contactId = harness.id();
      await harness.contacts(ws, { id: contactId, name: 'O', phone: '+15550600610' });
      const id = await fixture.sent(ws, {
        contact_id: contactId,
        route: [{ channel_id: sms, template_id: template }],
      });
      const failed = await fixture.untilStatus(ws, id, 'failed');
      expect(failed.failure).toMatchObject({ code: 'opted_out', provider_code: '21610' });
      const listed = await entries(ws);
      expect(listed).toEqual([
        expect.objectContaining({
          channel: 'sms',
          address: '+15550600610',
          reason: 'opted_out',
          source: 'provider',
        }),
      ]);
      const [fact] = await fixture.untilSuppressionFacts(ws, 1);
      expect(fact).toMatchObject({ type: ADDED, subject: listed[0]!.id });
      expect(fact!.data).toEqual(changeOf(listed[0]!, listed[0]!.created_at));
      const [request] = await harness.kit.waitFor('the revocation', () => {
        const found = consentRequests(ws);
        return found.length > 0 ? found : undefined;
      });
      expect(request!.data).toMatchObject({ contact_id: contactId, granted: false, source: 'provider' });
    });

    it('puts an email address the SMTP server refuses for good on the list as bounced', async () => {
      const ws = harness.workspace();
      const email = await fixture.channel(ws, 'email', {
        provider: 'smtp',
        credentialsSealed: harness.seal({ host: '127.0.0.1', port: smtp.port, from: 'shop@example.com' }),
      });
      const template = await fixture.template(ws, 'email', 'Hi');
      const contactId = harness.id();
      await harness.contacts(ws, { id: contactId, name: 'B', email: 'gone@example.org' });
      const id = await fixture.sent(ws, {
        contact_id: contactId,
        route: [{ channel_id: email, template_id: template }],
      });
      const failed = await fixture.untilStatus(ws, id, 'failed');
      expect(failed.failure).toMatchObject({ code: 'bounced' });
      const listed = await entries(ws);
      expect(listed).toEqual([
        expect.objectContaining({
          channel: 'email',
          address: 'gone@example.org',
          reason: 'bounced',
          source: 'provider',
        }),
      ]);
      const [fact] = await fixture.untilSuppressionFacts(ws, 1);
      expect(fact).toMatchObject({ type: ADDED, subject: listed[0]!.id });
      expect(fact!.data).toEqual(changeOf(listed[0]!, listed[0]!.created_at));
      // The next message to it is not attempted.
      const next = await fixture.sent(ws, {
        contact_id: contactId,
        route: [{ channel_id: email, template_id: template }],
      });
      expect((await fixture.untilStatus(ws, next, 'suppressed')).suppression).toMatchObject({
        reason: 'suppressed_address',
      });
    });
  });
});
