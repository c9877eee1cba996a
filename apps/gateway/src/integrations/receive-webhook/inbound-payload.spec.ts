import { JsonApiException } from '@cms/http';

import type { FieldMapping } from '../integration.entity';
import { readInboundPayload, valueAt, type InboundRequest } from './inbound-payload';

function read(payload: Record<string, unknown>, mappings: FieldMapping[] = []): InboundRequest {
  return readInboundPayload(payload, mappings);
}

function contactOf(request: InboundRequest): Record<string, unknown> {
  return request.kind === 'event' ? { ...request.event.contact } : { ...request.contact };
}

function refusal(payload: Record<string, unknown>, mappings: FieldMapping[] = []): Array<string | undefined> {
  try {
    read(payload, mappings);
  } catch (error) {
    if (!(error instanceof JsonApiException)) throw error;
    expect(error.getStatus()).toBe(422);
    return error.errors.map((item) => item.source?.pointer);
  }
  throw new Error('the payload was accepted');
}

describe('valueAt', () => {
  it('walks own members and array indexes, and nothing inherited', () => {
    const payload = { a: { b: [{ c: 1 }, { c: 2 }] }, 'Full Name': 'X' };
    expect(valueAt(payload, 'a.b.1.c')).toBe(2);
    expect(valueAt(payload, 'Full Name')).toBe('X');
    expect(valueAt(payload, 'a.b.x')).toBeUndefined();
    expect(valueAt(payload, 'a.b.01')).toBeUndefined();
    expect(valueAt(payload, 'a.constructor')).toBeUndefined();
    expect(valueAt(payload, 'toString')).toBeUndefined();
  });
});

