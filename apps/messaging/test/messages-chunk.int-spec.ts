import {
  MESSAGING_REQUEST_TYPES,
  SUPPRESSION_FACT_TYPES,
  type DecodedRecord,
  type Envelope,
} from '@cms/contracts';
import type { RecordContext } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import { MessagesChunk } from '../src/messages/chunk/messages-chunk';
import { fallbackMessageId, messageIdOfRecord } from '../src/messages/message-ids';
import { MessageRequests } from '../src/messages/message-requests';
import { MessagesFixture } from './support/messages.fixture';
import { MessagingHarness } from './support/messaging.harness';

/** What a run of records left behind: the rows it wrote and the records it emitted, in order. */
interface RunResult {
  rows: Record<string, unknown[]>;
  emitted: Array<{ topic: string; envelope: Envelope }>;
  statements: number;
}

const TABLES = {
  messages: 'SELECT * FROM messages ORDER BY id',
  sendJobs: 'SELECT * FROM messaging_send_jobs ORDER BY message_id',
  timers: 'SELECT * FROM messaging_timers ORDER BY id',
  suppressions: 'SELECT * FROM suppressions ORDER BY id',
  channels: 'SELECT * FROM channels ORDER BY id',
  alerts: 'SELECT * FROM alerts ORDER BY id',
  alertBuckets: 'SELECT * FROM alert_outcome_buckets ORDER BY workspace_id, minute, channel_id',
};

