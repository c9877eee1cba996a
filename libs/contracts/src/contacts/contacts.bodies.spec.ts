import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

import { RecordTypeRegistry } from '../registry/record-type-registry';
import { createEnvelope } from '../envelope/create-envelope';
import { MAX_DATA_BYTES, MAX_ID } from '../rules/field-rules';
import {
  BatchUpsertContactsBody,
  MAX_BATCH_CONTACTS,
  UpdateContactBody,
  UpsertContactBody,
} from './contact.bodies';
import { CONTACTS_RECORD_TYPES, CONTACTS_REQUEST_TYPES } from './contacts.record-types';
import { RecordEventBody } from './event.bodies';
import { EventRecordRequestedV1 } from './event.records';
import { CreateTagBody, MAX_TAG_IDS, TagAssignmentBody, UpdateTagBody } from './tag.bodies';

/** Custom data whose JSON is exactly `bytes` bytes of UTF-8. */
function dataOf(bytes: number): Record<string, string> {
  return { k: 'x'.repeat(bytes - '{"k":""}'.length) };
}

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

describe('contact fields (extensions §1)', () => {
  it('refuse a name made only of white space, on create and on update', () => {
    expect(failures(UpsertContactBody, { name: ' \t ' })).toEqual(['name']);
    expect(failures(UpdateContactBody, { name: '   ' })).toEqual(['name']);
    expect(failures(UpsertContactBody, { name: ' Ada ' })).toEqual([]);
  });

  it(`take custom data up to ${MAX_DATA_BYTES} bytes of JSON, and no more`, () => {
    expect(failures(UpsertContactBody, { name: 'A', data: dataOf(MAX_DATA_BYTES) })).toEqual([]);
    expect(failures(UpsertContactBody, { name: 'A', data: dataOf(MAX_DATA_BYTES + 1) })).toEqual(['data']);
    expect(failures(UpdateContactBody, { data: dataOf(MAX_DATA_BYTES + 1) })).toEqual(['data']);
    // Bytes, not characters: 'é' is two.
    const accents = { k: 'é'.repeat((MAX_DATA_BYTES - '{"k":""}'.length) / 2 + 1) };
    expect(failures(UpsertContactBody, { name: 'A', data: accents })).toEqual(['data']);
  });

  it('bound every text field', () => {
    const long = 'x'.repeat(256);
    expect(
      failures(UpsertContactBody, {
        name: long,
        external_id: long,
        source: long,
        email: `${long}@example.com`,
      }).sort(),
    ).toEqual(['email', 'external_id', 'name', 'source']);
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
    expect(MAX_BATCH_CONTACTS).toBe(1000);
    const full = Array.from({ length: MAX_BATCH_CONTACTS }, () => ({ name: 'a' }));
    expect(failures(BatchUpsertContactsBody, { contacts: full })).toEqual([]);
    expect(failures(BatchUpsertContactsBody, { contacts: [{ anything: true }] })).toEqual([]);
    expect(failures(BatchUpsertContactsBody, { contacts: [] })).toEqual(['contacts']);
    expect(failures(BatchUpsertContactsBody, { contacts: ['x'] })).toEqual(['contacts']);
    const tooMany = Array.from({ length: MAX_BATCH_CONTACTS + 1 }, () => ({ name: 'a' }));
    expect(failures(BatchUpsertContactsBody, { contacts: tooMany })).toEqual(['contacts']);
  });
});

describe('RecordEventBody', () => {
  const valid = { name: 'order.paid:v2-x_y', contact: { phone: 'any format' } };

  it('takes an occurred_at up to an hour after receipt, or any time before', () => {
    const soon = new Date(Date.now() + 55 * 60 * 1000).toISOString();
    for (const occurred_at of [soon, '1900-01-01', '2000-01-01T00:00:00+14:00']) {
      expect(failures(RecordEventBody, { ...valid, occurred_at })).toEqual([]);
    }
  });

  it('refuses an occurred_at more than an hour after receipt, but its record does not (a replay reads it later)', () => {
    const late = new Date(Date.now() + 65 * 60 * 1000).toISOString();
    for (const occurred_at of [late, '9999-12-31', '9999-12-31T23:59:59.999Z']) {
      expect(failures(RecordEventBody, { ...valid, occurred_at })).toEqual(['occurred_at']);
      const record = { ...valid, occurred_at, event_id: 1, contact_id: 2, contact_limit: 10 };
      expect(failures(EventRecordRequestedV1, record)).toEqual([]);
    }
    expect(
      failures(EventRecordRequestedV1, {
        ...valid,
        occurred_at: 'soon',
        event_id: 1,
        contact_id: 2,
        contact_limit: 1,
      }),
    ).toEqual(['occurred_at']);
  });

  it(`bounds the event's data and its contact's data to ${MAX_DATA_BYTES} bytes of JSON each`, () => {
    const contact = { ...valid.contact, data: dataOf(MAX_DATA_BYTES) };
    expect(failures(RecordEventBody, { ...valid, contact, data: dataOf(MAX_DATA_BYTES) })).toEqual([]);
    expect(failures(RecordEventBody, { ...valid, data: dataOf(MAX_DATA_BYTES + 1) })).toEqual(['data']);
    expect(
      failures(RecordEventBody, { ...valid, contact: { ...contact, data: dataOf(MAX_DATA_BYTES + 1) } }),
    ).toEqual(['contact/data']);
  });

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

  it('takes ids up to 2^53 − 1 and refuses strings, fractions, zero, negatives and anything larger', () => {
    expect(failures(TagAssignmentBody, { contact_id: MAX_ID, tag_ids: [MAX_ID, 2147483648] })).toEqual([]);
    for (const bad of ['7', 1.5, 0, -3, MAX_ID + 1, 1e21]) {
      expect(failures(TagAssignmentBody, { contact_id: bad, tag_ids: [1, bad] }).sort()).toEqual([
        'contact_id',
        'tag_ids',
      ]);
    }
    const tooMany = Array.from({ length: MAX_TAG_IDS + 1 }, (_, index) => index + 1);
    expect(failures(TagAssignmentBody, { contact_id: 1, tag_ids: tooMany })).toEqual(['tag_ids']);
  });

  it('refuses a tag name made only of white space, on create and on update', () => {
    expect(failures(CreateTagBody, { name: '  ' })).toEqual(['name']);
    expect(failures(UpdateTagBody, { name: '\u00a0' })).toEqual(['name']);
    expect(failures(UpdateTagBody, { name: 'x'.repeat(256) })).toEqual(['name']);
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
