import { readFilterCriteria, type FilterNode } from '@cms/contracts';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

import { Bitset } from './bitset';
import type { EvaluationContext } from './filter-evaluation';
import { WorkspaceIndex, type ContactRow } from './workspace-index';

const NOW = Date.parse('2026-03-31T12:00:00Z');
const DAY = 86_400_000;
/** Stands in for the contacts service's reading of phone numbers (international numbers only). */
const phoneE164 = (raw: string): string | undefined =>
  parsePhoneNumberFromString(raw.trim().replace(/^00/, '+'))?.number;

function contact(id: number, fields: Partial<ContactRow> = {}): ContactRow {
  return {
    id,
    name: null,
    phone: null,
    email: null,
    external_id: null,
    source: null,
    data: {},
    marketing_consent: {
      whatsapp: null,
      sms: null,
      email: null,
      rcs: null,
      telegram: null,
      messenger: null,
      instagram: null,
      browser_push: null,
    },
    channels: { telegram: null, messenger: null, instagram: null, browser_push: null },
    tag_ids: [],
    created_at: NOW - 100 * DAY,
    updated_at: NOW - 100 * DAY,
    ...fields,
  };
}

function criteriaOf(raw: unknown[]): FilterNode[] {
  const reading = readFilterCriteria(raw);
  if (!reading.ok) throw new Error(JSON.stringify(reading.problems));
  return reading.criteria;
}

function indexOf(contacts: ContactRow[]): WorkspaceIndex {
  const index = new WorkspaceIndex({ phoneE164 });
  index.upsertContacts(contacts);
  return index;
}

/** The ids of the contacts matching a filter, ascending. */
function matching(index: WorkspaceIndex, raw: unknown[], context: Partial<EvaluationContext> = {}): number[] {
  return index.members(
    index.evaluate(criteriaOf(raw), {
      now: NOW,
      audience: () => {
        throw new Error('no audience expected');
      },
      ...context,
    }),
  );
}

describe('WorkspaceIndex: what filters match', () => {
  const people = [
    contact(1, { name: 'Ana Silva', email: 'Ana@Example.com', phone: '+447700900123', source: 'Web' }),
    contact(2, {
      name: 'ÉLODIE Dubois',
      email: 'elodie@exemple.fr',
      phone: '+33612345678',
      source: 'import',
    }),
    contact(3, { name: 'João', email: null, phone: null, external_id: 'CRM-3' }),
    contact(4, { name: null, email: 'bob@example.org', source: 'web' }),
  ];
  const index = indexOf(people);

  it('matches every contact with an empty filter, and every item of the top-level array must hold', () => {
    expect(matching(index, [])).toEqual([1, 2, 3, 4]);
    expect(
      matching(index, [
        { field: 'source', operator: 'eq', value: 'web' },
        { field: 'email', operator: 'exists' },
      ]),
    ).toEqual([1, 4]);
  });

  it('compares text fields ignoring case, Unicode included', () => {
    expect(matching(index, [{ field: 'source', operator: 'eq', value: 'WEB' }])).toEqual([1, 4]);
    expect(matching(index, [{ field: 'name', operator: 'eq', value: 'élodie dubois' }])).toEqual([2]);
    expect(matching(index, [{ field: 'name', operator: 'in', value: ['JOÃO', 'joão', 'nobody'] }])).toEqual([
      3,
    ]);
    expect(matching(index, [{ field: 'email', operator: 'contains', value: 'EXAMPLE' }])).toEqual([1, 4]);
    expect(matching(index, [{ field: 'name', operator: 'starts_with', value: 'éLo' }])).toEqual([2]);
    expect(matching(index, [{ field: 'email', operator: 'ends_with', value: '.COM' }])).toEqual([1]);
  });

  it('counts a missing value as not equal, not in and not containing (the complement of the positive)', () => {
    expect(matching(index, [{ field: 'name', operator: 'neq', value: 'ana silva' }])).toEqual([2, 3, 4]);
    expect(matching(index, [{ field: 'email', operator: 'not_in', value: ['ana@example.com'] }])).toEqual([
      2, 3, 4,
    ]);
    expect(matching(index, [{ field: 'email', operator: 'not_contains', value: 'example' }])).toEqual([2, 3]);
    expect(matching(index, [{ field: 'external_id', operator: 'exists' }])).toEqual([3]);
    expect(matching(index, [{ field: 'external_id', operator: 'not_exists' }])).toEqual([1, 2, 4]);
  });

  it('compares phone numbers in E.164, whatever separators the filter value is written with', () => {
    expect(matching(index, [{ field: 'phone', operator: 'eq', value: '+44 7700 900123' }])).toEqual([1]);
    expect(matching(index, [{ field: 'phone', operator: 'eq', value: '0044 7700 900123' }])).toEqual([1]);
    expect(matching(index, [{ field: 'phone', operator: 'in', value: ['+33 6 12 34 56 78'] }])).toEqual([2]);
    expect(matching(index, [{ field: 'phone', operator: 'starts_with', value: '0033' }])).toEqual([2]);
    expect(matching(index, [{ field: 'phone', operator: 'contains', value: '900-123' }])).toEqual([1]);
    expect(matching(index, [{ field: 'phone', operator: 'neq', value: '+44 7700 900123' }])).toEqual([
      2, 3, 4,
    ]);
  });
});

