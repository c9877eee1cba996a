import { CONSENT_FACT_TYPES, WEBHOOK_EVENT_TYPES, type DecodedRecord } from '@cms/contracts';
import { registryOf } from '@cms/service-kit';

import { WEBHOOK_DISPATCH_SERVICE } from '../webhook-dispatch.service';
import { serialiseEnvelope } from './webhook-envelope';
import { sourceTopics, WEBHOOK_SOURCES } from './webhook-sources';

function consentRecord(type: string, status: string): DecodedRecord {
  return registryOf(WEBHOOK_DISPATCH_SERVICE).validate({
    specversion: '1.0',
    id: '0b7e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
    type,
    source: 'contacts',
    time: '2026-03-01T12:00:00.000Z',
    workspaceid: '12',
    correlationid: 'c',
    dataversion: 1,
    data: {
      channel: 'email',
      status,
      source: 'api',
      contact: { id: 9, external_id: 'crm-9', name: 'Grace', phone: null, email: 'grace@example.com' },
      occurred_at: '2026-03-01T12:00:00.000Z',
    },
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

  it('names only event kinds of the specification, and the topics the facts consumer reads', () => {
    for (const source of Object.values(WEBHOOK_SOURCES)) expect(WEBHOOK_EVENT_TYPES).toContain(source.kind);
    expect(sourceTopics()).toEqual(['contacts']);
  });

  it('serialises the envelope as {id, type, created_at, data}, in that order', () => {
    const body = serialiseEnvelope('id-1', 'consent.granted', new Date('2026-03-01T12:00:00Z'), { a: 1 });
    expect(body).toBe(
      '{"id":"id-1","type":"consent.granted","created_at":"2026-03-01T12:00:00.000Z","data":{"a":1}}',
    );
  });
});