describe('readInboundPayload', () => {
  it('makes an event request when the payload names an event, and a contact-only one when it does not', () => {
    const event = read({
      event: 'order.paid',
      phone: '+1 415',
      data: { total: 3 },
      occurred_at: '2026-01-01',
    });
    expect(event.kind).toBe('event');
    expect(event.kind === 'event' && { ...event.event, contact: { ...event.event.contact } }).toEqual({
      name: 'order.paid',
      contact: { phone: '+1 415' },
      data: { total: 3 },
      occurred_at: '2026-01-01',
    });
    expect(read({ phone: '+1 415', data: { ignored: true } })).toEqual({
      kind: 'contact',
      contact: { phone: '+1 415' },
    });
    expect(read({ event: null, email: 'a@example.com' }).kind).toBe('contact');
  });

  it.each([
    [
      { name: 'N', phone: 'P', email: 'e@x.io' },
      { name: 'N', phone: 'P', email: 'e@x.io' },
    ],
    [{ contact: { name: 'N', phone: 'P', email: 'e@x.io' } }, { name: 'N', phone: 'P', email: 'e@x.io' }],
    [
      { first_name: 'Ada', last_name: 'L', id: 7 },
      { name: 'Ada L', external_id: '7' },
    ],
    [{ contact: { first_name: 'Ada', id: 'c-1' } }, { name: 'Ada', external_id: 'c-1' }],
    [{ external_id: 'x', id: 'y', contact: { id: 'z' } }, { external_id: 'x' }],
    [{ id: 'y', contact: { id: 'z' } }, { external_id: 'y' }],
    [{ phone: 4155550100 }, { phone: '4155550100' }],
    [{ phone: '  ', contact: { phone: ' +1 ' } }, { phone: '+1' }],
    [{ phone: { nested: true }, email: 'e@x.io' }, { email: 'e@x.io' }],
    [
      { email: 'e@x.io', contact: { data: { tier: 'gold' }, marketing_consent: { sms: true } } },
      { email: 'e@x.io', data: { tier: 'gold' }, marketing_consent: { sms: true } },
    ],
  ])('reads the default places of %j', (payload, expected) => {
    expect(contactOf(read(payload))).toEqual(expected);
  });

  it('takes opt_in as consent or its withdrawal on every channel', () => {
    const all = (flag: boolean) =>
      Object.fromEntries(
        ['whatsapp', 'sms', 'email', 'rcs', 'telegram', 'messenger', 'instagram', 'browser_push'].map((c) => [
          c,
          flag,
        ]),
      );
    expect(contactOf(read({ email: 'e@x.io', opt_in: true })).marketing_consent).toEqual(all(true));
    expect(contactOf(read({ email: 'e@x.io', opt_in: 'No' })).marketing_consent).toEqual(all(false));
    expect(
      contactOf(read({ email: 'e@x.io', opt_in: 1, marketing_consent: { sms: false } })).marketing_consent,
    ).toEqual({
      sms: false,
    });
    expect(refusal({ email: 'e@x.io', opt_in: 'maybe' })).toEqual(['/data/attributes/opt_in']);
  });

  it('reads the field mappings before the default places, in order, falling back when a mapped place is empty', () => {
    const mappings: FieldMapping[] = [
      { source: 'lead.mobile', target: 'phone' },
      { source: 'lead.phones.0', target: 'phone' },
      { source: 'lead.ref', target: 'external_id' },
      { source: 'lead.given', target: 'first_name' },
      { source: 'lead.family', target: 'last_name' },
      { source: 'lead.gdpr', target: 'marketing_consent' },
    ];
    const payload = {
      phone: 'default-phone',
      external_id: 'default-id',
      name: 'Default Name',
      opt_in: false,
      lead: {
        phones: ['second-mapping'],
        ref: 'mapped-id',
        given: 'Mia',
        family: 'M',
        gdpr: { email: true },
      },
    };
    expect(contactOf(read(payload, mappings))).toEqual({
      phone: 'second-mapping',
      external_id: 'mapped-id',
      name: 'Mia M',
      marketing_consent: { email: true },
    });
    expect(contactOf(read({ phone: 'default-phone', lead: { mobile: '' } }, mappings))).toEqual({
      phone: 'default-phone',
    });
    expect(
      contactOf(read({ email: 'e@x.io', name: 'Whole' }, [{ source: 'x.full', target: 'name' }])),
    ).toEqual({
      email: 'e@x.io',
      name: 'Whole',
    });
  });

  it('refuses a mapped place of the wrong type, naming it', () => {
    expect(
      refusal({ email: 'e@x.io', lead: { mobile: { n: 1 } } }, [{ source: 'lead.mobile', target: 'phone' }]),
    ).toEqual(['/data/attributes/lead/mobile']);
  });

  it('refuses a payload without a phone, an email or an ID', () => {
    expect(refusal({ name: 'Nobody', event: 'x' })).toEqual(['/data/attributes/contact']);
    expect(refusal({ phone: '', contact: { email: '  ' } })).toEqual(['/data/attributes/contact']);
  });

  it('validates like POST /api/v1/events, pointing at the places the values came from', () => {
    expect(
      refusal({
        event: 'Bad Name',
        contact: { phone: '9'.repeat(31) },
        email: 'nope',
        occurred_at: 'yesterday',
      }),
    ).toEqual(
      expect.arrayContaining([
        '/data/attributes/event',
        '/data/attributes/contact/phone',
        '/data/attributes/email',
        '/data/attributes/occurred_at',
      ]),
    );
    expect(refusal({ email: 'e@x.io', marketing_consent: { fax: true } })).toEqual([
      '/data/attributes/marketing_consent',
    ]);
    expect(refusal({ email: 'e@x.io', event: 5 })).toEqual(['/data/attributes/event']);
  });

  it('takes the payload id as the retry id, as text', () => {
    expect(read({ id: 12, email: 'e@x.io' }).retryId).toBe('12');
    expect(read({ id: ' r-1 ', email: 'e@x.io' }).retryId).toBe('r-1');
    expect(read({ email: 'e@x.io' }).retryId).toBeUndefined();
    expect(refusal({ id: 'x'.repeat(256), email: 'e@x.io' })).toEqual(['/data/attributes/id']);
    expect(refusal({ id: [1], email: 'e@x.io' })).toEqual(['/data/attributes/id']);
  });
});
