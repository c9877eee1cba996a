import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

import { RecordTypeRegistry } from '../registry/record-type-registry';
import { createEnvelope } from '../envelope/create-envelope';
import {
  BatchUpsertContactsBody,
  MAX_BATCH_CONTACTS,
  UpdateContactBody,
  UpsertContactBody,
} from './contact.bodies';
import { CONTACTS_RECORD_TYPES, CONTACTS_REQUEST_TYPES } from './contacts.record-types';
import { RecordEventBody } from './event.bodies';
import { CreateTagBody, TagAssignmentBody } from './tag.bodies';

/** The failed fields, as paths, the way the gateway's validation pipe sees the body. */
function failures(schema: new () => object, body: unknown): string[] {
  const errors = validateSync(plainToInstance(schema, body) as object, {
    whitelist: true,
    forbidNonWhitelisted: true,
  });
  const paths = (list: ValidationError[], prefix: string): string[] =>
    list.flatMap((error) => {
      const path = prefix ? `${prefix}/${error.property}` : error.property;
      return [...(error.constraints ? [path] : []), ...paths(error.children ?? [], path)];
    });
  return paths(errors, '');
}

describe('UpsertContactBody', () => {
  it('accepts a full contact and nulls where the specification allows them', () => {
    expect(
      failures(UpsertContactBody, {
        name: 'Ada',
        phone: '+44 7700 900123',
        email: 'ada@example.com',
        external_id: null,
        source: 'crm',
        data: { plan: 'gold' },
        marketing_consent: { sms: true, browser_push: false },
      }),
    ).toEqual([]);
  });

  it('names each bad field', () => {
    expect(
      failures(UpsertContactBody, {
        phone: 'x'.repeat(31),
        email: 'nope',
        data: [],
        marketing_consent: { fax: true },
        extra: 1,
      }).sort(),
    ).toEqual(['data', 'email', 'extra', 'marketing_consent', 'name', 'phone']);
    expect(failures(UpsertContactBody, { name: 'A', marketing_consent: { sms: 'yes' } })).toEqual([
      'marketing_consent',
    ]);
  });
});

describe('UpdateContactBody', () => {
  it('takes any subset of the fields but no null name', () => {
    expect(failures(UpdateContactBody, {})).toEqual([]);
    expect(failures(UpdateContactBody, { phone: null, email: null })).toEqual([]);
    expect(failures(UpdateContactBody, { name: null })).toEqual(['name']);
  });
});

describe('BatchUpsertContactsBody', () => {
  it(`takes 1 to ${MAX_BATCH_CONTACTS} objects and leaves their fields to the contacts service`, () => {
    expect(failures(BatchUpsertContactsBody, { contacts: [{ anything: true }] })).toEqual([]);
    expect(failures(BatchUpsertContactsBody, { contacts: [] })).toEqual(['contacts']);
    expect(failures(BatchUpsertContactsBody, { contacts: ['x'] })).toEqual(['contacts']);
    const tooMany = Array.from({ length: MAX_BATCH_CONTACTS + 1 }, () => ({ name: 'a' }));
    expect(failures(BatchUpsertContactsBody, { contacts: tooMany })).toEqual(['contacts']);
  });
});

describe('RecordEventBody', () => {
  const valid = { name: 'order.paid:v2-x_y', contact: { phone: 'any format' } };

  it('accepts an event naming its contact by external_id, phone or email', () => {
    expect(failures(RecordEventBody, valid)).toEqual([]);
    expect(failures(RecordEventBody, { ...valid, contact: { external_id: 'x' } })).toEqual([]);
    expect(failures(RecordEventBody, { ...valid, occurred_at: '2026-03-01T12:00:00.5+02:00' })).toEqual([]);
    expect(failures(RecordEventBody, { ...valid, occurred_at: null, data: { a: 1 } })).toEqual([]);
  });

  it('refuses a contact without identity, a bad name, a time without zone, unknown contact fields', () => {
    expect(failures(RecordEventBody, { ...valid, contact: { name: 'Nobody', phone: ' ' } })).toEqual([
      'contact',
    ]);
    expect(failures(RecordEventBody, { ...valid, name: 'Order Paid' })).toEqual(['name']);
    expect(failures(RecordEventBody, { ...valid, name: 'a'.repeat(101) })).toEqual(['name']);
    expect(failures(RecordEventBody, { ...valid, occurred_at: '2026-03-01T12:00:00' })).toEqual([
      'occurred_at',
    ]);
    expect(failures(RecordEventBody, { ...valid, contact: { email: 'a@example.com', age: 3 } })).toEqual([
      'contact/age',
    ]);
  });
});

describe('tag bodies', () => {
  it('takes #rrggbb and #rgb colours', () => {
    expect(failures(CreateTagBody, { name: 'VIP', color: '#A1b2C3' })).toEqual([]);
    expect(failures(CreateTagBody, { name: 'VIP', color: '#abc' })).toEqual([]);
    expect(failures(CreateTagBody, { name: 'VIP', color: 'red' })).toEqual(['color']);
    expect(failures(CreateTagBody, { color: '#abcd' }).sort()).toEqual(['color', 'name']);
  });

  it('takes integer tag ids', () => {
    expect(failures(TagAssignmentBody, { contact_id: 1, tag_ids: [] })).toEqual([]);
    expect(failures(TagAssignmentBody, { contact_id: '1', tag_ids: [1, 'b', 0] }).sort()).toEqual([
      'contact_id',
      'tag_ids',
    ]);
  });
});

describe('CONTACTS_RECORD_TYPES', () => {
  const registry = new RecordTypeRegistry().register(...CONTACTS_RECORD_TYPES);

  it('is complete and registers every request type', () => {
    expect(() => registry.assertComplete()).not.toThrow();
    for (const type of Object.values(CONTACTS_REQUEST_TYPES)) expect(registry.has(type)).toBe(true);
  });

  it('validates a request record: the body plus the minted ids and the plan limit', () => {
    const record = (data: object) =>
      createEnvelope({ type: CONTACTS_REQUEST_TYPES.eventRecord, source: 'gateway', workspaceid: '1', data });
    const body = { name: 'signup', contact: { email: 'a@example.com' } };
    expect(() =>
      registry.validate(
        record({ ...body, event_id: 1, contact_id: 2, contact_limit: 1000, idempotency_key: 'k' }),
      ),
    ).not.toThrow();
    expect(() => registry.validate(record({ ...body, event_id: 1, contact_id: 2 }))).toThrow(
      expect.objectContaining({
        reason: 'invalid_data',
        details: expect.arrayContaining([expect.stringMatching(/^contact_limit: /)]),
      }),
    );
  });
});