describe('WorkspaceIndex: custom fields', () => {
  const index = indexOf([
    contact(1, {
      data: {
        plan: 'Pro',
        score: 42,
        vip: true,
        birthday: '1990-04-01',
        last_order_at: '2026-03-30T10:00:00+02:00',
        address: { city: 'Lisbon' },
        renewal: '2026-04-10',
      },
    }),
    contact(2, { data: { plan: 'free', score: '42', vip: false, birthday: 'someday', address: 'Porto' } }),
    contact(3, { data: { score: 7.5, plan: null, last_order_at: '2025-12-01', renewal: '2026-03-01' } }),
    contact(4, { data: { score: [1, 2], plan: { name: 'pro' }, tags: ['a'], vip: 'true' } }),
    contact(5),
  ]);

  it('counts only a scalar at the path as a value: null, objects and arrays do not exist', () => {
    expect(matching(index, [{ field: 'data.plan', operator: 'exists' }])).toEqual([1, 2]);
    expect(matching(index, [{ field: 'data.score', operator: 'exists' }])).toEqual([1, 2, 3]);
    expect(matching(index, [{ field: 'data.address', operator: 'exists' }])).toEqual([2]);
    expect(matching(index, [{ field: 'data.address.city', operator: 'exists' }])).toEqual([1]);
    expect(matching(index, [{ field: 'data.tags', operator: 'not_exists' }])).toEqual([1, 2, 3, 4, 5]);
  });

  it('compares values of the same type only: strings ignoring case, numbers, booleans', () => {
    expect(matching(index, [{ field: 'data.plan', operator: 'eq', value: 'PRO' }])).toEqual([1]);
    expect(matching(index, [{ field: 'data.score', operator: 'eq', value: 42 }])).toEqual([1]);
    expect(matching(index, [{ field: 'data.score', operator: 'eq', value: '42' }])).toEqual([2]);
    expect(matching(index, [{ field: 'data.vip', operator: 'eq', value: true }])).toEqual([1]);
    expect(matching(index, [{ field: 'data.vip', operator: 'eq', value: 'TRUE' }])).toEqual([4]);
    expect(matching(index, [{ field: 'data.score', operator: 'in', value: [7.5, '42', false] }])).toEqual([
      2, 3,
    ]);
    expect(matching(index, [{ field: 'data.vip', operator: 'in', value: [false, 42] }])).toEqual([2]);
    expect(matching(index, [{ field: 'data.score', operator: 'neq', value: 42 }])).toEqual([2, 3, 4, 5]);
    expect(matching(index, [{ field: 'data.plan', operator: 'not_in', value: ['pro', 'FREE'] }])).toEqual([
      3, 4, 5,
    ]);
  });

  it('compares numbers numerically and never strings with numbers', () => {
    expect(matching(index, [{ field: 'data.score', operator: 'gt', value: 7.5 }])).toEqual([1]);
    expect(matching(index, [{ field: 'data.score', operator: 'gte', value: 7.5 }])).toEqual([1, 3]);
    expect(matching(index, [{ field: 'data.score', operator: 'lt', value: 100 }])).toEqual([1, 3]);
    expect(matching(index, [{ field: 'data.score', operator: 'between', value: [7.5, 42] }])).toEqual([1, 3]);
    expect(matching(index, [{ field: 'data.score', operator: 'between', value: [8, 41] }])).toEqual([]);
  });

  it('looks for text in strings only', () => {
    expect(matching(index, [{ field: 'data.address', operator: 'contains', value: 'ORT' }])).toEqual([2]);
    expect(matching(index, [{ field: 'data.plan', operator: 'starts_with', value: 'pr' }])).toEqual([1]);
    expect(matching(index, [{ field: 'data.plan', operator: 'ends_with', value: 'ee' }])).toEqual([2]);
    expect(matching(index, [{ field: 'data.score', operator: 'contains', value: '4' }])).toEqual([2]);
    expect(matching(index, [{ field: 'data.plan', operator: 'not_contains', value: 'pro' }])).toEqual([
      2, 3, 4, 5,
    ]);
  });

  it('compares days and ISO times as dates, a day bound covering the whole day', () => {
    expect(matching(index, [{ field: 'data.birthday', operator: 'before', value: '1990-04-02' }])).toEqual([
      1,
    ]);
    expect(matching(index, [{ field: 'data.birthday', operator: 'before', value: '1990-04-01' }])).toEqual(
      [],
    );
    expect(matching(index, [{ field: 'data.birthday', operator: 'after', value: '1990-03-31' }])).toEqual([
      1,
    ]);
    expect(matching(index, [{ field: 'data.birthday', operator: 'after', value: '1990-04-01' }])).toEqual([]);
    // 2026-03-30T10:00+02:00 is 08:00 UTC on the 30th.
    expect(
      matching(index, [{ field: 'data.last_order_at', operator: 'after', value: '2026-03-29' }]),
    ).toEqual([1]);
    expect(matching(index, [{ field: 'data.last_order_at', operator: 'lte', value: '2026-03-30' }])).toEqual([
      1, 3,
    ]);
    expect(matching(index, [{ field: 'data.last_order_at', operator: 'lt', value: '2026-03-30' }])).toEqual([
      3,
    ]);
    expect(matching(index, [{ field: 'data.last_order_at', operator: 'gte', value: '2026-03-30' }])).toEqual([
      1,
    ]);
    expect(
      matching(index, [
        { field: 'data.last_order_at', operator: 'between', value: ['2025-12-01', '2026-03-29'] },
      ]),
    ).toEqual([3]);
  });

  it('reaches from now into the past for within_last and into the future for within_next', () => {
    expect(matching(index, [{ field: 'data.last_order_at', operator: 'within_last', value: 'P7D' }])).toEqual(
      [1],
    );
    expect(matching(index, [{ field: 'data.last_order_at', operator: 'within_last', value: 'P4M' }])).toEqual(
      [1, 3],
    );
    expect(matching(index, [{ field: 'data.renewal', operator: 'within_last', value: 'P1Y' }])).toEqual([3]);
    expect(matching(index, [{ field: 'data.renewal', operator: 'within_next', value: 'P2W' }])).toEqual([1]);
    expect(matching(index, [{ field: 'data.renewal', operator: 'within_next', value: 'P1D' }])).toEqual([]);
    // Without a date at the path, a contact is not within the last 7 days.
    expect(
      matching(index, [{ field: 'data.last_order_at', operator: 'not_within_last', value: 'P7D' }]),
    ).toEqual([2, 3, 4, 5]);
  });

  it('follows nested paths', () => {
    expect(matching(index, [{ field: 'data.address.city', operator: 'eq', value: 'lisbon' }])).toEqual([1]);
  });
});

