import { ALERT_FACT_TYPES } from '@cms/contracts';
import { registryOf } from '@cms/service-kit';

import { WEBHOOK_DISPATCH_SERVICE } from '../webhook-dispatch.service';
import { sourceTopics, WEBHOOK_SOURCES } from './webhook-sources';

const ALERT_ID = 'alert_0123456789abcdef0123456789abcdef';

/** alert.triggered as the messaging service publishes it. */
const ALERT = {
  id: ALERT_ID,
  rule_id: 2,
  status: 'resolved',
  metric: 'failure_rate',
  comparator: 'gt',
  value: 0.1,
  threshold: 0.2,
  window_minutes: 15,
  sample_size: 40,
  scope: { channel_id: 3 },
  top_failure_codes: [{ code: 'invalid_recipient', count: 4, fix: 'Correct the number.' }],
  started_at: '2026-03-01T11:50:00.000Z',
  resolved_at: '2026-03-01T12:00:00.000Z',
  created_at: '2026-03-01T11:50:00.000Z',
  updated_at: '2026-03-01T12:00:00.000Z',
  notification_seq: 2,
};

describe('alert.triggered from the messaging topic', () => {
  const record = registryOf(WEBHOOK_DISPATCH_SERVICE).validate({
    specversion: '1.0',
    id: '0b7e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
    type: ALERT_FACT_TYPES.alertTriggered,
    source: 'messaging',
    time: '2026-03-01T12:00:00.000Z',
    workspaceid: '12',
    correlationid: 'c',
    dataversion: 1,
    data: ALERT,
  });

  it('becomes the alert.triggered webhook with the alert and its notification_seq as data', () => {
    const source = WEBHOOK_SOURCES[ALERT_FACT_TYPES.alertTriggered]!;
    expect([source.kind, source.topic]).toEqual(['alert.triggered', 'messaging']);
    expect(source.data(record)).toEqual(ALERT);
    expect(Object.keys(source.data(record))).toEqual(Object.keys(ALERT));
  });

  it('orders the notifications of one alert by its id, on a topic the facts consumer reads already', () => {
    expect(WEBHOOK_SOURCES[ALERT_FACT_TYPES.alertTriggered]!.subject?.(record)).toBe(ALERT_ID);
    expect(sourceTopics()).toEqual(['contacts', 'messaging', 'automations']);
  });
});
