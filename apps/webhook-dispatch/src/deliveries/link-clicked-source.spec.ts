import { LINK_FACT_TYPES, type DecodedRecord } from '@cms/contracts';
import { registryOf } from '@cms/service-kit';

import { WEBHOOK_DISPATCH_SERVICE } from '../webhook-dispatch.service';
import { WEBHOOK_SOURCES } from './webhook-sources';

const MESSAGE_ID = 'msg_0123456789abcdef0123456789abcdef';

function clicked(overrides: Record<string, unknown> = {}): DecodedRecord {
  return registryOf(WEBHOOK_DISPATCH_SERVICE).validate({
    specversion: '1.0',
    id: '0b7e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5c',
    type: LINK_FACT_TYPES.linkClicked,
    source: 'messaging',
    time: '2026-03-01T12:00:00.000Z',
    workspaceid: '12',
    correlationid: 'c',
    dataversion: 1,
    data: {
      message_id: MESSAGE_ID,
      url: 'https://shop.example.com/o/1?a=1',
      link_index: 1,
      contact: { id: 9, external_id: 'crm-9', name: 'Grace', phone: '+447700900123', email: null },
      channel: 'sms',
      workflow: { id: 5, name: 'Onboarding', run_id: 77, step: 'send-welcome' },
      campaign_id: null,
      clicked_at: '2026-03-01T12:00:00.000Z',
      user_agent: 'Mozilla/5.0',
      ...overrides,
    },
  });
}

describe('the link.clicked webhook', () => {
  it('is made from the link.clicked fact with the data of extensions §10', () => {
    const source = WEBHOOK_SOURCES[LINK_FACT_TYPES.linkClicked]!;
    expect([source.kind, source.topic]).toEqual(['link.clicked', 'messaging']);
    expect(source.data(clicked())).toEqual({
      message_id: MESSAGE_ID,
      url: 'https://shop.example.com/o/1?a=1',
      link_index: 1,
      contact: { id: 9, external_id: 'crm-9', name: 'Grace', phone: '+447700900123', email: null },
      channel: 'sms',
      workflow: { id: 5, name: 'Onboarding', run_id: 77, step: 'send-welcome' },
      campaign_id: null,
      clicked_at: '2026-03-01T12:00:00.000Z',
      user_agent: 'Mozilla/5.0',
    });
    expect(source.data(clicked({ workflow: null, campaign_id: 41 }))).toMatchObject({
      workflow: null,
      campaign_id: 41,
    });
  });

  it("comes after its message's own events: its subject is the message id", () => {
    expect(WEBHOOK_SOURCES[LINK_FACT_TYPES.linkClicked]!.subject?.(clicked())).toBe(MESSAGE_ID);
  });
});
