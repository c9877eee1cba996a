import type { FilterProblem } from '../segments/filter-criteria';
import {
  longestDurationMs,
  parseSignedDuration,
  readWorkflowCriteria,
  readWorkflowDefinition,
  TRIGGER_CRITERIA_OPTIONS,
  branchCriteriaOptions,
  type WorkflowDefinition,
} from './workflow-definition';
import { parseFilterDuration } from '../segments/filter-criteria';

const AT = '/data/attributes';

function body(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Welcome',
    trigger: { event: 'signup.completed', filter: [{ field: 'data.plan', operator: 'eq', value: 'pro' }] },
    steps: [
      { id: 'hello', type: 'send', route: [{ channel: 'email', template_id: 1 }], variables: { code: 'A' } },
      { id: 'pause', type: 'wait', duration: 'P1D' },
      {
        id: 'check',
        type: 'branch',
        cases: [{ if: [{ field: 'message.hello.clicked', operator: 'eq', value: true }], next: 'done' }],
        else: 'nudge',
      },
      { id: 'nudge', type: 'update_contact', data: { nudged: true }, add_tags: [3], remove_tags: [4] },
      { id: 'done', type: 'exit' },
    ],
    ...overrides,
  };
}

function problems(value: unknown, mode: 'create' | 'update' = 'create'): FilterProblem[] {
  const reading = readWorkflowDefinition(value, mode);
  if (reading.ok) throw new Error('the definition was read');
  return reading.problems;
}

function pointers(value: unknown, mode: 'create' | 'update' = 'create'): string[] {
  return problems(value, mode).map((problem) => problem.pointer);
}

function withStep(step: Record<string, unknown>, others: unknown[] = []): Record<string, unknown> {
  return body({ steps: [step, ...others, { id: 'end', type: 'exit' }] });
}

