import { randomBytes } from 'node:crypto';

import {
  ALERT_FACT_TYPES,
  ALERT_REQUEST_TYPES,
  CONTACT_FACT_TYPES,
  CONTACT_REQUEST_TYPES,
  createEnvelope,
  encryptSecret,
  MESSAGING_REQUEST_TYPES,
  type Envelope,
} from '@cms/contracts';
import { ServiceHarness, type ServiceProcess } from '@cms/service-kit/testing';
import { eventually } from '@cms/testing';

import type { MessagingConfig } from '../src/config';
import { messageIdOfRecord } from '../src/messages/message-ids';
import { MESSAGING_SERVICE } from '../src/messaging.service';
import { FakeTwilio } from './fakes';
import { sleep } from './support/messages.fixture';

const WORKSPACE = 1;
const SENDS = 300;
/** Inbound opt-out and opt-in keywords from one contact, alternating, sent among the sends. */
const KEYWORDS = 21;
const KEYWORD_PHONE = '+15551238888';
/** What each kind of recipient ends with, once every receipt came. */
const FINAL: Record<string, string[]> = {
  '0005': ['read'],
  '0009': ['sent'],
  '0001': ['failed'],
  // A provider call cut short by the kill is never repeated: its outcome is unknown, and it fails.
  twilio: ['sent', 'failed'],
};

function contactFact(id: number, phone: string): Envelope {
  const at = new Date().toISOString();
  const none = {
    whatsapp: null,
    sms: null,
    email: null,
    rcs: null,
    telegram: null,
    messenger: null,
    instagram: null,
    browser_push: null,
  };
  return createEnvelope({
    type: CONTACT_FACT_TYPES.created,
    source: 'contacts',
    workspaceid: String(WORKSPACE),
    subject: String(id),
    time: at,
    data: {
      contact_id: id,
      name: `c${id}`,
      phone,
      email: null,
      external_id: null,
      source: 'api',
      data: {},
      marketing_consent: none,
      tag_ids: [],
      channels: { telegram: null, messenger: null, instagram: null, browser_push: null },
      created_at: at,
      updated_at: at,
    },
  });
}

