import { branchCriteriaOptions, readWorkflowCriteria, type WorkflowCriteria } from '@cms/contracts';

import { matchesCriteria, readsContactEvents, type CriteriaContact, type CriteriaSubject } from './criteria';

const NOW = Date.parse('2026-06-15T12:00:00Z');

function criteria(raw: unknown[]): WorkflowCriteria {
  const reading = readWorkflowCriteria(raw, '/if', branchCriteriaOptions(['hello', 'silent']));
  if (!reading.ok) throw new Error(JSON.stringify(reading.problems));
  return reading.criteria;
}

function contact(overrides: Partial<CriteriaContact> = {}): CriteriaContact {
  return {
    name: 'Ann Smith',
    phone: '+447700900123',
    email: 'ann@example.com',
    external_id: 'u-1',
    source: 'import',
    data: {
      plan: 'Pro',
      seats: 12,
      trial: false,
      renewal: '2026-06-20',
      signed_at: '2026-06-14T08:00:00+02:00',
      address: { city: 'Lyon' },
      orders: [{ total: 5 }, { total: 9 }],
      nothing: null,
    },
    created_at: '2026-01-10T09:00:00Z',
    updated_at: '2026-06-15T11:00:00Z',
    tag_ids: [1, 2],
    marketing_consent: { email: true, sms: false },
    channels: { telegram: '12345' },
    ...overrides,
  };
}

function subject(overrides: Partial<CriteriaSubject> = {}): CriteriaSubject {
  const events: Record<string, string[]> = {
    'order.paid': ['2026-06-14T10:00:00Z', '2026-05-01T10:00:00Z', '2026-06-15T11:59:00Z'],
  };
  return { contact: contact(), eventsNamed: (name) => events[name] ?? [], ...overrides };
}

function holds(raw: unknown[], over: CriteriaSubject = subject()): boolean {
  return matchesCriteria(criteria(raw), over, NOW);
}

