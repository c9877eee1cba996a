import {
  ALERT_FACT_TYPES,
  ALERT_REQUEST_TYPES,
  CONTACT_FACT_TYPES,
  GATEWAY_REQUEST_TYPES,
  LINK_REQUEST_TYPES,
  MESSAGING_FACT_TYPES,
  MESSAGING_REQUEST_TYPES,
  OUTCOME_TYPES,
  requestEnvelope,
  SUPPRESSION_REQUEST_TYPES,
} from '@cms/contracts';
import { eventually } from '@cms/testing';

import { MessagesFixture } from './support/messages.fixture';
import { MessagingHarness } from './support/messaging.harness';

describe('messages: rebuilding from the log', () => {
  let harness: MessagingHarness;
  let fixture: MessagesFixture;

  beforeAll(async () => {
    harness = await MessagingHarness.start({ SANDBOX_STATUS_DELAY_MS: '40', SEND_WORKER_POLL_MS: '20' });
    fixture = new MessagesFixture(harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  async function count(table: string, schema = harness.kit.schema): Promise<number> {
    const [row]: Array<{ n: number }> = await harness.kit.db.query(
      `SELECT count(*)::int AS n FROM "${schema}".${table}`,
    );
    return row!.n;
  }

  it('makes the same messages, suppressions and channels, and no send job for a message attempted', async () => {
    const ws = harness.workspace();
    const [sms, email, smsTemplate, emailTemplate] = [harness.id(), harness.id(), harness.id(), harness.id()];
    const requests: Array<[string, object]> = [
      [
        MESSAGING_REQUEST_TYPES.channelCreate,
        { channel_id: sms, type: 'sms', provider: 'sandbox', name: 'S', metadata: {} },
      ],
      [
        MESSAGING_REQUEST_TYPES.channelCreate,
        { channel_id: email, type: 'email', provider: 'sandbox', name: 'E', metadata: {} },
      ],
      [
        MESSAGING_REQUEST_TYPES.templateCreate,
        { template_id: smsTemplate, name: 'sms', channel: 'sms', body: 'Hi {{ contact.name }}' },
      ],
      [
        MESSAGING_REQUEST_TYPES.templateCreate,
        {
          template_id: emailTemplate,
          name: 'mail',
          channel: 'email',
          body: 'Hello {{ vars.who }}',
          subject: 'S',
        },
      ],
    ];
    for (const [type, data] of requests) {
      expect((await harness.request(ws, type, data)).type).toBe(OUTCOME_TYPES.accepted);
    }
    const phones = ['+15550005', '+15550009', '+15550001', '+15550004', null];
    const contacts = phones.map((phone) => ({
      id: harness.id(),
      name: 'C',
      phone,
      email: `c${harness.id()}@example.com`,
    }));
    await harness.contacts(ws, ...contacts);
    const route = [
      { channel: 'sms', template_id: smsTemplate, wait_for: 'delivered', timeout: 'PT30S' },
      { channel: 'email', template_id: emailTemplate },
    ];
    const ids: string[] = [];
    for (const contact of contacts) {
      ids.push(await fixture.sent(ws, { contact_id: contact.id, route, variables: { who: 'you' } }));
    }
    ids.push(
      await fixture.sent(ws, {
        contact_id: contacts[0]!.id,
        route: [{ channel: 'email', template_id: emailTemplate }],
        purpose: 'marketing',
      }),
    );
    // A bot's text: its `bot` and its text (in the route) are rebuilt with the message.
    const bot = { id: 3, name: 'Concierge', conversation_id: 17 };
    const botMessage = await fixture.sent(ws, {
      contact_id: contacts[0]!.id,
      route: [{ channel_id: sms }],
      text: 'Table for {{ two }}, booked.',
      bot,
    });
    ids.push(botMessage);
    // The silent recipient's wait runs out now rather than in thirty seconds.
    await fixture.untilStatus(ws, ids[1]!, 'sent');
    await harness.kit.db.query(
      `UPDATE messaging_timers SET due_at = now() WHERE message_id = $1 AND kind = 'timeout'`,
      [ids[1]],
    );
    await eventually('every message settled, no job or timer left', async () => {
      const [row]: Array<{ open: number }> = await harness.kit.db.query(
        `SELECT count(*)::int AS open FROM messages WHERE workspace_id = $1 AND status IN ('queued', 'sent')`,
        [ws],
      );
      const settled = row!.open === 1; // the silent message, replaced, stays sent
      return (
        (settled && (await count('messaging_send_jobs')) === 0 && (await count('messaging_timers')) === 0) ||
        undefined
      );
    });
    const live = await harness.kit.projectionRows();
    // Seven sent, three of them replaced (a timeout, an invalid recipient, no phone).
    expect(live['messages']!.length).toBe(10);
    expect(live['suppressions']!.length).toBe(1);
    expect(
      (live['messages'] as Array<Record<string, unknown>>).find((row) => row['id'] === botMessage),
    ).toMatchObject({ bot, template_id: null, body: 'Table for {{ two }}, booked.', status: 'read' });

    const rebuilt = await harness.kit.rebuild();
    expect(await harness.kit.projectionRows(rebuilt)).toEqual(live);
    // Each send job the rebuild made again was removed again by the record of its attempt.
    expect(await count('messaging_send_jobs', rebuilt)).toBe(0);
    expect(await count('messaging_timers', rebuilt)).toBe(0);
  });

  it('makes the same suppression list and links each inbound message to the contact it was matched to live', async () => {
    const ws = harness.workspace();
    const sms = harness.id();
    const accepted = async (type: string, data: object) => {
      const outcome = await harness.request(ws, type, data);
      expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
      return outcome.data as { resource?: { id: string; contact_id?: number | null } };
    };
    await accepted(MESSAGING_REQUEST_TYPES.channelCreate, {
      channel_id: sms,
      type: 'sms',
      provider: 'sandbox',
      name: 'S',
      metadata: { opt_out_keywords: ['STOP', 'ALTO'], opt_out_reply: 'Unsubscribed.' },
    });
    const [first, second] = [harness.id(), harness.id()];
    await harness.contacts(
      ws,
      { id: first, name: 'First', phone: '+15550600001' },
      { id: second, name: 'Second' },
    );
    await accepted(SUPPRESSION_REQUEST_TYPES.create, { channel: 'email', address: 'Kept@example.com' });
    const removed = await accepted(SUPPRESSION_REQUEST_TYPES.create, {
      channel: 'sms',
      address: '+15550600009',
    });
    await accepted(SUPPRESSION_REQUEST_TYPES.delete, { suppression_id: removed.resource!.id });
    const inbound = async (from: string, text: string) =>
      (await accepted(MESSAGING_REQUEST_TYPES.sandboxInbound, { channel_id: sms, from, text })).resource!;
    const before = await inbound('+15550600001', 'hello');
    await inbound('+15550600001', 'alto');
    await inbound('+15550600002', 'STOP');
    await inbound('+15550600002', 'yes');
    // The phone moves to the second contact: a rebuild's contact view may hold that state already.
    const later = new Date(Date.now() + 1000).toISOString();
    await harness.publishContactFacts([
      harness.snapshot(
        ws,
        { id: first, name: 'First', phone: null, updated_at: later },
        CONTACT_FACT_TYPES.updated,
      ),
      harness.snapshot(
        ws,
        { id: second, name: 'Second', phone: '+15550600001', updated_at: later },
        CONTACT_FACT_TYPES.updated,
      ),
    ]);
    await harness.untilContacts(
      [second],
      'holding the phone',
      (rows) => rows[0]?.['phone'] === '+15550600001',
    );
    const after = await inbound('+15550600001', 'hello again');
    expect([before.contact_id, after.contact_id]).toEqual([first, second]);
    await eventually('every inbound match decided', async () => {
      const received = harness.kit
        .recordsOn(harness.kit.topics.messaging)
        .filter(
          (record) =>
            record.type === MESSAGING_FACT_TYPES.messageReceived && record.workspaceid === String(ws),
        );
      return received.length === 5 || undefined;
    });

    // The confirmations of the two opt-outs, settled (the sandbox fails both recipients, 0001 and 0002).
    await eventually('the confirmations settled', async () => {
      const [row]: Array<{ n: number }> = await harness.kit.db.query(
        `SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'outbound' AND status = 'failed'`,
        [ws],
      );
      return row!.n === 2 || undefined;
    });
    const live = await harness.kit.projectionRows();
    const ofWorkspace = (rows: Record<string, unknown[]>, table: string) =>
      (rows[table] as Array<Record<string, unknown>>).filter((row) => Number(row['workspace_id']) === ws);
    expect(
      ofWorkspace(live, 'suppressions').map((row) => [row['address'], row['reason'], row['source']]),
    ).toEqual(
      expect.arrayContaining([
        ['kept@example.com', 'manual', 'api'],
        ['+15550600001', 'opted_out', 'keyword'],
      ]),
    );
    expect(ofWorkspace(live, 'suppressions')).toHaveLength(2);
    // Each inbound message keeps the keyword its text was for its channel (ALTO replaces nothing else).
    expect(
      ofWorkspace(live, 'messages')
        .filter((row) => row['direction'] === 'inbound')
        .map((row) => [row['body'], row['keyword']])
        .sort(),
    ).toEqual(
      [
        ['hello', null],
        ['alto', 'opt_out'],
        ['STOP', 'opt_out'],
        ['yes', 'opt_in'],
        ['hello again', null],
      ].sort(),
    );
    const rebuilt = await harness.kit.projectionRows(await harness.kit.rebuild());
    expect(rebuilt).toEqual(live);
    const contactOf = (rows: Record<string, unknown[]>, id: string) =>
      ofWorkspace(rows, 'messages').find((row) => row['id'] === id)?.['contact_id'];
    expect([contactOf(rebuilt, before.id), contactOf(rebuilt, after.id)]).toEqual([
      String(first),
      String(second),
    ]);
  });

  it('makes the same alert rules, outcome counts and alerts, fired and resolved at the same times', async () => {
    const ws = harness.workspace();
    await harness.kit.produce(
      harness.kit.envelope(GATEWAY_REQUEST_TYPES.workspaceCreate, ws, {
        workspace_id: ws,
        name: 'alerts',
        plan: 'business',
        contact_limit: 1000,
      }),
    );
    const [sms, template] = [harness.id(), harness.id()];
    await harness.request(ws, MESSAGING_REQUEST_TYPES.channelCreate, {
      channel_id: sms,
      type: 'sms',
      provider: 'sandbox',
      name: 'S',
      metadata: {},
    });
    await harness.request(ws, MESSAGING_REQUEST_TYPES.templateCreate, {
      template_id: template,
      name: 'sms',
      channel: 'sms',
      body: 'Hi',
    });
    const rule = await harness.request(ws, ALERT_REQUEST_TYPES.alertRuleCreate, {
      name: 'SMS failing',
      metric: 'failure_rate',
      comparator: 'gt',
      threshold: 0.4,
      window_minutes: 5,
      min_volume: 2,
      scope: { channel_id: sms },
    });
    expect(rule.data).toMatchObject({ status: 201 });
    const phones = ['+15550200001', '+15550210001', '+15550221111', '+15550232222', '+15550243333'];
    const contacts = phones.map((phone) => ({ id: harness.id(), name: 'C', phone }));
    await harness.contacts(ws, ...contacts);
    const route = [{ channel: 'sms', channel_id: sms, template_id: template }];
    const ids = await Promise.all(
      contacts.map((contact) => fixture.sent(ws, { contact_id: contact.id, route })),
    );
    await eventually('the alert fired and resolved', async () => {
      const facts = harness.kit
        .recordsOn(harness.kit.topics.messaging)
        .filter((fact) => fact.type === ALERT_FACT_TYPES.alertTriggered && fact.workspaceid === String(ws));
      return facts.length === 2 || undefined;
    });
    for (const id of ids.slice(2)) await fixture.untilStatus(ws, id, 'delivered');
    const live = await harness.kit.projectionRows();
    expect(
      live['alert_rules']!.filter((row) => Number((row as { workspace_id: string }).workspace_id) === ws),
    ).toHaveLength(2);
    expect(live['alerts']!.length).toBeGreaterThan(0);
    expect(live['alert_outcome_buckets']!.length).toBeGreaterThan(0);

    const rebuilt = await harness.kit.rebuild();
    expect(await harness.kit.projectionRows(rebuilt)).toEqual(live);
  });

  it('makes the same tracked links with the same click counts, from clicks taken at their recorded times', async () => {
    const ws = harness.workspace();
    const [sms, template] = [harness.id(), harness.id()];
    // Through the log, as a rebuild must find them.
    const setup: Array<[string, object]> = [
      [
        MESSAGING_REQUEST_TYPES.channelCreate,
        { channel_id: sms, type: 'sms', provider: 'sandbox', name: 'S', metadata: {} },
      ],
      [
        MESSAGING_REQUEST_TYPES.templateCreate,
        {
          template_id: template,
          name: 'links',
          channel: 'sms',
          body: 'Pay https://pay.example.com/1, help https://help.example.com',
        },
      ],
    ];
    for (const [type, data] of setup) {
      expect((await harness.request(ws, type, data)).type).toBe(OUTCOME_TYPES.accepted);
    }
    const contacts = [harness.id(), harness.id()];
    await harness.contacts(ws, ...contacts.map((id) => ({ id, name: 'L', phone: '+15550000' })));
    const ids: string[] = [];
    for (const contactId of contacts) {
      ids.push(
        await fixture.sent(ws, { contact_id: contactId, route: [{ channel: 'sms', template_id: template }] }),
      );
    }
    const messages = await Promise.all(ids.map((id) => fixture.untilStatus(ws, id, 'delivered')));
    const clicks = messages.flatMap((message, m) =>
      [
        [0, 500, 'Mozilla/5.0'],
        [0, 4_000, 'Mozilla/5.0'],
        [0, 6_000, 'Twitterbot/1.0'],
        [1, 8_000 + m, 'Mozilla/5.0'],
        [0, 9_000, 'Mozilla/5.0'],
      ].map(([index, after, agent]) =>
        requestEnvelope(
          LINK_REQUEST_TYPES.linkClicks,
          {
            clicks: [
              {
                message_id: message.id,
                link_index: index as number,
                user_agent: agent as string,
                clicked_at: new Date(new Date(message.sent_at!).getTime() + (after as number)).toISOString(),
              },
            ],
          },
          { source: 'gateway', workspaceid: String(ws) },
        ),
      ),
    );
    await harness.kit.publish(harness.kit.topics.requests, clicks);
    await eventually('every click counted', async () => {
      const [row]: Array<{ n: number }> = await harness.kit.db.query(
        'SELECT sum(clicks + bot_clicks)::int AS n FROM message_links WHERE message_id = ANY ($1)',
        [ids],
      );
      return row!.n === clicks.length || undefined;
    });
    const live = await harness.kit.projectionRows();
    const links = live['message_links'] as Array<Record<string, unknown>>;
    expect(links.filter((link) => ids.includes(link['message_id'] as string))).toHaveLength(4);

    const rebuilt = await harness.kit.rebuild();
    expect(await harness.kit.projectionRows(rebuilt)).toEqual(live);
  });
});
