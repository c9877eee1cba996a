import {
  CONSENT_FACT_TYPES,
  MESSAGE_WEBHOOK_FACT_TYPES,
  MESSAGING_FACT_TYPES,
  SUPPRESSION_FACT_TYPES,
  WEBHOOK_EVENT_TYPES,
  type DecodedRecord,
} from '@cms/contracts';
import { registryOf } from '@cms/service-kit';

import { WEBHOOK_DISPATCH_SERVICE } from '../webhook-dispatch.service';
import { serialiseEnvelope } from './webhook-envelope';
import { sourceTopics, WEBHOOK_SOURCES } from './webhook-sources';

function fact(type: string, source: string, data: Record<string, unknown>): DecodedRecord {
  return registryOf(WEBHOOK_DISPATCH_SERVICE).validate({
    specversion: '1.0',
    id: '0b7e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
    type,
    source,
    time: '2026-03-01T12:00:00.000Z',
    workspaceid: '12',
    correlationid: 'c',
    dataversion: 1,
    data,
  });
}

function consentRecord(type: string, status: string): DecodedRecord {
  return fact(type, 'contacts', {
    channel: 'email',
    status,
    source: 'api',
    contact: { id: 9, external_id: 'crm-9', name: 'Grace', phone: null, email: 'grace@example.com' },
    occurred_at: '2026-03-01T12:00:00.000Z',
  });
}

const MESSAGE_ID = 'msg_0123456789abcdef0123456789abcdef';

/** A message fact as the messaging service publishes it, with the fields no webhook carries. */
function messageRecord(type: string, overrides: Record<string, unknown> = {}): DecodedRecord {
  return fact(type, 'messaging', {
    id: MESSAGE_ID,
    direction: 'outbound',
    status: 'failed',
    channel: 'sms',
    channel_id: 3,
    recipient: '+447700900123',
    template: 'welcome',
    workflow: { id: 5, name: 'Onboarding', run_id: 77, step: 'send-welcome' },
    campaign_id: null,
    fallback_from: 'msg_ffffffffffffffffffffffffffffffff',
    failure: {
      code: 'unreachable',
      reason: 'The phone could not be reached.',
      fix: 'Try again later.',
      provider_code: '30003',
    },
    suppression: null,
    contact: { id: 9, external_id: 'crm-9', name: 'Grace', phone: '+447700900123', email: null },
    sent_at: '2026-03-01T11:59:58.000Z',
    delivered_at: null,
    read_at: null,
    failed_at: '2026-03-01T12:00:00.000Z',
    body: 'Hello Grace',
    at: '2026-03-01T12:00:00.000Z',
    ...overrides,
  });
}