describe('messages: a chunk of message requests', () => {
  let harness: MessagingHarness;
  let fixture: MessagesFixture;

  beforeAll(async () => {
    harness = await MessagingHarness.start();
    fixture = new MessagesFixture(harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  /** Runs `apply` in a transaction rolled back afterwards, counting its statements. */
  async function rolledBack(apply: (manager: EntityManager, emitted: RunResult['emitted']) => Promise<void>) {
    const runner = harness.kit.db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    let statements = 0;
    const query = runner.query.bind(runner);
    runner.query = ((...args: Parameters<typeof query>) => {
      statements += 1;
      return query(...args);
    }) as typeof runner.query;
    try {
      const emitted: RunResult['emitted'] = [];
      await apply(runner.manager, emitted);
      const counted = statements;
      const rows: RunResult['rows'] = {};
      for (const [table, sql] of Object.entries(TABLES)) rows[table] = (await query(sql)) as unknown[];
      return { rows, emitted, statements: counted };
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  function contextOf(manager: EntityManager, offset: number, emitted: RunResult['emitted']): RecordContext {
    return {
      manager,
      topic: harness.kit.topics.requests,
      partition: 0,
      offset: String(offset),
      key: null,
      replaying: false,
      emit: (topic, envelope) => emitted.push({ topic, envelope }),
    };
  }

  it('decides a mixed run exactly as one record at a time does, in far fewer statements', async () => {
    const workspaceId = harness.workspace();
    const other = harness.workspace();
    const sms = await fixture.channel(workspaceId, 'sms');
    await fixture.channel(workspaceId, 'email');
    const smsTemplate = await fixture.template(workspaceId, 'sms', 'Hi {{ contact.name }}');
    const emailTemplate = await fixture.template(workspaceId, 'email', 'Hello {{ contact.name }}');
    const contactId = harness.id();
    await harness.contacts(workspaceId, {
      id: contactId,
      name: 'Ada',
      phone: '+15550001',
      email: 'ada@example.com',
    });

    const base = Date.parse('2026-11-24T10:00:00.000Z');
    let tick = 0;
    const record = (type: string, workspace: number, data: object): DecodedRecord => {
      tick += 1;
      const time = new Date(base + tick * 1000).toISOString();
      return { ...harness.kit.envelope(type, workspace, data, { time }), writtenVersion: 1 } as DecodedRecord;
    };
    const send = (workspace: number, data: object) =>
      record(MESSAGING_REQUEST_TYPES.messageSend, workspace, data);
    const attempt = (id: string, data: object) =>
      record(MESSAGING_REQUEST_TYPES.messageAttempt, workspaceId, {
        message_id: id,
        attempted_at: new Date(base + tick * 1000 + 500).toISOString(),
        ...data,
      });
    const receipt = (id: string, status: string) =>
      record(MESSAGING_REQUEST_TYPES.messageReceipt, workspaceId, {
        message_id: id,
        status,
        at: new Date(base + tick * 1000 + 700).toISOString(),
        source: 'sandbox',
      });

    const fallingBack = send(workspaceId, {
      contact_id: contactId,
      route: [
        { channel: 'sms', template_id: smsTemplate },
        { channel: 'email', template_id: emailTemplate },
      ],
      idempotency_key: 'k1',
    });
    const first = messageIdOfRecord(fallingBack.id);
    const waiting = send(workspaceId, {
      contact_id: contactId,
      route: [{ channel_id: sms, template_id: smsTemplate, wait_for: 'delivered', timeout: 'PT30S' }],
    });
    const second = messageIdOfRecord(waiting.id);
    // Two more failures that put an address on the list: one added earlier in the run, one stored.
    const toEmail = send(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'email', template_id: emailTemplate }],
    });
    const toSms = send(workspaceId, {
      contact_id: contactId,
      route: [{ channel: 'sms', template_id: smsTemplate }],
    });
    const records: DecodedRecord[] = [
      fallingBack,
      // Refused: a template the workspace does not have, and another workspace's channel.
      send(workspaceId, { contact_id: contactId, route: [{ channel: 'sms', template_id: 999_999 }] }),
      send(other, { contact_id: contactId, route: [{ channel_id: sms, template_id: smsTemplate }] }),
      // The same Idempotency-Key: the original, 200.
      send(workspaceId, {
        contact_id: contactId,
        route: [{ channel: 'sms', template_id: smsTemplate }],
        idempotency_key: 'k1',
      }),
      attempt(first, {
        outcome: 'failed',
        recipient: '+15550001',
        body: 'Hi Ada',
        failure: { code: 'invalid_recipient', provider_code: null, detail: 'not a number' },
      }),
      waiting,
      attempt(second, { outcome: 'sent', recipient: '+15550001', body: 'Hi Ada', provider_message_id: 'p1' }),
      receipt(second, 'delivered'),
      receipt(second, 'delivered'),
      attempt(fallbackMessageId(first, 1), {
        outcome: 'failed',
        recipient: 'ada@example.com',
        body: 'Hello Ada',
        failure: { code: 'opted_out', provider_code: 'x', detail: 'unsubscribed' },
      }),
      toEmail,
      attempt(messageIdOfRecord(toEmail.id), {
        outcome: 'failed',
        recipient: 'ada@example.com',
        body: 'Hello Ada',
        failure: { code: 'bounced', provider_code: '550', detail: 'no such user' },
      }),
      toSms,
      attempt(messageIdOfRecord(toSms.id), {
        outcome: 'failed',
        recipient: '+15550001',
        body: 'Hi Ada',
        failure: { code: 'spam_complaint', provider_code: 'x', detail: 'reported as spam' },
      }),
      record(MESSAGING_REQUEST_TYPES.messageTimeout, workspaceId, {
        message_id: second,
        step: 0,
        wait_for: 'delivered',
        at: new Date(base).toISOString(),
      }),
      attempt('msg_00000000000000000000000000000000', { outcome: 'sent', recipient: '+1', body: 'x' }),
    ];

    const requests = harness.service.app.get(MessageRequests);
    const chunk = harness.service.app.get(MessagesChunk);
    const stored = (manager: EntityManager) =>
      manager.query(
        `INSERT INTO suppressions (id, workspace_id, channel, address, reason, source, created_at)
         VALUES ('sup_00000000000000000000000000000001', $1, 'sms', '+15550001', 'manual', 'api', $2)`,
        [workspaceId, new Date(base).toISOString()],
      );
    const alone = await rolledBack(async (manager, emitted) => {
      await stored(manager);
      for (const [offset, each] of records.entries()) {
        await requests.decide(each, contextOf(manager, offset, emitted));
      }
    });
    const together = await rolledBack(async (manager, emitted) => {
      await stored(manager);
      expect(records.every((each) => chunk.takes(each))).toBe(true);
      await chunk.apply(
        records.map((each, offset) => ({
          record: each,
          context: contextOf(manager, offset, emitted),
          inSpan: (work) => work(),
        })),
        manager,
      );
    });

    expect(together.rows).toEqual(alone.rows);
    // The same records in the same order, byte for byte.
    expect(together.emitted.map((each) => JSON.stringify(each))).toEqual(
      alone.emitted.map((each) => JSON.stringify(each)),
    );
    // The run did what it says: two refusals, the original for the repeat, a fallback, a suppression.
    const statuses = alone.emitted
      .filter((each) => each.topic === harness.kit.topics.outcomes)
      .map((each) => (each.envelope.data as { status: number }).status);
    expect(statuses).toEqual([202, 422, 422, 200, 202, 202, 202]);
    expect(alone.rows['messages']).toHaveLength(5);
    expect(alone.rows['suppressions']).toHaveLength(2);
    // Only the address the run added is published: not the one added twice, nor the one stored.
    const listFacts = alone.emitted
      .map((each) => each.envelope)
      .filter((envelope) => envelope.type.startsWith('suppression.'));
    expect(listFacts).toEqual([
      expect.objectContaining({
        type: SUPPRESSION_FACT_TYPES.added,
        subject: expect.stringMatching(/^sup_/),
        data: expect.objectContaining({
          channel: 'email',
          address: 'ada@example.com',
          reason: 'opted_out',
          source: 'provider',
        }),
      }),
    ]);
    const byId = new Map(
      (alone.rows['messages'] as Array<{ id: string; status: string; history: unknown[] }>).map((row) => [
        row.id,
        row,
      ]),
    );
    expect(byId.get(first)?.status).toBe('failed');
    expect(byId.get(fallbackMessageId(first, 1))?.status).toBe('failed');
    // Delivered, then the late repeat kept in history only; the wait ended, its timeout removed.
    expect(byId.get(second)?.status).toBe('delivered');
    expect(byId.get(second)?.history).toHaveLength(4);
    expect(alone.rows['timers']).toEqual([]);
    expect(together.statements).toBeLessThan(alone.statements / 4);
  });

  it('judges alert rules in a chunk exactly as one record at a time does: one alert fired, then resolved', async () => {
    const workspaceId = harness.workspace();
    const sms = await fixture.channel(workspaceId, 'sms');
    const template = await fixture.template(workspaceId, 'sms', 'Hi');
    await harness.kit.db.query(
      `INSERT INTO alert_rules (workspace_id, id, name, metric, comparator, threshold, window_minutes, min_volume,
                                scope, enabled, created_at, updated_at)
       VALUES ($1, 1, 'r', 'failure_rate', 'gt', 0.4, 5, 2, $2, true, now(), now())`,
      [workspaceId, JSON.stringify({ channel_id: sms })],
    );
    const contacts = [1, 2, 3, 4, 5].map((n) => ({ id: harness.id(), name: `C${n}`, phone: `+1555000${n}` }));
    await harness.contacts(workspaceId, ...contacts);

    const base = Date.parse('2026-11-24T10:00:00.000Z');
    let tick = 0;
    const record = (type: string, data: object): DecodedRecord => {
      tick += 1;
      const time = new Date(base + tick * 1000).toISOString();
      return {
        ...harness.kit.envelope(type, workspaceId, data, { time }),
        writtenVersion: 1,
      } as DecodedRecord;
    };
    const sends = contacts.map((contact) =>
      record(MESSAGING_REQUEST_TYPES.messageSend, {
        contact_id: contact.id,
        route: [{ channel_id: sms, template_id: template }],
      }),
    );
    const ids = sends.map((send) => messageIdOfRecord(send.id));
    const attempt = (index: number, failed: boolean) =>
      record(MESSAGING_REQUEST_TYPES.messageAttempt, {
        message_id: ids[index],
        attempted_at: new Date(base + tick * 1000).toISOString(),
        recipient: contacts[index]!.phone,
        body: 'Hi',
        ...(failed
          ? { outcome: 'failed', failure: { code: 'invalid_recipient', provider_code: null } }
          : { outcome: 'sent', provider_message_id: `p${index}` }),
      });
    const delivered = (index: number) =>
      record(MESSAGING_REQUEST_TYPES.messageReceipt, {
        message_id: ids[index],
        status: 'delivered',
        at: new Date(base + tick * 1000).toISOString(),
        source: 'sandbox',
      });
    const records: DecodedRecord[] = [
      ...sends,
      attempt(0, true),
      attempt(1, true),
      attempt(2, false),
      attempt(3, false),
      attempt(4, false),
      delivered(2),
      delivered(3),
      delivered(4),
    ];

    const requests = harness.service.app.get(MessageRequests);
    const chunk = harness.service.app.get(MessagesChunk);
    const alone = await rolledBack(async (manager, emitted) => {
      for (const [offset, each] of records.entries()) {
        await requests.decide(each, contextOf(manager, offset, emitted));
      }
    });
    const together = await rolledBack(async (manager, emitted) => {
      await chunk.apply(
        records.map((each, offset) => ({
          record: each,
          context: contextOf(manager, offset, emitted),
          inSpan: (work) => work(),
        })),
        manager,
      );
    });

    expect(together.rows).toEqual(alone.rows);
    expect(together.emitted.map((each) => JSON.stringify(each))).toEqual(
      alone.emitted.map((each) => JSON.stringify(each)),
    );
    const notifications = alone.emitted
      .filter((each) => each.envelope.type === 'alert.triggered')
      .map((each) => each.envelope.data as { status: string; notification_seq: number; sample_size: number });
    expect(notifications).toEqual([
      expect.objectContaining({ status: 'firing', notification_seq: 1, sample_size: 2 }),
      expect.objectContaining({ status: 'resolved', notification_seq: 2, sample_size: 5, value: 0.4 }),
    ]);
    expect(alone.rows['alerts']).toHaveLength(1);
    expect(together.statements).toBeLessThan(alone.statements / 4);
  });
});