describe('WorkspaceIndex: dates, tags, consent, channels', () => {
  const index = indexOf([
    contact(1, {
      created_at: Date.parse('2026-03-01T00:00:00Z'),
      tag_ids: [1, 2],
      marketing_consent: { ...contact(0).marketing_consent, whatsapp: true, email: false },
      channels: { ...contact(0).channels, telegram: 'tg-ana' },
    }),
    contact(2, {
      created_at: Date.parse('2026-02-28T23:59:59.999Z'),
      tag_ids: [2],
      marketing_consent: { ...contact(0).marketing_consent, whatsapp: false },
      channels: { ...contact(0).channels, telegram: '   ' },
    }),
    contact(3, { created_at: Date.parse('2025-01-15T10:00:00Z'), tag_ids: [3] }),
  ]);

  it('compares created_at with days, times, and calendar windows back from now', () => {
    expect(matching(index, [{ field: 'created_at', operator: 'before', value: '2026-03-01' }])).toEqual([
      2, 3,
    ]);
    expect(matching(index, [{ field: 'created_at', operator: 'after', value: '2026-02-28' }])).toEqual([1]);
    expect(
      matching(index, [{ field: 'created_at', operator: 'after', value: '2026-02-28T23:59:59.998Z' }]),
    ).toEqual([1, 2]);
    expect(
      matching(index, [{ field: 'created_at', operator: 'between', value: ['2025-01-15', '2026-02-28'] }]),
    ).toEqual([2, 3]);
    // A month back from 2026-03-31T12:00 is 2026-02-28T12:00.
    expect(matching(index, [{ field: 'created_at', operator: 'within_last', value: 'P1M' }])).toEqual([1, 2]);
    // Back to 2026-03-01T00:00 exactly: the bound is included.
    expect(matching(index, [{ field: 'created_at', operator: 'within_last', value: 'P30DT12H' }])).toEqual([
      1,
    ]);
    expect(matching(index, [{ field: 'created_at', operator: 'within_last', value: 'P30DT11H' }])).toEqual(
      [],
    );
    expect(
      matching(index, [{ field: 'created_at', operator: 'not_within_last', value: 'P30DT12H' }]),
    ).toEqual([2, 3]);
    expect(matching(index, [{ field: 'updated_at', operator: 'within_last', value: 'P1Y' }])).toEqual([
      1, 2, 3,
    ]);
  });

  it('reads tags with has, has_any, has_all and has_none (unknown tags are on nobody)', () => {
    expect(matching(index, [{ field: 'tags', operator: 'has', value: 2 }])).toEqual([1, 2]);
    expect(matching(index, [{ field: 'tags', operator: 'has_any', value: [3, 99] }])).toEqual([3]);
    expect(matching(index, [{ field: 'tags', operator: 'has_all', value: [1, 2] }])).toEqual([1]);
    expect(matching(index, [{ field: 'tags', operator: 'has_all', value: [1, 99] }])).toEqual([]);
    expect(matching(index, [{ field: 'tags', operator: 'has_none', value: [1, 3] }])).toEqual([2]);
  });

  it('reads consent as true, false or null (never recorded)', () => {
    expect(matching(index, [{ field: 'consent.whatsapp', operator: 'eq', value: true }])).toEqual([1]);
    expect(matching(index, [{ field: 'consent.whatsapp', operator: 'eq', value: false }])).toEqual([2]);
    expect(matching(index, [{ field: 'consent.whatsapp', operator: 'eq', value: null }])).toEqual([3]);
    expect(matching(index, [{ field: 'consent.email', operator: 'eq', value: null }])).toEqual([2, 3]);
  });

  it('reads a linked channel as existing when it has a non-blank id', () => {
    expect(matching(index, [{ field: 'channel.telegram', operator: 'exists' }])).toEqual([1]);
    expect(matching(index, [{ field: 'channel.telegram', operator: 'not_exists' }])).toEqual([2, 3]);
  });

  it('combines conditions in any, all and not groups', () => {
    expect(
      matching(index, [
        {
          any: [
            { field: 'tags', operator: 'has', value: 3 },
            {
              all: [
                { field: 'tags', operator: 'has', value: 2 },
                { not: { field: 'tags', operator: 'has', value: 1 } },
              ],
            },
          ],
        },
      ]),
    ).toEqual([2, 3]);
    expect(
      matching(index, [{ not: { any: [{ field: 'tags', operator: 'has_any', value: [1, 3] }] } }]),
    ).toEqual([2]);
  });
});