describe('the table from facts to webhook events', () => {
  it('maps consent.granted and consent.revoked to the kinds of the same names, with the specification data', () => {
    for (const [type, status] of [
      [CONSENT_FACT_TYPES.granted, 'granted'],
      [CONSENT_FACT_TYPES.revoked, 'revoked'],
    ] as const) {
      const source = WEBHOOK_SOURCES[type]!;
      expect(source.kind).toBe(type);
      expect(source.data(consentRecord(type, status))).toEqual({
        channel: 'email',
        status,
        source: 'api',
        contact: { id: 9, external_id: 'crm-9', name: 'Grace', phone: null, email: 'grace@example.com' },
      });
    }
  });

  it('maps each message fact to the message.* kind of its name, with exactly the specification data', () => {
    expect(MESSAGE_WEBHOOK_FACT_TYPES).toHaveLength(5);
    for (const type of MESSAGE_WEBHOOK_FACT_TYPES) {
      const source = WEBHOOK_SOURCES[type]!;
      expect([type, source.kind, source.topic]).toEqual([type, type, 'messaging']);
      const data = source.data(messageRecord(type));
      expect(Object.keys(data)).toEqual([
        'id',
        'status',
        'channel',
        'recipient',
        'template',
        'workflow',
        'campaign_id',
        'test',
        'bot',
        'fallback_from',
        'failure',
        'contact',
        'sent_at',
        'delivered_at',
        'read_at',
        'failed_at',
      ]);
      expect(data).toEqual({
        id: MESSAGE_ID,
        status: 'failed',
        channel: 'sms',
        recipient: '+447700900123',
        template: 'welcome',
        workflow: { id: 5, name: 'Onboarding', run_id: 77, step: 'send-welcome' },
        campaign_id: null,
        test: false,
        bot: null,
        fallback_from: 'msg_ffffffffffffffffffffffffffffffff',
        failure: {
          code: 'unreachable',
          reason: 'The phone could not be reached.',
          fix: 'Try again later.',
          provider_code: '30003',
        },
        contact: { id: 9, external_id: 'crm-9', name: 'Grace', phone: '+447700900123', email: null },
        sent_at: '2026-03-01T11:59:58.000Z',
        delivered_at: null,
        read_at: null,
        failed_at: '2026-03-01T12:00:00.000Z',
      });
    }
  });

  it('gives a broadcast message its campaign, and null where a message has no workflow or failure', () => {
    const data = WEBHOOK_SOURCES[MESSAGING_FACT_TYPES.messageSent]!.data(
      messageRecord(MESSAGING_FACT_TYPES.messageSent, {
        status: 'sent',
        workflow: null,
        campaign_id: 41,
        fallback_from: null,
        failure: null,
        failed_at: null,
      }),
    );
    expect(data).toMatchObject({
      status: 'sent',
      workflow: null,
      campaign_id: 41,
      test: false,
      fallback_from: null,
      failure: null,
    });
  });

  it("marks a test send's message test, and a fact published before messages were marked not", () => {
    const source = WEBHOOK_SOURCES[MESSAGING_FACT_TYPES.messageSent]!;
    const sent = { status: 'sent', workflow: null, failure: null, failed_at: null };
    expect(
      source.data(messageRecord(MESSAGING_FACT_TYPES.messageSent, { ...sent, campaign_id: 42, test: true })),
    ).toMatchObject({ campaign_id: 42, test: true });
    // messageRecord's fact has no `test`, as the facts published before it existed.
    expect(source.data(messageRecord(MESSAGING_FACT_TYPES.messageSent, sent))).toMatchObject({ test: false });
  });

  it("gives a bot's message its bot, and a fact published before messages were marked none", () => {
    const source = WEBHOOK_SOURCES[MESSAGING_FACT_TYPES.messageSent]!;
    const sent = { status: 'sent', workflow: null, failure: null, failed_at: null };
    const bot = { id: 3, name: 'Concierge', conversation_id: 17 };
    expect(source.data(messageRecord(MESSAGING_FACT_TYPES.messageSent, { ...sent, bot }))).toMatchObject({
      workflow: null,
      bot,
    });
    // messageRecord's fact has no `bot`, as the facts published before it existed.
    expect(source.data(messageRecord(MESSAGING_FACT_TYPES.messageSent, sent))).toMatchObject({ bot: null });
  });

  it('orders the events of one message by their subject, the message id; consent events need no order', () => {
    for (const type of MESSAGE_WEBHOOK_FACT_TYPES)
      expect(WEBHOOK_SOURCES[type]!.subject?.(messageRecord(type))).toBe(MESSAGE_ID);
    expect(WEBHOOK_SOURCES[CONSENT_FACT_TYPES.granted]!.subject).toBeUndefined();
  });

  it('leaves the facts of messages and of the suppression list, which are no webhook, out of the table', () => {
    for (const type of [
      MESSAGING_FACT_TYPES.messageQueued,
      MESSAGING_FACT_TYPES.messageReceived,
      SUPPRESSION_FACT_TYPES.added,
      SUPPRESSION_FACT_TYPES.removed,
    ])
      expect(WEBHOOK_SOURCES[type]).toBeUndefined();
  });

  it('names only event kinds of the specification, and the topics the facts consumer reads', () => {
    for (const source of Object.values(WEBHOOK_SOURCES)) expect(WEBHOOK_EVENT_TYPES).toContain(source.kind);
    expect(sourceTopics()).toEqual(['contacts', 'messaging', 'automations']);
  });

  it('serialises the envelope as {id, type, created_at, data}, in that order', () => {
    const body = serialiseEnvelope('id-1', 'consent.granted', new Date('2026-03-01T12:00:00Z'), { a: 1 });
    expect(body).toBe(
      '{"id":"id-1","type":"consent.granted","created_at":"2026-03-01T12:00:00.000Z","data":{"a":1}}',
    );
  });
});