describe('messages: the service killed with SIGKILL while it sends', () => {
  let kit: ServiceHarness<MessagingConfig>;
  let twilio: FakeTwilio;
  let running: ServiceProcess | undefined;

  beforeAll(async () => {
    twilio = new FakeTwilio();
    await twilio.server.start();
    twilio.addAccount('AC1', 'token');
    const secretsKey = randomBytes(32).toString('base64');
    kit = await ServiceHarness.start({
      definition: MESSAGING_SERVICE,
      prefix: 'msgk',
      read: ['messaging', 'requests'],
      env: {
        SECRETS_KEY: secretsKey,
        PROVIDER_BASE_URLS: `twilio=${twilio.server.baseUrl}`,
        SANDBOX_STATUS_DELAY_MS: '50',
        SEND_WORKER_POLL_MS: '20',
        SEND_WORKER_BATCH: '20',
        // A killed consumer's partitions go to its successor after this, not after the default 30 s.
        KAFKA_SESSION_TIMEOUT_MS: '6000',
      },
    });
    running = await kit.spawnService();
    const credentials = encryptSecret(
      JSON.stringify({ account_sid: 'AC1', auth_token: 'token', from: '+15550000000' }),
      secretsKey,
    );
    await kit.db.query(
      `INSERT INTO channels (id, workspace_id, type, provider, name, status, is_default, credentials_sealed, metadata,
                             callback_token_hash, created_at, updated_at)
       VALUES (1, $1, 'sms', 'sandbox', 'sandbox', 'active', true, NULL, '{}', 'h1', now(), now()),
              (2, $1, 'sms', 'twilio', 'twilio', 'active', false, $2, '{}', 'h2', now(), now())`,
      [WORKSPACE, credentials],
    );
    await kit.db.query(
      `INSERT INTO templates (id, workspace_id, name, channel, language, body, track_links, created_at, updated_at)
       VALUES (1, $1, 'note', 'sms', 'en', 'Note {{ vars.n }}', true, now(), now())`,
      [WORKSPACE],
    );
  }, 120_000);

  afterAll(async () => {
    await running?.kill();
    await kit?.stop();
    await twilio?.server.close();
  });

  it('brings every message to one final state, each attempted and announced once, keywords and alerts decided once', async () => {
    const kinds = ['0005', '0009', '0001', 'twilio'];
    const contacts = kinds.map((kind, index) => ({
      id: 100 + index,
      kind,
      phone: `+1555123${kind === 'twilio' ? '7777' : kind}`,
    }));
    const keywordContact = 200;
    await kit.publish(kit.topics.contacts, [
      ...contacts.map((contact) => contactFact(contact.id, contact.phone)),
      contactFact(keywordContact, KEYWORD_PHONE),
    ]);
    await eventually('the contacts in the view', async () => {
      const rows: unknown[] = await kit.db.query('SELECT id FROM contacts');
      return rows.length === contacts.length + 1 || undefined;
    });
    // A quarter of the messages fail (0001): the rule fires once and stays firing.
    await kit.produce(
      kit.envelope(ALERT_REQUEST_TYPES.alertRuleCreate, WORKSPACE, {
        name: 'failing',
        metric: 'failure_rate',
        comparator: 'gt',
        threshold: 0.1,
        window_minutes: 5,
        min_volume: 10,
      }),
    );
    await eventually('the rule', async () => {
      const rows: unknown[] = await kit.db.query('SELECT 1 FROM alert_rules WHERE workspace_id = $1', [
        WORKSPACE,
      ]);
      return rows.length === 1 || undefined;
    });
    const keywords = Array.from({ length: KEYWORDS }, (_, n) =>
      kit.envelope(MESSAGING_REQUEST_TYPES.sandboxInbound, WORKSPACE, {
        channel_id: 1,
        from: KEYWORD_PHONE,
        text: n % 2 === 0 ? ' stop ' : 'Start',
      }),
    );
    const sends = Array.from({ length: SENDS }, (_, n) => {
      const contact = contacts[n % contacts.length]!;
      const envelope = kit.envelope(MESSAGING_REQUEST_TYPES.messageSend, WORKSPACE, {
        contact_id: contact.id,
        route: [{ channel_id: contact.kind === 'twilio' ? 2 : 1, template_id: 1 }],
        variables: { n: String(n) },
      });
      return { envelope, kind: contact.kind, n, id: messageIdOfRecord(envelope.id) };
    });
    for (let start = 0; start < SENDS; start += 10) {
      const keyword = keywords[start / 10];
      await kit.produce(
        ...sends.slice(start, start + 10).map((send) => send.envelope),
        ...(keyword !== undefined ? [keyword] : []),
      );
      if (start === SENDS / 2) {
        await running!.kill();
        running = undefined;
        void kit.spawnService().then((instance) => (running = instance));
      }
      await sleep(50);
    }
    await eventually(
      'every message in its final state',
      async () => {
        const rows: Array<{ id: string; status: string }> = await kit.db.query(
          'SELECT id, status FROM messages',
        );
        const statuses = new Map(rows.map((row) => [row.id, row.status]));
        return sends.every((send) => FINAL[send.kind]!.includes(statuses.get(send.id) ?? '')) || undefined;
      },
      120_000,
      500,
    );
    await sleep(500);

    const rows: Array<{ id: string; status: string; history: Array<{ status: string; ignored?: boolean }> }> =
      await kit.db.query('SELECT id, status, history FROM messages');
    // No message was attempted twice: a second attempt would show in its history, ignored.
    for (const row of rows) expect(row.history.filter((entry) => entry.ignored)).toEqual([]);
    const facts = kit.recordsOn(kit.topics.messaging);
    for (const send of sends) {
      const about = facts.filter((fact) => fact.data['id'] === send.id);
      // The relay may publish a record again after a kill; a fact is the same fact (same id) then.
      const distinct = new Map(about.map((fact) => [fact.id, fact.type]));
      const types = [...distinct.values()];
      const status = rows.find((row) => row.id === send.id)!.status;
      const expected =
        status === 'read'
          ? ['message.queued', 'message.sent', 'message.delivered', 'message.read']
          : ['message.queued', `message.${status}`];
      expect({ n: send.n, types }).toEqual({ n: send.n, types: expected });
    }
    const bodies = twilio.sentMessages().map((form) => form.get('Body'));
    expect(new Set(bodies).size).toBe(bodies.length);
    const sentThroughTwilio = sends.filter(
      (send) => send.kind === 'twilio' && rows.find((row) => row.id === send.id)!.status === 'sent',
    );
    for (const send of sentThroughTwilio) expect(bodies).toContain(`Note ${send.n}`);

    // Every keyword decided once: the last (an opt-out) leaves the address on the list, and each asked
    // contacts once for its consent change (a record made again after the kill has the same id).
    const suppressions: Array<Record<string, unknown>> = await kit.db.query(
      'SELECT address, reason, source FROM suppressions WHERE workspace_id = $1',
      [WORKSPACE],
    );
    expect(suppressions).toEqual([{ address: KEYWORD_PHONE, reason: 'opted_out', source: 'keyword' }]);
    const consent = new Map(
      kit
        .recordsOn(kit.topics.requests)
        .filter((record) => record.type === CONTACT_REQUEST_TYPES.consentChange)
        .map((record) => [record.id, record.data as { contact_id: number; granted: boolean }]),
    );
    expect([...consent.values()].filter((change) => change.contact_id === keywordContact)).toHaveLength(
      KEYWORDS,
    );
    const inbound: unknown[] = await kit.db.query(
      "SELECT id FROM messages WHERE direction = 'inbound' AND workspace_id = $1",
      [WORKSPACE],
    );
    expect(inbound).toHaveLength(KEYWORDS);

    // The alert fired once and is still firing: one alert, one notification.
    const alerts: Array<{ status: string }> = await kit.db.query(
      'SELECT status FROM alerts WHERE workspace_id = $1',
      [WORKSPACE],
    );
    expect(alerts).toEqual([{ status: 'firing' }]);
    const notifications = new Map(
      facts
        .filter((fact) => fact.type === ALERT_FACT_TYPES.alertTriggered)
        .map((fact) => [fact.id, fact.data as { status: string; notification_seq: number }]),
    );
    expect([...notifications.values()].map((data) => [data.status, data.notification_seq])).toEqual([
      ['firing', 1],
    ]);
  }, 180_000);
});