describe('readWorkflowDefinition', () => {
  it('reads a create with the defaults of enabled, goal and re_entry, keeping what was sent', () => {
    const reading = readWorkflowDefinition(body(), 'create');
    if (!reading.ok) throw new Error(JSON.stringify(reading.problems));
    const value: WorkflowDefinition = reading.value;
    expect(value).toEqual({ ...body(), enabled: true, goal: null, re_entry: 'after_exit' });
  });

  it('gives a missing trigger filter as the empty filter', () => {
    const reading = readWorkflowDefinition(body({ trigger: { event: 'a' } }), 'create');
    expect(reading.ok && reading.value.trigger).toEqual({ event: 'a', filter: [] });
  });

  it('requires name, trigger and steps on create, and nothing on update', () => {
    expect(pointers({})).toEqual([`${AT}/name`, `${AT}/trigger`, `${AT}/steps`]);
    expect(pointers(body({ name: null, steps: null }))).toEqual([`${AT}/name`, `${AT}/steps`]);
    expect(readWorkflowDefinition({}, 'update')).toEqual({ ok: true, value: {} });
  });

  it('reads an update with only what was sent, goal null included', () => {
    expect(readWorkflowDefinition({ enabled: false, goal: null }, 'update')).toEqual({
      ok: true,
      value: { enabled: false, goal: null },
    });
  });

  it('refuses in an update what it refuses in a create, null for a field that cannot be cleared included', () => {
    expect(pointers({ name: null, re_entry: 'sometimes', steps: [] }, 'update')).toEqual([
      `${AT}/name`,
      `${AT}/steps`,
      `${AT}/re_entry`,
    ]);
  });

  it('refuses unknown attributes at their pointer, as every body of the API does', () => {
    expect(problems(body({ colour: 'red' }))).toEqual([
      { pointer: `${AT}/colour`, detail: 'property colour should not exist' },
    ]);
    expect(pointers(withStep({ id: 'a', type: 'exit', next: 'end' }))).toEqual([`${AT}/steps/0/next`]);
  });

  it('refuses a blank, too long or non-string name and a non-boolean enabled', () => {
    expect(pointers(body({ name: '  ', enabled: 'yes' }))).toEqual([`${AT}/name`, `${AT}/enabled`]);
    expect(pointers(body({ name: 'x'.repeat(256) }))).toEqual([`${AT}/name`]);
    expect(readWorkflowDefinition(body({ name: 'x'.repeat(255) }), 'create').ok).toBe(true);
  });

  it('refuses trigger and goal event names that break the event-name rule', () => {
    expect(
      pointers(body({ trigger: { event: 'Signup Completed' }, goal: { event: 'UP', within: 'P1D' } })),
    ).toEqual([`${AT}/trigger/event`, `${AT}/goal/event`]);
  });

  it('refuses a goal within of zero, of no duration or over P90D, and takes P90D and PT1H', () => {
    for (const within of ['P91D', 'P13W', 'P3M', 'P1Y', 'PT2161H', 'P0D', '1 day', 7]) {
      expect(pointers(body({ goal: { event: 'order.paid', within } }))).toEqual([`${AT}/goal/within`]);
    }
    for (const within of ['P90D', 'PT1H', 'P2M']) {
      expect(readWorkflowDefinition(body({ goal: { event: 'order.paid', within } }), 'create').ok).toBe(true);
    }
  });

  it('refuses re_entry other than never, always and after_exit', () => {
    expect(pointers(body({ re_entry: 'once' }))).toEqual([`${AT}/re_entry`]);
    for (const reEntry of ['never', 'always', 'after_exit']) {
      const reading = readWorkflowDefinition(body({ re_entry: reEntry }), 'create');
      expect(reading.ok && reading.value.re_entry).toBe(reEntry);
    }
  });

  it('refuses no steps and more than 50 steps at steps', () => {
    const many = Array.from({ length: 51 }, (_, index) => ({ id: `s${index}`, type: 'exit' }));
    expect(pointers(body({ steps: [] }))).toEqual([`${AT}/steps`]);
    expect(pointers(body({ steps: many }))).toEqual([`${AT}/steps`]);
    expect(readWorkflowDefinition(body({ steps: many.slice(0, 50) }), 'create').ok).toBe(true);
  });

  it('points a repeated id at the later step and a missing id at its step', () => {
    expect(
      pointers(
        body({
          steps: [{ id: 'a', type: 'exit' }, { type: 'exit' }, { id: 'a', type: 'exit' }],
        }),
      ),
    ).toEqual([`${AT}/steps/1/id`, `${AT}/steps/2/id`]);
  });

  it('refuses an unknown or missing type at steps/<i>/type', () => {
    expect(pointers(withStep({ id: 'a', type: 'sms' }, [{ id: 'b' }]))).toEqual([
      `${AT}/steps/0/type`,
      `${AT}/steps/1/type`,
    ]);
  });

  it('refuses next, else, case next and timeout_next naming no step', () => {
    expect(
      pointers(
        body({
          steps: [
            { id: 'a', type: 'wait', duration: 'PT1H', next: 'nowhere' },
            { id: 'b', type: 'branch', cases: [{ if: [], next: 'gone' }], else: 'lost' },
            { id: 'c', type: 'wait', until_event: { event: 'x', timeout: 'P1D', timeout_next: 'zz' } },
          ],
        }),
      ),
    ).toEqual([
      `${AT}/steps/0/next`,
      `${AT}/steps/1/cases/0/next`,
      `${AT}/steps/1/else`,
      `${AT}/steps/2/until_event/timeout_next`,
    ]);
  });

  it('lets a step name a later step, an earlier one, or itself', () => {
    const reading = readWorkflowDefinition(
      body({
        steps: [
          { id: 'a', type: 'wait', duration: 'PT1H', next: 'c' },
          { id: 'b', type: 'wait', duration: 'PT1H', next: 'a' },
          { id: 'c', type: 'wait', duration: 'PT1H', next: 'c' },
        ],
      }),
      'create',
    );
    expect(reading.ok).toBe(true);
  });

  describe('send steps', () => {
    it('refuses a route §9 would refuse at steps/<i>/route/<j>/<field>', () => {
      expect(
        problems(
          withStep({
            id: 'a',
            type: 'send',
            route: [
              { channel: 'pigeon', template_id: 0 },
              { template_id: 2 },
              { channel_id: 3, template_id: 4, timeout: 'PT1M' },
              { channel: 'sms', template_id: 5, wait_for: 'read', timeout: 'P8D', color: 'red' },
            ],
          }),
        ).map((problem) => problem.pointer),
      ).toEqual([
        `${AT}/steps/0/route/0/channel`,
        `${AT}/steps/0/route/0/template_id`,
        `${AT}/steps/0/route/1/channel_id`,
        `${AT}/steps/0/route/2/timeout`,
        `${AT}/steps/0/route/3/color`,
        `${AT}/steps/0/route/3/timeout`,
      ]);
    });

    it('keeps the index of each route step when one of them is no object', () => {
      expect(
        pointers(
          withStep({
            id: 'a',
            type: 'send',
            route: ['sms', { channel: 'sms', template_id: 1, timeout: 'PT1M' }],
          }),
        ),
      ).toEqual([`${AT}/steps/0/route/0`, `${AT}/steps/0/route/1/timeout`]);
    });

    it('refuses an empty route, one of more than four steps, an unknown purpose and variables that are no object', () => {
      const step = { channel: 'sms', template_id: 1 };
      expect(pointers(withStep({ id: 'a', type: 'send', route: [] }))).toEqual([`${AT}/steps/0/route`]);
      expect(
        pointers(
          withStep({
            id: 'a',
            type: 'send',
            route: [step, step, step, step, step],
            purpose: 'promo',
            variables: [],
          }),
        ),
      ).toEqual([`${AT}/steps/0/route`, `${AT}/steps/0/purpose`, `${AT}/steps/0/variables`]);
    });

    it('takes the route of the messages API with purpose and variables', () => {
      const step = {
        id: 'a',
        type: 'send',
        route: [
          { channel: 'whatsapp', template_id: 1, wait_for: 'delivered', timeout: 'PT5M' },
          { channel_id: 9, template_id: 2 },
        ],
        purpose: 'marketing',
        variables: { code: 'X' },
      };
      expect(readWorkflowDefinition(withStep(step), 'create').ok).toBe(true);
    });
  });

  describe('wait steps', () => {
    it('refuses a wait with none or more than one of duration, until, until_date and until_event at the step', () => {
      expect(pointers(withStep({ id: 'a', type: 'wait' }))).toEqual([`${AT}/steps/0`]);
      expect(pointers(withStep({ id: 'a', type: 'wait', duration: 'P1D', until_date: '{{ x }}' }))).toEqual([
        `${AT}/steps/0`,
      ]);
    });

    it('refuses a bad duration, time of day, time zone, until_date and offset at their fields', () => {
      expect(pointers(withStep({ id: 'a', type: 'wait', duration: 'PT0S' }))).toEqual([
        `${AT}/steps/0/duration`,
      ]);
      expect(
        pointers(
          withStep({ id: 'a', type: 'wait', until: { time_of_day: '24:00', timezone: 'Mars/Olympus' } }),
        ),
      ).toEqual([`${AT}/steps/0/until/time_of_day`, `${AT}/steps/0/until/timezone`]);
      expect(pointers(withStep({ id: 'a', type: 'wait', until_date: '', offset: '+P1D' }))).toEqual([
        `${AT}/steps/0/until_date`,
        `${AT}/steps/0/offset`,
      ]);
      expect(pointers(withStep({ id: 'a', type: 'wait', duration: 'P1D', offset: 'P1D' }))).toEqual([
        `${AT}/steps/0/offset`,
      ]);
    });

    it('takes each kind of wait', () => {
      for (const wait of [
        { duration: 'P1DT2H' },
        { until: { time_of_day: '09:00', timezone: 'Europe/Berlin' } },
        { until_date: '{{ contact.data.renewal_date }}', offset: '-P7D' },
        { until_date: '{{ event.data.due }}' },
        { until_event: { event: 'order.paid', timeout: 'P90D', timeout_next: 'end' } },
      ]) {
        const reading = readWorkflowDefinition(withStep({ id: 'a', type: 'wait', ...wait }), 'create');
        expect(reading.ok ? 'read' : reading.problems).toBe('read');
      }
    });

    it('refuses an until_event with a bad event, no timeout, a timeout over P90D or an unknown field', () => {
      expect(pointers(withStep({ id: 'a', type: 'wait', until_event: { event: 'Paid!' } }))).toEqual([
        `${AT}/steps/0/until_event/event`,
        `${AT}/steps/0/until_event/timeout`,
      ]);
      expect(
        pointers(
          withStep({ id: 'a', type: 'wait', until_event: { event: 'paid', timeout: 'P91D', when: 1 } }),
        ),
      ).toEqual([`${AT}/steps/0/until_event/when`, `${AT}/steps/0/until_event/timeout`]);
    });
  });

  describe('update_contact steps', () => {
    it('refuses data that is no object and tags that are no tag ids at their index', () => {
      expect(
        pointers(
          withStep({ id: 'a', type: 'update_contact', data: 'x', add_tags: [1, '2', 0], remove_tags: 5 }),
        ),
      ).toEqual([
        `${AT}/steps/0/data`,
        `${AT}/steps/0/add_tags/1`,
        `${AT}/steps/0/add_tags/2`,
        `${AT}/steps/0/remove_tags`,
      ]);
    });
  });

  describe('criteria', () => {
    it('reads trigger filters over the contact and the trigger event data', () => {
      const reading = readWorkflowDefinition(
        body({
          trigger: {
            event: 'order.paid',
            filter: [
              { field: 'event.data.total', operator: 'gte', value: 100 },
              { field: 'event.order.paid', operator: 'count_gte', value: { count: 2 } },
              { field: 'tags', operator: 'has', value: 1 },
            ],
          },
        }),
        'create',
      );
      expect(reading.ok).toBe(true);
    });

    it('refuses waited_event and message fields in a trigger filter, which has neither', () => {
      expect(
        pointers(
          body({
            trigger: {
              event: 'a',
              filter: [
                { field: 'waited_event.data.x', operator: 'exists' },
                { field: 'message.hello.status', operator: 'eq', value: 'sent' },
              ],
            },
          }),
        ),
      ).toEqual([`${AT}/trigger/filter/0/field`, `${AT}/trigger/filter/1/field`]);
    });

    it('refuses audience in workflow criteria with the reason', () => {
      expect(
        problems(
          body({ trigger: { event: 'a', filter: [{ field: 'audience', operator: 'in', value: [1] }] } }),
        ),
      ).toEqual([
        {
          pointer: `${AT}/trigger/filter/0/field`,
          detail: 'workflows cannot read audience membership: use the conditions of the audience instead',
        },
      ]);
    });

    it('reads branch cases over the waited event and the messages of the workflow steps', () => {
      const cases = [
        {
          if: [
            { field: 'waited_event.data.amount', operator: 'gt', value: 5 },
            { field: 'message.hello.status', operator: 'in', value: ['delivered', 'read'] },
            { field: 'message.hello.clicked', operator: 'eq', value: false },
            { field: 'event.data.plan', operator: 'neq', value: 'free' },
          ],
          next: 'end',
        },
      ];
      const steps = [
        { id: 'hello', type: 'send', route: [{ channel: 'sms', template_id: 1 }] },
        { id: 'b', type: 'branch', cases },
        { id: 'end', type: 'exit' },
      ];
      const reading = readWorkflowDefinition(body({ steps }), 'create');
      expect(reading.ok ? 'read' : reading.problems).toBe('read');
    });

    it('refuses a message field naming no step, an unknown status and a clicked that is no boolean', () => {
      const cases = [
        {
          if: [
            { field: 'message.ghost.status', operator: 'eq', value: 'sent' },
            { field: 'message.b.status', operator: 'eq', value: 'opened' },
            { field: 'message.b.clicked', operator: 'eq', value: 'yes' },
            { field: 'message.b.opened', operator: 'eq', value: true },
            { field: 'message.b.status', operator: 'contains', value: 'se' },
          ],
          next: 'end',
        },
      ];
      expect(pointers(withStep({ id: 'b', type: 'branch', cases }))).toEqual([
        `${AT}/steps/0/cases/0/if/0/field`,
        `${AT}/steps/0/cases/0/if/1/value`,
        `${AT}/steps/0/cases/0/if/2/value`,
        `${AT}/steps/0/cases/0/if/3/field`,
        `${AT}/steps/0/cases/0/if/4/operator`,
      ]);
    });

    it('refuses a case without if or with criteria that are no array', () => {
      expect(
        pointers(withStep({ id: 'b', type: 'branch', cases: [{ next: 'end' }, { if: {}, next: 'end' }] })),
      ).toEqual([`${AT}/steps/0/cases/0/if`, `${AT}/steps/0/cases/1/if`]);
    });

    it('reads criteria into the tree the engine evaluates', () => {
      const trigger = readWorkflowCriteria(
        [{ field: 'event.data.total', operator: 'gt', value: 1 }],
        '/x',
        TRIGGER_CRITERIA_OPTIONS,
      );
      expect(trigger.ok && trigger.criteria).toEqual([
        {
          kind: 'condition',
          condition: {
            kind: 'scoped_data',
            scope: 'event',
            condition: { kind: 'data', path: ['total'], operator: 'gt', value: 1 },
          },
        },
      ]);
      const branch = readWorkflowCriteria(
        [{ field: 'message.a.b.clicked', operator: 'eq', value: true }],
        '/x',
        branchCriteriaOptions(['a.b']),
      );
      expect(branch.ok && branch.criteria[0]).toEqual({
        kind: 'condition',
        condition: { kind: 'message_clicked', step: 'a.b', operator: 'eq', value: true },
      });
    });
  });
});

describe('durations', () => {
  it('reads a signed offset', () => {
    expect(parseSignedDuration('-P1D')?.sign).toBe(-1);
    expect(parseSignedDuration('PT2H')?.sign).toBe(1);
    expect(parseSignedDuration('--P1D')).toBeNull();
  });

  it('counts a month as 31 days and a year as 366 for limits', () => {
    expect(longestDurationMs(parseFilterDuration('P1M')!)).toBe(31 * 86_400_000);
    expect(longestDurationMs(parseFilterDuration('P1Y')!)).toBe(366 * 86_400_000);
  });
});