describe('matchesCriteria', () => {
  it('holds for everyone with no criteria', () => {
    expect(holds([])).toBe(true);
  });

  it('compares text ignoring case, and phones in E.164', () => {
    expect(holds([{ field: 'name', operator: 'eq', value: 'ann smith' }])).toBe(true);
    expect(holds([{ field: 'email', operator: 'ends_with', value: '@EXAMPLE.com' }])).toBe(true);
    expect(holds([{ field: 'phone', operator: 'eq', value: '0044 7700 900123' }])).toBe(true);
    expect(holds([{ field: 'phone', operator: 'starts_with', value: '44 7700' }])).toBe(true);
    expect(holds([{ field: 'phone', operator: 'contains', value: '900-123' }])).toBe(true);
    expect(holds([{ field: 'source', operator: 'in', value: ['api', 'IMPORT'] }])).toBe(true);
    expect(holds([{ field: 'name', operator: 'not_contains', value: 'bob' }])).toBe(true);
  });

  it('lets neq, not_in, not_contains and not_exists hold for a missing value', () => {
    const none = subject({ contact: contact({ name: null }) });
    expect(holds([{ field: 'name', operator: 'neq', value: 'Ann' }], none)).toBe(true);
    expect(holds([{ field: 'name', operator: 'not_in', value: ['Ann'] }], none)).toBe(true);
    expect(holds([{ field: 'name', operator: 'not_contains', value: 'A' }], none)).toBe(true);
    expect(holds([{ field: 'name', operator: 'not_exists' }], none)).toBe(true);
    expect(holds([{ field: 'name', operator: 'eq', value: 'Ann' }], none)).toBe(false);
    expect(holds([{ field: 'data.nothing', operator: 'neq', value: 'x' }])).toBe(true);
    expect(holds([{ field: 'data.nothing', operator: 'exists' }])).toBe(false);
  });

  it('compares custom fields by type: a number never equals a string', () => {
    expect(holds([{ field: 'data.plan', operator: 'eq', value: 'pro' }])).toBe(true);
    expect(holds([{ field: 'data.seats', operator: 'eq', value: 12 }])).toBe(true);
    expect(holds([{ field: 'data.seats', operator: 'eq', value: '12' }])).toBe(false);
    expect(holds([{ field: 'data.trial', operator: 'eq', value: false }])).toBe(true);
    expect(holds([{ field: 'data.seats', operator: 'between', value: [10, 12] }])).toBe(true);
    expect(holds([{ field: 'data.seats', operator: 'gt', value: 12 }])).toBe(false);
    expect(holds([{ field: 'data.address.city', operator: 'starts_with', value: 'ly' }])).toBe(true);
    expect(holds([{ field: 'data.orders.-1.total', operator: 'eq', value: 9 }])).toBe(true);
  });

  it('reads custom dates as whole UTC days and times with their zone, relative to now', () => {
    expect(holds([{ field: 'data.renewal', operator: 'within_next', value: 'P7D' }])).toBe(true);
    expect(holds([{ field: 'data.renewal', operator: 'within_next', value: 'P4D' }])).toBe(false);
    expect(holds([{ field: 'data.renewal', operator: 'after', value: '2026-06-19' }])).toBe(true);
    expect(holds([{ field: 'data.renewal', operator: 'after', value: '2026-06-20' }])).toBe(false);
    expect(holds([{ field: 'data.renewal', operator: 'lte', value: '2026-06-20' }])).toBe(true);
    // 06:00 UTC on the 14th: 30 hours before now.
    expect(holds([{ field: 'data.signed_at', operator: 'within_last', value: 'PT31H' }])).toBe(true);
    expect(holds([{ field: 'data.signed_at', operator: 'within_last', value: 'PT29H' }])).toBe(false);
    expect(holds([{ field: 'data.renewal', operator: 'not_within_last', value: 'P30D' }])).toBe(true);
    expect(holds([{ field: 'data.plan', operator: 'before', value: '2030-01-01' }])).toBe(false);
  });

  it('reads created_at and updated_at as times', () => {
    expect(holds([{ field: 'updated_at', operator: 'within_last', value: 'PT2H' }])).toBe(true);
    expect(holds([{ field: 'created_at', operator: 'between', value: ['2026-01-10', '2026-01-10'] }])).toBe(
      true,
    );
    expect(holds([{ field: 'created_at', operator: 'after', value: '2026-01-10' }])).toBe(false);
  });

  it('reads tags, consent and linked channels', () => {
    expect(holds([{ field: 'tags', operator: 'has', value: 2 }])).toBe(true);
    expect(holds([{ field: 'tags', operator: 'has_all', value: [1, 3] }])).toBe(false);
    expect(holds([{ field: 'tags', operator: 'has_none', value: [3, 4] }])).toBe(true);
    expect(holds([{ field: 'consent.email', operator: 'eq', value: true }])).toBe(true);
    expect(holds([{ field: 'consent.sms', operator: 'eq', value: false }])).toBe(true);
    expect(holds([{ field: 'consent.whatsapp', operator: 'eq', value: null }])).toBe(true);
    expect(holds([{ field: 'channel.telegram', operator: 'exists' }])).toBe(true);
    expect(holds([{ field: 'channel.messenger', operator: 'not_exists' }])).toBe(true);
  });

  it('counts events in their window, not_performed holding for a contact with no events', () => {
    expect(holds([{ field: 'event.order.paid', operator: 'count_gte', value: { count: 3 } }])).toBe(true);
    expect(
      holds([{ field: 'event.order.paid', operator: 'count_gte', value: { count: 3, within_last: 'P30D' } }]),
    ).toBe(false);
    expect(
      holds([{ field: 'event.order.paid', operator: 'count_lte', value: { count: 2, within_last: 'P7D' } }]),
    ).toBe(true);
    expect(holds([{ field: 'event.cart.left', operator: 'not_performed' }])).toBe(true);
    expect(holds([{ field: 'event.cart.left', operator: 'performed' }])).toBe(false);
  });

  it('combines any, all and not groups', () => {
    expect(
      holds([
        {
          any: [
            { field: 'name', operator: 'eq', value: 'Bob' },
            {
              all: [
                { field: 'tags', operator: 'has', value: 1 },
                { not: { field: 'email', operator: 'not_exists' } },
              ],
            },
          ],
        },
      ]),
    ).toBe(true);
  });

  it('reads the trigger event and the waited event data, a missing waited event having none', () => {
    const over = subject({ event: { data: { total: 120 } }, waitedEvent: { data: { method: 'card' } } });
    expect(holds([{ field: 'event.data.total', operator: 'gte', value: 100 }], over)).toBe(true);
    expect(holds([{ field: 'waited_event.data.method', operator: 'eq', value: 'CARD' }], over)).toBe(true);
    const none = subject({ waitedEvent: null });
    expect(holds([{ field: 'waited_event.data.method', operator: 'exists' }], none)).toBe(false);
    expect(holds([{ field: 'waited_event.data.method', operator: 'neq', value: 'card' }], none)).toBe(true);
  });

  it('reads the message a step made; a step that made none reads status null and not clicked', () => {
    const over = subject({
      messages: (step) =>
        step === 'hello' ? { status: 'read', clicked: true } : { status: null, clicked: false },
    });
    expect(
      holds([{ field: 'message.hello.status', operator: 'in', value: ['delivered', 'read'] }], over),
    ).toBe(true);
    expect(holds([{ field: 'message.hello.clicked', operator: 'eq', value: true }], over)).toBe(true);
    expect(holds([{ field: 'message.silent.status', operator: 'neq', value: 'sent' }], over)).toBe(true);
    expect(holds([{ field: 'message.silent.status', operator: 'not_in', value: ['sent'] }], over)).toBe(true);
    expect(holds([{ field: 'message.silent.status', operator: 'in', value: ['sent'] }], over)).toBe(false);
    expect(holds([{ field: 'message.silent.clicked', operator: 'eq', value: false }], over)).toBe(true);
    expect(holds([{ field: 'message.silent.clicked', operator: 'eq', value: false }], subject())).toBe(true);
  });
});

describe('readsContactEvents', () => {
  it("is true exactly when a condition, however nested, reads the contact's events", () => {
    expect(readsContactEvents(criteria([{ field: 'event.order.paid', operator: 'performed' }]))).toBe(true);
    expect(
      readsContactEvents(
        criteria([
          {
            any: [
              { field: 'name', operator: 'eq', value: 'Ada' },
              { field: 'event.login', operator: 'not_performed' },
            ],
          },
        ]),
      ),
    ).toBe(true);
    expect(readsContactEvents(criteria([{ field: 'event.data.total', operator: 'gte', value: 10 }]))).toBe(
      false,
    );
    expect(readsContactEvents(criteria([{ field: 'name', operator: 'eq', value: 'Ada' }]))).toBe(false);
  });
});
