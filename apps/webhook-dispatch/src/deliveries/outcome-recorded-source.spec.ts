import { RUN_FACT_TYPES, type DecodedRecord } from '@cms/contracts';
import { registryOf } from '@cms/service-kit';
import type { EntityManager } from 'typeorm';

import type { Receiver } from '../endpoints/webhook-endpoint.repository';
import { WEBHOOK_DISPATCH_SERVICE } from '../webhook-dispatch.service';
import { FanOut } from './fan-out/fan-out';
import { SOURCE_RECORD_DEFINITIONS, sourceTopics, WEBHOOK_SOURCES } from './webhook-sources';

const MESSAGE_ID = 'msg_0123456789abcdef0123456789abcdef';

/** outcome.recorded as the automations service publishes it: the webhook's data and its created_at. */
function recorded(overrides: Record<string, unknown> = {}): DecodedRecord {
  return registryOf(WEBHOOK_DISPATCH_SERVICE).validate({
    specversion: '1.0',
    id: '0b7e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5d',
    type: RUN_FACT_TYPES.outcomeRecorded,
    source: 'automations',
    subject: '31',
    time: '2026-03-01T12:00:01.000Z',
    workspaceid: '12',
    correlationid: 'c',
    dataversion: 1,
    data: {
      id: 31,
      goal: 'order_placed',
      workflow: { id: 5, name: 'Onboarding', run_id: 31 },
      credited_message_id: MESSAGE_ID,
      channel: 'sms',
      contact: { id: 9, external_id: 'crm-9', name: 'Grace', phone: '+447700900123', email: null },
      event: { id: 401, data: { order_id: 'A-17', total: 42.5 } },
      occurred_at: '2026-03-01T12:00:00.000Z',
      created_at: '2026-03-01T12:00:01.000Z',
      ...overrides,
    },
  });
}

describe('the outcome.recorded webhook', () => {
  it('is made from the outcome.recorded fact of the automations topic with the data of the specification', () => {
    const source = WEBHOOK_SOURCES[RUN_FACT_TYPES.outcomeRecorded]!;
    expect([source.kind, source.topic]).toEqual(['outcome.recorded', 'automations']);
    const data = source.data(recorded());
    // The specification's fields in its order; the fact's created_at is the outcome's, not the webhook's.
    expect(Object.keys(data)).toEqual([
      'id',
      'goal',
      'workflow',
      'credited_message_id',
      'channel',
      'contact',
      'event',
      'occurred_at',
    ]);
    expect(data).toEqual({
      id: 31,
      goal: 'order_placed',
      workflow: { id: 5, name: 'Onboarding', run_id: 31 },
      credited_message_id: MESSAGE_ID,
      channel: 'sms',
      contact: { id: 9, external_id: 'crm-9', name: 'Grace', phone: '+447700900123', email: null },
      event: { id: 401, data: { order_id: 'A-17', total: 42.5 } },
      occurred_at: '2026-03-01T12:00:00.000Z',
    });
  });

  it('gives null for the credited message and its channel when no message of the run is credited', () => {
    const data = WEBHOOK_SOURCES[RUN_FACT_TYPES.outcomeRecorded]!.data(
      recorded({
        credited_message_id: null,
        channel: null,
        contact: { id: 9, external_id: null, name: null, phone: null, email: 'grace@example.com' },
      }),
    );
    expect(data).toMatchObject({
      credited_message_id: null,
      channel: null,
      contact: { id: 9, external_id: null, name: null, phone: null, email: 'grace@example.com' },
    });
  });

  it('needs no order (one fact per outcome), and the facts consumer reads the automations topic', () => {
    expect(WEBHOOK_SOURCES[RUN_FACT_TYPES.outcomeRecorded]!.subject).toBeUndefined();
    expect(sourceTopics()).toContain('automations');
  });

  it("takes only outcome.recorded of the automations service's record types", () => {
    const types = SOURCE_RECORD_DEFINITIONS.map((definition) => definition.type);
    expect(types).toContain(RUN_FACT_TYPES.outcomeRecorded);
    for (const input of [
      'automation.event.recorded',
      'automation.timer.fired',
      'automation.message.recorded',
    ])
      expect(types).not.toContain(input);
  });

  it('reaches the endpoints of its workspace that chose outcome.recorded, and only them', async () => {
    const createdAt = new Date('2026-03-01T00:00:00Z');
    const receivers: Receiver[] = [
      { id: 'a', workspaceId: 12, eventTypes: ['outcome.recorded'], createdAt },
      { id: 'b', workspaceId: 12, eventTypes: ['message.sent', 'link.clicked'], createdAt },
      { id: 'c', workspaceId: 12, eventTypes: ['consent.revoked', 'outcome.recorded'], createdAt },
      // Made after the outcome was recorded.
      { id: 'd', workspaceId: 12, eventTypes: ['outcome.recorded'], createdAt: new Date('2026-03-02') },
    ];
    const manager = {
      getRepository: () => ({}),
      query: async () =>
        receivers.map((receiver) => ({
          id: receiver.id,
          workspace_id: String(receiver.workspaceId),
          event_types: receiver.eventTypes,
          created_at: receiver.createdAt,
        })),
    } as unknown as EntityManager;
    const fact = recorded();
    const deliveries = (await FanOut.load(manager, [fact])).deliveriesOf(fact, '7');
    expect(deliveries.map((delivery) => [delivery.endpointId, delivery.eventType])).toEqual([
      ['a', 'outcome.recorded'],
      ['c', 'outcome.recorded'],
    ]);
    expect(deliveries[0]!.ordered).toBeUndefined();
    const body = JSON.parse(deliveries[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: deliveries[0]!.id,
      type: 'outcome.recorded',
      created_at: '2026-03-01T12:00:01.000Z',
      data: { id: 31, goal: 'order_placed', occurred_at: '2026-03-01T12:00:00.000Z' },
    });
    expect(body['data']).not.toHaveProperty('created_at');
  });
});