describe('WorkspaceIndex: events', () => {
  function eventsIndex(): WorkspaceIndex {
    const index = indexOf([contact(1), contact(2), contact(3), contact(4)]);
    index.upsertEvents([
      { event_id: 10, contact_id: 1, name: 'purchase', occurred_at: NOW - 2 * DAY },
      { event_id: 11, contact_id: 1, name: 'purchase', occurred_at: NOW - 40 * DAY },
      { event_id: 12, contact_id: 1, name: 'purchase', occurred_at: NOW - 3 * DAY },
      { event_id: 13, contact_id: 2, name: 'purchase', occurred_at: NOW - 20 * DAY },
      // In the future: never within the last days.
      { event_id: 14, contact_id: 3, name: 'purchase', occurred_at: NOW + DAY },
      { event_id: 15, contact_id: 4, name: 'signup', occurred_at: NOW - DAY },
    ]);
    return index;
  }

  it('finds who performed an event, ever or within a window back from now', () => {
    const index = eventsIndex();
    expect(matching(index, [{ field: 'event.purchase', operator: 'performed' }])).toEqual([1, 2, 3]);
    expect(
      matching(index, [{ field: 'event.purchase', operator: 'performed', value: { within_last: 'P7D' } }]),
    ).toEqual([1]);
    expect(
      matching(index, [{ field: 'event.purchase', operator: 'performed', value: { within_last: 'P30D' } }]),
    ).toEqual([1, 2]);
    expect(matching(index, [{ field: 'event.refund', operator: 'performed' }])).toEqual([]);
  });

  it('counts contacts that never had the event as not having performed it', () => {
    const index = eventsIndex();
    expect(matching(index, [{ field: 'event.purchase', operator: 'not_performed' }])).toEqual([4]);
    expect(
      matching(index, [
        { field: 'event.purchase', operator: 'not_performed', value: { within_last: 'P7D' } },
      ]),
    ).toEqual([2, 3, 4]);
    expect(matching(index, [{ field: 'event.refund', operator: 'not_performed' }])).toEqual([1, 2, 3, 4]);
  });

  it('counts occurrences with count_gte and count_lte, count_lte including contacts without any', () => {
    const index = eventsIndex();
    const count = (operator: string, value: object) =>
      matching(index, [{ field: 'event.purchase', operator, value }]);
    expect(count('count_gte', { count: 2 })).toEqual([1]);
    expect(count('count_gte', { count: 3 })).toEqual([1]);
    expect(count('count_gte', { count: 4 })).toEqual([]);
    expect(count('count_gte', { count: 2, within_last: 'P7D' })).toEqual([1]);
    expect(count('count_gte', { count: 0 })).toEqual([1, 2, 3, 4]);
    expect(count('count_lte', { count: 1 })).toEqual([2, 3, 4]);
    expect(count('count_lte', { count: 0, within_last: 'P30D' })).toEqual([3, 4]);
    expect(count('count_lte', { count: 2, within_last: 'P1M' })).toEqual([1, 2, 3, 4]);
  });

  it('counts an event delivered twice once, and a corrected event where it now belongs', () => {
    const index = eventsIndex();
    index.upsertEvents([
      { event_id: 13, contact_id: 2, name: 'purchase', occurred_at: NOW - 20 * DAY },
      { event_id: 13, contact_id: 2, name: 'purchase', occurred_at: NOW - 20 * DAY },
    ]);
    expect(
      matching(index, [{ field: 'event.purchase', operator: 'count_gte', value: { count: 2 } }]),
    ).toEqual([1]);
    // Moved out of the window, renamed, and given to another contact.
    index.upsertEvents([
      { event_id: 10, contact_id: 1, name: 'purchase', occurred_at: NOW - 10 * DAY },
      { event_id: 12, contact_id: 1, name: 'refund', occurred_at: NOW - 3 * DAY },
      { event_id: 15, contact_id: 3, name: 'signup', occurred_at: NOW - DAY },
    ]);
    expect(
      matching(index, [{ field: 'event.purchase', operator: 'performed', value: { within_last: 'P7D' } }]),
    ).toEqual([]);
    expect(
      matching(index, [{ field: 'event.purchase', operator: 'count_gte', value: { count: 2 } }]),
    ).toEqual([1]);
    expect(matching(index, [{ field: 'event.refund', operator: 'performed' }])).toEqual([1]);
    expect(matching(index, [{ field: 'event.signup', operator: 'performed' }])).toEqual([3]);
  });

  it('counts the events that arrived before their contact once the contact is added', () => {
    const index = eventsIndex();
    index.upsertEvents([
      { event_id: 20, contact_id: 9, name: 'purchase', occurred_at: NOW - DAY },
      { event_id: 21, contact_id: 9, name: 'purchase', occurred_at: NOW - DAY },
      { event_id: 22, contact_id: 8, name: 'purchase', occurred_at: NOW - DAY },
    ]);
    // Event 22 is corrected to contact 1 before contact 8 arrives: it stays with contact 1.
    index.upsertEvents([{ event_id: 22, contact_id: 1, name: 'purchase', occurred_at: NOW - DAY }]);
    expect(
      matching(index, [
        { field: 'event.purchase', operator: 'count_gte', value: { count: 2, within_last: 'P1D' } },
      ]),
    ).toEqual([]);
    index.upsertContacts([contact(9), contact(8)]);
    expect(
      matching(index, [
        { field: 'event.purchase', operator: 'count_gte', value: { count: 2, within_last: 'P1D' } },
      ]),
    ).toEqual([9]);
    expect(matching(index, [{ field: 'event.purchase', operator: 'not_performed' }])).toEqual([4, 8]);
  });
});

