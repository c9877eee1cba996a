import {
  MAX_FILTER_CONDITIONS,
  parseFilterDuration,
  readFilterCriteria,
  type FilterNode,
  type FilterProblem,
} from './filter-criteria';

const AT = '/data/attributes/filter_criteria';

function read(criteria: unknown): FilterNode[] {
  const reading = readFilterCriteria(criteria);
  if (!reading.ok) throw new Error(JSON.stringify(reading.problems));
  return reading.criteria;
}

function problems(criteria: unknown): FilterProblem[] {
  const reading = readFilterCriteria(criteria);
  if (reading.ok) throw new Error('the filter was read');
  return reading.problems;
}

function condition(node: FilterNode | undefined): unknown {
  if (node?.kind !== 'condition') throw new Error(`not a condition: ${JSON.stringify(node)}`);
  return node.condition;
}

describe('readFilterCriteria', () => {
  it('matches every contact when the filter is missing, null or empty', () => {
    for (const empty of [undefined, null, []]) {
      expect(readFilterCriteria(empty)).toEqual({ ok: true, criteria: [], conditions: 0, audienceIds: [] });
    }
  });

  it('reads every field of the table with an operator it takes', () => {
    const criteria = read([
      { field: 'name', operator: 'contains', value: 'ann' },
      { field: 'phone', operator: 'in', value: ['+14155550100', '+14155550101'] },
      { field: 'email', operator: 'exists' },
      { field: 'source', operator: 'eq', value: 'import' },
      { field: 'data.plan', operator: 'eq', value: 'pro' },
      { field: 'data.orders.count', operator: 'gte', value: 3 },
      { field: 'data.birthday', operator: 'within_next', value: 'P7D' },
      { field: 'data.renewal', operator: 'between', value: ['2026-01-01', '2026-12-31'] },
      { field: 'created_at', operator: 'within_last', value: 'P30D' },
      { field: 'updated_at', operator: 'before', value: '2026-11-01T00:00:00Z' },
      { field: 'tags', operator: 'has', value: 7 },
      { field: 'tags', operator: 'has_none', value: [8, 9] },
      { field: 'consent.whatsapp', operator: 'eq', value: null },
      { field: 'channel.telegram', operator: 'not_exists', value: null },
      { field: 'event.order.paid', operator: 'count_gte', value: { count: 2, within_last: 'P30D' } },
      { field: 'event.cart.abandoned', operator: 'not_performed' },
      { field: 'audience', operator: 'not_in', value: [12] },
    ]);
    expect(criteria).toHaveLength(17);
    expect(condition(criteria[1])).toEqual({
      kind: 'text',
      field: 'phone',
      operator: 'in',
      value: ['+14155550100', '+14155550101'],
    });
    expect(condition(criteria[5])).toEqual({
      kind: 'data',
      path: ['orders', 'count'],
      operator: 'gte',
      value: 3,
    });
    expect(condition(criteria[14])).toEqual({
      kind: 'event',
      name: 'order.paid',
      operator: 'count_gte',
      count: 2,
      within: expect.objectContaining({ text: 'P30D', days: 30 }),
    });
    expect(condition(criteria[12])).toEqual({
      kind: 'consent',
      channel: 'whatsapp',
      operator: 'eq',
      value: null,
    });
    expect(readFilterCriteria([{ field: 'audience', operator: 'in', value: [3, 4] }])).toMatchObject({
      audienceIds: [3, 4],
    });
    // One audience id is read as a list of one (§11: an id, or an array of ids).
    const single = readFilterCriteria([{ field: 'audience', operator: 'not_in', value: 14 }]);
    expect(single).toMatchObject({ audienceIds: [14] });
    expect(single.ok && condition(single.criteria[0]!)).toEqual({
      kind: 'audience',
      operator: 'not_in',
      value: [14],
    });
  });

  it('reads any, all and not groups into the tree, counting only conditions', () => {
    const reading = readFilterCriteria([
      {
        any: [
          { field: 'tags', operator: 'has', value: 1 },
          {
            not: {
              all: [
                { field: 'email', operator: 'exists' },
                { field: 'consent.email', operator: 'eq', value: true },
              ],
            },
          },
        ],
      },
    ]);
    expect(reading).toMatchObject({ ok: true, conditions: 3 });
    const [group] = reading.ok ? reading.criteria : [];
    expect(group).toMatchObject({
      kind: 'any',
      nodes: [{ kind: 'condition' }, { kind: 'not', node: { kind: 'all', nodes: [{}, {}] } }],
    });
  });

  it('answers an unknown field or operator at its pointer', () => {
    expect(problems([{ field: 'age', operator: 'eq', value: 3 }])).toEqual([
      { pointer: `${AT}/0/field`, detail: expect.stringContaining('unknown field "age"') },
    ]);
    expect(
      problems([
        { field: 'email', operator: 'eq', value: 'a@b.c' },
        { field: 'name', operator: 'gt', value: 'a' },
      ]),
    ).toEqual([
      { pointer: `${AT}/1/operator`, detail: expect.stringContaining('name takes the operators eq, neq') },
    ]);
    expect(problems([{ field: 'created_at', operator: 'within_next', value: 'P1D' }])[0]!.pointer).toBe(
      `${AT}/0/operator`,
    );
    expect(problems([{ field: 'consent.fax', operator: 'eq', value: true }])[0]!.pointer).toBe(
      `${AT}/0/field`,
    );
    expect(problems([{ field: 'channel.sms', operator: 'exists' }])[0]!.pointer).toBe(`${AT}/0/field`);
    expect(problems([{ field: 'event.Order Paid', operator: 'performed' }])[0]!.pointer).toBe(
      `${AT}/0/field`,
    );
    expect(problems([{ field: 'data.', operator: 'exists' }])[0]!.pointer).toBe(`${AT}/0/field`);
  });

  it('answers a value of the wrong shape at the value, or at the item inside it', () => {
    const cases: Array<[unknown, string]> = [
      [{ field: 'name', operator: 'in', value: 'ann' }, `${AT}/0/value`],
      [{ field: 'name', operator: 'in', value: ['ann', 3] }, `${AT}/0/value/1`],
      [{ field: 'name', operator: 'in', value: [] }, `${AT}/0/value`],
      [{ field: 'email', operator: 'exists', value: 'x' }, `${AT}/0/value`],
      [{ field: 'data.total', operator: 'gt', value: 'many' }, `${AT}/0/value`],
      [{ field: 'data.total', operator: 'between', value: [5, 1] }, `${AT}/0/value`],
      [{ field: 'data.total', operator: 'between', value: [1, '2026-01-01'] }, `${AT}/0/value`],
      [{ field: 'data.since', operator: 'before', value: '2026-02-30' }, `${AT}/0/value`],
      [{ field: 'created_at', operator: 'within_last', value: '30 days' }, `${AT}/0/value`],
      [{ field: 'created_at', operator: 'within_last', value: 'P0D' }, `${AT}/0/value`],
      [{ field: 'tags', operator: 'has', value: [1] }, `${AT}/0/value`],
      [{ field: 'tags', operator: 'has_all', value: [1, -2] }, `${AT}/0/value/1`],
      [{ field: 'consent.sms', operator: 'eq' }, `${AT}/0/value`],
      [{ field: 'consent.sms', operator: 'eq', value: 'yes' }, `${AT}/0/value`],
      [
        { field: 'event.order.paid', operator: 'count_lte', value: { within_last: 'P1D' } },
        `${AT}/0/value/count`,
      ],
      [{ field: 'event.order.paid', operator: 'performed', value: { count: 1 } }, `${AT}/0/value/count`],
      [
        { field: 'event.order.paid', operator: 'performed', value: { within_last: 'soon' } },
        `${AT}/0/value/within_last`,
      ],
      [{ field: 'event.order.paid', operator: 'performed', value: { since: 'P1D' } }, `${AT}/0/value/since`],
      [{ field: 'audience', operator: 'in', value: 'four' }, `${AT}/0/value`],
      [{ field: 'audience', operator: 'in', value: 0 }, `${AT}/0/value`],
      [{ field: 'audience', operator: 'in', value: [] }, `${AT}/0/value`],
      [{ field: 'audience', operator: 'not_in', value: [4, 'x'] }, `${AT}/0/value/1`],
      [{ field: 'name', operator: 'eq', value: 'a', extra: 1 }, `${AT}/0/extra`],
    ];
    for (const [item, pointer] of cases) {
      expect({ item, pointers: problems([item]).map((problem) => problem.pointer) }).toEqual({
        item,
        pointers: [pointer],
      });
    }
  });

  it(`refuses more than ${MAX_FILTER_CONDITIONS} conditions, at the first one over`, () => {
    const many = Array.from({ length: MAX_FILTER_CONDITIONS + 2 }, () => ({
      field: 'email',
      operator: 'exists',
    }));
    expect(readFilterCriteria(many.slice(0, MAX_FILTER_CONDITIONS))).toMatchObject({ ok: true });
    expect(problems(many)).toEqual([
      { pointer: `${AT}/${MAX_FILTER_CONDITIONS}`, detail: expect.stringContaining('at most 50 conditions') },
    ]);
  });

  it('refuses a sixth level: the top-level array is the first, each group one more', () => {
    const leaf = { field: 'email', operator: 'exists' };
    const nested = (depth: number): unknown => (depth === 1 ? leaf : { any: [nested(depth - 1)] });
    // Five levels: the top array holding four nested groups, the condition in the innermost.
    expect(readFilterCriteria([nested(5)])).toMatchObject({ ok: true });
    expect(problems([nested(6)])).toEqual([
      {
        pointer: `${AT}/0/any/0/any/0/any/0/any/0/any/0`,
        detail: expect.stringContaining('at most 5 levels'),
      },
    ]);
    expect(problems([{ not: { not: { not: { not: { not: leaf } } } } }])[0]!.pointer).toBe(
      `${AT}/0/not/not/not/not/not`,
    );
  });

  it('answers a group of the wrong shape at the group', () => {
    expect(problems([{ any: [] }])).toEqual([{ pointer: `${AT}/0/any`, detail: expect.any(String) }]);
    expect(problems([{ all: [{ field: 'email', operator: 'exists' }], field: 'x' }])[0]!.pointer).toBe(
      `${AT}/0/field`,
    );
    expect(problems(['email'])[0]!.pointer).toBe(`${AT}/0`);
    expect(problems({ field: 'email' })).toEqual([{ pointer: AT, detail: expect.any(String) }]);
  });

  it('names every problem of a filter, not only the first', () => {
    expect(
      problems([
        { field: 'nope', operator: 'eq', value: 1 },
        { any: [{ field: 'tags', operator: 'has', value: 'x' }] },
      ]).map((problem) => problem.pointer),
    ).toEqual([`${AT}/0/field`, `${AT}/1/any/0/value`]);
  });
});

describe('parseFilterDuration', () => {
  it('keeps calendar parts: a month is a month', () => {
    expect(parseFilterDuration('P1Y2M3W4DT5H6M7S')).toEqual({
      text: 'P1Y2M3W4DT5H6M7S',
      years: 1,
      months: 2,
      weeks: 3,
      days: 4,
      hours: 5,
      minutes: 6,
      seconds: 7,
    });
    expect(parseFilterDuration('PT12H')).toMatchObject({ hours: 12, days: 0 });
  });

  it('refuses what is not a non-zero ISO 8601 duration', () => {
    for (const text of ['P', 'PT', 'P0D', '30D', 'P1.5D', 'P1DT', 'p1d', 7, null]) {
      expect(parseFilterDuration(text)).toBeNull();
    }
  });
});
