import { MESSAGING_REQUEST_TYPES, OUTCOME_TYPES } from '@cms/contracts';
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
    // Six sent, three of them replaced (a timeout, an invalid recipient, no phone).
    expect(live['messages']!.length).toBe(9);
    expect(live['suppressions']!.length).toBe(1);

    const rebuilt = await harness.kit.rebuild();
    expect(await harness.kit.projectionRows(rebuilt)).toEqual(live);
    // Each send job the rebuild made again was removed again by the record of its attempt.
    expect(await count('messaging_send_jobs', rebuilt)).toBe(0);
    expect(await count('messaging_timers', rebuilt)).toBe(0);
  });
});