describe('WorkspaceIndex: other audiences', () => {
  it('takes the members of audiences from the context, a set of fewer rows reading as empty beyond them', () => {
    const index = indexOf([contact(1), contact(2)]);
    const first = index.idsToSet([1]);
    index.upsertContacts([contact(3), contact(4)]);
    const second = index.idsToSet([3]);
    const audience = (id: number): Bitset => (id === 10 ? first : second);
    expect(matching(index, [{ field: 'audience', operator: 'in', value: [10] }], { audience })).toEqual([1]);
    expect(matching(index, [{ field: 'audience', operator: 'in', value: [10, 11] }], { audience })).toEqual([
      1, 3,
    ]);
    expect(
      matching(index, [{ field: 'audience', operator: 'not_in', value: [10, 11] }], { audience }),
    ).toEqual([2, 4]);
  });
});

describe('WorkspaceIndex: updates', () => {
  it('rewrites a changed contact in every column, custom-field columns already built included', () => {
    const index = indexOf([
      contact(1, {
        name: 'Ana',
        email: 'ana@example.com',
        data: { plan: 'pro', score: 10 },
        tag_ids: [1],
        marketing_consent: { ...contact(0).marketing_consent, sms: true },
        channels: { ...contact(0).channels, messenger: 'm-1' },
      }),
      contact(2, { name: 'Bea', data: { plan: 'free' } }),
    ]);
    // Builds the columns of data.plan and data.score before the change.
    expect(matching(index, [{ field: 'data.plan', operator: 'eq', value: 'pro' }])).toEqual([1]);
    expect(matching(index, [{ field: 'data.score', operator: 'gt', value: 5 }])).toEqual([1]);
    index.upsertContacts([
      contact(1, {
        name: 'Anabela',
        email: null,
        data: { plan: 'team', score: '10' },
        tag_ids: [2],
        created_at: NOW - DAY,
        channels: { ...contact(0).channels, telegram: 't-1' },
      }),
    ]);
    expect(index.size).toBe(2);
    expect(matching(index, [{ field: 'data.plan', operator: 'eq', value: 'pro' }])).toEqual([]);
    expect(matching(index, [{ field: 'data.plan', operator: 'eq', value: 'team' }])).toEqual([1]);
    expect(matching(index, [{ field: 'data.score', operator: 'gt', value: 5 }])).toEqual([]);
    expect(matching(index, [{ field: 'data.score', operator: 'eq', value: '10' }])).toEqual([1]);
    expect(matching(index, [{ field: 'name', operator: 'eq', value: 'ana' }])).toEqual([]);
    expect(matching(index, [{ field: 'name', operator: 'starts_with', value: 'anab' }])).toEqual([1]);
    expect(matching(index, [{ field: 'email', operator: 'exists' }])).toEqual([]);
    expect(matching(index, [{ field: 'tags', operator: 'has', value: 1 }])).toEqual([]);
    expect(matching(index, [{ field: 'tags', operator: 'has', value: 2 }])).toEqual([1]);
    expect(matching(index, [{ field: 'consent.sms', operator: 'eq', value: true }])).toEqual([]);
    expect(matching(index, [{ field: 'channel.messenger', operator: 'exists' }])).toEqual([]);
    expect(matching(index, [{ field: 'channel.telegram', operator: 'exists' }])).toEqual([1]);
    expect(matching(index, [{ field: 'created_at', operator: 'within_last', value: 'P2D' }])).toEqual([1]);
  });
});

describe('WorkspaceIndex: sets', () => {
  // Ids not in row order, as contacts arrive in any order.
  const ids = [50, 7, 1_000_000_000_123, 3, 900, 42, 8];
  const index = indexOf(ids.map((id) => contact(id)));

  it('samples the smallest ids of a set in ascending order', () => {
    expect(index.sample(index.all(), 3)).toEqual([3, 7, 8]);
    expect(index.sample(index.all(), 100)).toEqual([3, 7, 8, 42, 50, 900, 1_000_000_000_123]);
    expect(index.sample(index.idsToSet([900, 50, 1_000_000_000_123]), 2)).toEqual([50, 900]);
    expect(index.sample(index.all(), 0)).toEqual([]);
    expect(index.sample(new Bitset(index.size), 5)).toEqual([]);
  });

  it('samples only the ids above `after`, so pages follow one another in id order', () => {
    expect(index.sample(index.all(), 3, 7)).toEqual([8, 42, 50]);
    expect(index.sample(index.all(), 3, 50)).toEqual([900, 1_000_000_000_123]);
    expect(index.sample(index.all(), 3, 1_000_000_000_123)).toEqual([]);
    expect(index.sample(index.idsToSet([3, 42, 900]), 5, 3)).toEqual([42, 900]);
  });

  it('samples the same as sorting when the set is large', () => {
    const many = new WorkspaceIndex({ phoneE164 });
    const all: number[] = [];
    for (let row = 0; row < 20_000; row += 1) all.push(((row * 7919) % 20_011) + 1);
    many.upsertContacts(all.map((id) => contact(id)));
    const sorted = [...all].sort((a, b) => a - b);
    expect(many.sample(many.all(), 100)).toEqual(sorted.slice(0, 100));
    const odd = many.idsToSet(all.filter((id) => id % 2 === 1));
    expect(many.sample(odd, 10)).toEqual(sorted.filter((id) => id % 2 === 1).slice(0, 10));
    expect(many.members(odd)).toEqual(sorted.filter((id) => id % 2 === 1));
  });

  it('makes sets of known ids only, counts them, and lists their members ascending', () => {
    const set = index.idsToSet([42, 3, 999, -1, 1.5, 42]);
    expect(index.count(set)).toBe(2);
    expect(index.members(set)).toEqual([3, 42]);
    expect(index.members(index.all())).toEqual([3, 7, 8, 42, 50, 900, 1_000_000_000_123]);
  });
});

describe('WorkspaceIndex: reachable', () => {
  const consent = (granted: Partial<ContactRow['marketing_consent']>) => ({
    ...contact(0).marketing_consent,
    ...granted,
  });
  const noneReachable = {
    whatsapp: 0,
    sms: 0,
    email: 0,
    rcs: 0,
    telegram: 0,
    messenger: 0,
    instagram: 0,
    browser_push: 0,
  };

  function reachableIndex(): WorkspaceIndex {
    return indexOf([
      contact(1, {
        phone: '+447700900001',
        email: 'Ana@Example.com',
        marketing_consent: consent({ whatsapp: true, sms: true, email: true, rcs: false }),
      }),
      contact(2, { phone: '+447700900002', marketing_consent: consent({ whatsapp: true, email: true }) }),
      contact(3, {
        phone: null,
        channels: { ...contact(0).channels, telegram: 'TgUser', browser_push: 'sub-1' },
        marketing_consent: consent({ whatsapp: true, telegram: true, browser_push: true }),
      }),
      contact(4, { email: 'bob@example.org', marketing_consent: consent({ email: false, sms: null }) }),
    ]);
  }

  it('counts per channel type the contacts with an identifier for it and consent true, every type present', () => {
    const index = reachableIndex();
    expect(index.reachable(index.all())).toEqual({
      ...noneReachable,
      whatsapp: 2,
      sms: 1,
      email: 1,
      telegram: 1,
      browser_push: 1,
    });
    expect(index.reachable(index.idsToSet([2, 4]))).toEqual({ ...noneReachable, whatsapp: 1 });
  });

  it('leaves out contacts whose identifier is on the suppression list for that channel type', () => {
    const index = reachableIndex();
    index.upsertSuppressions([
      { id: 'sup_1', channel: 'whatsapp', address: '+447700900001', active: true },
      { id: 'sup_2', channel: 'email', address: 'ANA@example.COM', active: true },
      { id: 'sup_3', channel: 'telegram', address: 'tguser', active: true },
    ]);
    expect(index.reachable(index.all())).toEqual({
      ...noneReachable,
      whatsapp: 1,
      sms: 1,
      email: 0,
      // Linked ids are compared as sent: "tguser" is not "TgUser".
      telegram: 1,
      browser_push: 1,
    });
  });

  it('keeps entries by id: one given twice suppresses once, and an address stays until its last entry goes', () => {
    const index = reachableIndex();
    const entry = { id: 'sup_1', channel: 'whatsapp' as const, address: '+447700900001', active: true };
    index.upsertSuppressions([entry, entry, { ...entry, id: 'sup_2' }]);
    expect(index.reachable(index.all()).whatsapp).toBe(1);
    index.upsertSuppressions([{ ...entry, active: false }]);
    expect(index.reachable(index.all()).whatsapp).toBe(1);
    index.upsertSuppressions([{ ...entry, id: 'sup_2', active: false }]);
    expect(index.reachable(index.all()).whatsapp).toBe(2);
    // Given again with another address: the entry now suppresses that one.
    index.upsertSuppressions([{ ...entry, address: '+447700900002' }]);
    index.upsertSuppressions([{ ...entry, address: '+447700900002' }]);
    expect(index.reachable(index.idsToSet([2])).whatsapp).toBe(0);
    expect(index.reachable(index.idsToSet([1])).whatsapp).toBe(1);
  });

  it('follows contacts that change after the suppressed sets were worked out', () => {
    const index = reachableIndex();
    index.upsertSuppressions([{ id: 'sup_1', channel: 'sms', address: '+447700900009', active: true }]);
    expect(index.reachable(index.all()).sms).toBe(1);
    index.upsertContacts([
      contact(1, { phone: '+447700900009', marketing_consent: consent({ sms: true, whatsapp: true }) }),
      contact(5, { phone: '+447700900009', marketing_consent: consent({ sms: true }) }),
      contact(6, { phone: '+447700900010', marketing_consent: consent({ sms: true }) }),
    ]);
    // Contact 1 and 5 now have the suppressed number; contact 6 has another.
    expect(index.reachable(index.all()).sms).toBe(1);
    expect(index.reachable(index.all()).whatsapp).toBe(2);
    index.upsertContacts([contact(5, { phone: '+447700900011', marketing_consent: consent({ sms: true }) })]);
    expect(index.reachable(index.all()).sms).toBe(2);
  });
});
