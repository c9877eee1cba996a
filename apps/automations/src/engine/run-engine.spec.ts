import { deterministicId, messageIdOfRecord, type WorkflowGoal, type WorkflowStep } from '@cms/contracts';

import type { CriteriaContact } from './criteria';
import {
  advance,
  creditedMessage,
  readsRunContact,
  startRun,
  type Advance,
  type Happening,
  type RunContext,
  type RunEffect,
  type RunMessage,
  type RunState,
  type RunWorkflow,
} from './run-engine';

const RUN_ID = 257;
const T0 = '2026-06-15T12:00:00.000Z';
const TRIGGER = { id: 101, name: 'signup.completed', data: { plan: 'pro', renewal: '2026-07-01' } };
const ROUTE = [{ channel: 'email', template_id: 7 }];

function workflow(steps: unknown[], goal: WorkflowGoal | null = null): RunWorkflow {
  return { id: 42, name: 'Welcome', version: 3, definition: { steps: steps as WorkflowStep[], goal } };
}

function contact(overrides: Partial<CriteriaContact> = {}): CriteriaContact {
  return {
    name: 'Ann',
    phone: null,
    email: 'ann@example.com',
    external_id: null,
    source: null,
    data: { renewal: '2026-07-01', bad: 'someday' },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: T0,
    tag_ids: [],
    marketing_consent: {},
    channels: {},
    ...overrides,
  };
}

function context(messages: RunMessage[] = [], overrides: Partial<RunContext> = {}): RunContext {
  return { contact: contact(), eventsNamed: () => [], messages, ...overrides };
}

function start(flow: RunWorkflow, ctx: RunContext = context(), at = T0): Advance {
  return startRun(flow, { run_id: RUN_ID, contact_id: 9, event: TRIGGER, at }, ctx);
}

function move(
  state: RunState,
  flow: RunWorkflow,
  happening: Happening,
  ctx: RunContext = context(),
): Advance {
  return advance(state, flow, happening, ctx);
}

function timerOf(moved: Advance): string {
  const timer = moved.state.waiting_for?.timer_id;
  if (timer === undefined) throw new Error('the run waits for no timer');
  return timer;
}

function results(state: RunState): Array<[string | null, string]> {
  return state.history.map((entry) => [entry.step, entry.result]);
}

function effectTypes(effects: RunEffect[]): string[] {
  return effects.map((effect) => effect.type);
}

function message(
  step: string,
  made_at: string,
  status: string,
  clicked = false,
  id = `msg_${step}_${made_at}`,
) {
  return { message_id: id, step, made_at, status, clicked, channel: 'email' };
}

describe('a run', () => {
  it('sends at once, queues the message in history and waits a duration with a timer', () => {
    const flow = workflow([
      { id: 'hello', type: 'send', route: ROUTE, variables: { code: 'A1' } },
      { id: 'pause', type: 'wait', duration: 'P1D' },
      { id: 'bye', type: 'send', route: ROUTE, purpose: 'marketing' },
    ]);
    const { state, effects } = start(flow);
    const messageId = messageIdOfRecord(deterministicId(String(RUN_ID), 'hello', 1, 'send'));
    expect(state).toMatchObject({
      id: RUN_ID,
      workflow_id: 42,
      version: 3,
      contact_id: 9,
      status: 'waiting',
      current_step: 'pause',
      started_at: T0,
      ended_at: null,
      history: [{ step: 'hello', at: T0, result: 'queued', message_id: messageId }],
      waiting_for: { kind: 'time', step: 'pause', due_at: '2026-06-16T12:00:00.000Z' },
    });
    expect(messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(effects).toEqual([
      {
        type: 'send_message',
        step: 'hello',
        request_id: deterministicId(String(RUN_ID), 'hello', 1, 'send'),
        message_id: messageId,
        contact_id: 9,
        route: ROUTE,
        purpose: 'transactional',
        variables: { code: 'A1' },
        template_scope: { event: TRIGGER, vars: { code: 'A1' }, waited_event: null },
        workflow: { id: 42, name: 'Welcome', run_id: RUN_ID, step: 'hello' },
      },
      {
        type: 'set_timer',
        timer_id: timerOf({ state, effects }),
        due_at: '2026-06-16T12:00:00.000Z',
        purpose: 'wait',
      },
    ]);
  });

  it('goes on when its timer is due, with the time of the record that moved it, and completes after the last step', () => {
    const flow = workflow([
      { id: 'pause', type: 'wait', duration: 'PT1H' },
      { id: 'bye', type: 'send', route: ROUTE, purpose: 'marketing' },
    ]);
    const waiting = start(flow);
    const due = '2026-06-15T13:00:05.000Z';
    const { state, effects } = move(waiting.state, flow, {
      kind: 'timer_due',
      timer_id: timerOf(waiting),
      at: due,
    });
    expect(results(state)).toEqual([
      ['pause', 'waited'],
      ['bye', 'queued'],
    ]);
    expect(state.history[0]!.at).toBe(due);
    expect(state).toMatchObject({
      status: 'completed',
      current_step: null,
      ended_at: due,
      waiting_for: null,
    });
    expect(effects).toEqual([expect.objectContaining({ type: 'send_message', purpose: 'marketing' })]);
  });

  it('makes the same ids when the same run is decided again', () => {
    const flow = workflow([
      { id: 'hello', type: 'send', route: ROUTE },
      { id: 'tag', type: 'update_contact', add_tags: [1] },
      { id: 'pause', type: 'wait', duration: 'PT1H' },
    ]);
    expect(start(flow)).toEqual(start(flow));
  });

  it('ignores a timer that is not the one it waits for, and anything once it has ended', () => {
    const flow = workflow([{ id: 'pause', type: 'wait', duration: 'PT1H' }]);
    const waiting = start(flow);
    const stale = move(waiting.state, flow, { kind: 'timer_due', timer_id: 'other', at: T0 });
    expect(stale).toEqual({ state: waiting.state, effects: [] });
    const ended = move(waiting.state, flow, { kind: 'timer_due', timer_id: timerOf(waiting), at: T0 }).state;
    expect(ended.status).toBe('completed');
    expect(move(ended, flow, { kind: 'workflow_deleted', at: T0 })).toEqual({ state: ended, effects: [] });
  });

  it('changes the contact as an update_contact step says, and exits at an exit step', () => {
    const flow = workflow([
      { id: 'tag', type: 'update_contact', data: { stage: 'onboarded' }, add_tags: [3], remove_tags: [4] },
      { id: 'out', type: 'exit' },
      { id: 'never', type: 'send', route: ROUTE },
    ]);
    const { state, effects } = start(flow);
    expect(effects).toEqual([
      {
        type: 'update_contact',
        step: 'tag',
        request_id: deterministicId(String(RUN_ID), 'tag', 1, 'update_contact'),
        contact_id: 9,
        data: { stage: 'onboarded' },
        add_tags: [3],
        remove_tags: [4],
      },
    ]);
    expect(results(state)).toEqual([
      ['tag', 'updated'],
      ['out', 'exited'],
    ]);
    expect(state).toMatchObject({ status: 'exited', current_step: null, ended_at: T0 });
  });

  it('follows next rather than the step below', () => {
    const flow = workflow([
      { id: 'a', type: 'update_contact', data: { a: 1 }, next: 'c' },
      { id: 'b', type: 'update_contact', data: { b: 1 } },
      { id: 'c', type: 'update_contact', data: { c: 1 } },
    ]);
    expect(results(start(flow).state)).toEqual([
      ['a', 'updated'],
      ['c', 'updated'],
    ]);
  });

  describe('waiting until a time of day', () => {
    it('sets its timer for the next time the zone reads it', () => {
      const flow = workflow([
        { id: 'nine', type: 'wait', until: { time_of_day: '09:00', timezone: 'Europe/Berlin' } },
      ]);
      // Saturday 28 March 2026, 11:00 in Berlin: Sunday 09:00 is already summer time.
      const { state } = start(flow, context(), '2026-03-28T10:00:00.000Z');
      expect(state.waiting_for).toMatchObject({ kind: 'time', due_at: '2026-03-29T07:00:00.000Z' });
    });
  });

  describe('waiting until a date', () => {
    it('renders the template over the contact and the trigger event, with its offset', () => {
      const flow = workflow([
        { id: 'renew', type: 'wait', until_date: '{{ contact.data.renewal }}', offset: '-P7D' },
        { id: 'again', type: 'wait', until_date: '{{ event.data.renewal }}' },
      ]);
      const first = start(flow);
      expect(first.state.waiting_for).toMatchObject({ due_at: '2026-06-24T00:00:00.000Z' });
      const second = move(first.state, flow, {
        kind: 'timer_due',
        timer_id: timerOf(first),
        at: '2026-06-24T00:00:01.000Z',
      });
      expect(second.state.waiting_for).toMatchObject({ step: 'again', due_at: '2026-07-01T00:00:00.000Z' });
    });

    it('goes on at once when the time has passed', () => {
      const flow = workflow([
        { id: 'past', type: 'wait', until_date: '2020-01-01' },
        { id: 'tag', type: 'update_contact', add_tags: [1] },
      ]);
      const { state } = start(flow);
      expect(results(state)).toEqual([
        ['past', 'waited'],
        ['tag', 'updated'],
      ]);
      expect(state.status).toBe('completed');
    });

    it('fails with invalid_date when the template renders no date', () => {
      const flow = workflow([
        { id: 'hello', type: 'send', route: ROUTE },
        { id: 'when', type: 'wait', until_date: '{{ contact.data.bad }}' },
      ]);
      const { state } = start(flow);
      expect(results(state)).toEqual([
        ['hello', 'queued'],
        ['when', 'invalid_date'],
      ]);
      expect(state).toMatchObject({ status: 'failed', current_step: null, ended_at: T0 });
    });
  });

  describe('waiting for an event', () => {
    const flow = workflow([
      {
        id: 'paid',
        type: 'wait',
        until_event: { event: 'order.paid', timeout: 'P2D', timeout_next: 'remind' },
      },
      { id: 'thanks', type: 'send', route: ROUTE, next: 'end' },
      { id: 'remind', type: 'send', route: ROUTE },
      { id: 'end', type: 'exit' },
    ]);

    it('goes to the following step with the event as waited_event, cancelling its timeout', () => {
      const waiting = start(flow);
      expect(waiting.state.waiting_for).toMatchObject({
        kind: 'event',
        event: 'order.paid',
        due_at: '2026-06-17T12:00:00.000Z',
      });
      expect(effectTypes(waiting.effects)).toEqual(['set_timer']);
      const paid = { id: 102, name: 'order.paid', data: { total: 30 } };
      const at = '2026-06-16T08:00:00.000Z';
      const other = move(waiting.state, flow, {
        kind: 'event_recorded',
        event: { ...paid, name: 'page.viewed' },
        occurred_at: at,
        at,
      });
      expect(other.effects).toEqual([]);
      const { state, effects } = move(waiting.state, flow, {
        kind: 'event_recorded',
        event: paid,
        occurred_at: at,
        at,
      });
      expect(results(state)).toEqual([
        ['paid', 'event'],
        ['thanks', 'queued'],
        ['end', 'exited'],
      ]);
      expect(state.waited_event).toEqual(paid);
      expect(effects[0]).toEqual({ type: 'cancel_timer', timer_id: timerOf(waiting) });
      expect(effects[1]).toMatchObject({ type: 'send_message', template_scope: { waited_event: paid } });
    });

    it('goes to timeout_next when the timeout passes, waited_event staying null', () => {
      const waiting = start(flow);
      const { state } = move(waiting.state, flow, {
        kind: 'timer_due',
        timer_id: timerOf(waiting),
        at: '2026-06-17T12:00:00.000Z',
      });
      expect(results(state)).toEqual([
        ['paid', 'timeout'],
        ['remind', 'queued'],
        ['end', 'exited'],
      ]);
      expect(state.waited_event).toBeNull();
    });

    it('goes to the following step on timeout without timeout_next', () => {
      const plain = workflow([
        { id: 'paid', type: 'wait', until_event: { event: 'order.paid', timeout: 'PT1H' } },
        { id: 'tag', type: 'update_contact', add_tags: [1] },
      ]);
      const waiting = start(plain);
      const { state } = move(waiting.state, plain, { kind: 'timer_due', timer_id: timerOf(waiting), at: T0 });
      expect(results(state)).toEqual([
        ['paid', 'timeout'],
        ['tag', 'updated'],
      ]);
    });
  });

  describe('branching', () => {
    const flow = workflow([
      { id: 'hello', type: 'send', route: ROUTE },
      {
        id: 'check',
        type: 'branch',
        cases: [
          { if: [{ field: 'message.hello.clicked', operator: 'eq', value: true }], next: 'clicked' },
          { if: [{ field: 'event.data.plan', operator: 'eq', value: 'PRO' }], next: 'pro' },
        ],
        else: 'other',
      },
      { id: 'clicked', type: 'exit' },
      { id: 'pro', type: 'exit' },
      { id: 'other', type: 'exit' },
    ]);

    it('goes to the next of the first case whose criteria hold, and names it in history', () => {
      // The facts of the message the step makes (its id is the one the step derives).
      const hello = messageIdOfRecord(deterministicId(String(RUN_ID), 'hello', 1, 'send'));
      const clicked = start(flow, context([message('hello', T0, 'delivered', true, hello)]));
      expect(results(clicked.state)).toEqual([
        ['hello', 'queued'],
        ['check', 'clicked'],
        ['clicked', 'exited'],
      ]);
      expect(results(start(flow).state)[1]).toEqual(['check', 'pro']);
    });

    it('reads the latest message the step made in the run', () => {
      const messages = [
        message('hello', '2026-06-15T12:00:00Z', 'read', true),
        message('hello', '2026-06-15T12:10:00Z', 'sent'),
      ];
      const over = workflow([
        { id: 'hello', type: 'send', route: ROUTE },
        {
          id: 'check',
          type: 'branch',
          cases: [{ if: [{ field: 'message.hello.status', operator: 'eq', value: 'sent' }], next: 'yes' }],
        },
        { id: 'no', type: 'exit' },
        { id: 'yes', type: 'exit' },
      ]);
      expect(results(start(over, context(messages)).state)[1]).toEqual(['check', 'yes']);
    });

    it('goes to else, or to the step below without else', () => {
      const plain = { ...TRIGGER, data: { plan: 'free' } };
      const elsewhere = startRun(flow, { run_id: RUN_ID, contact_id: 9, event: plain, at: T0 }, context());
      expect(results(elsewhere.state)[1]).toEqual(['check', 'other']);
      const noElse = workflow([
        {
          id: 'check',
          type: 'branch',
          cases: [{ if: [{ field: 'name', operator: 'eq', value: 'Bob' }], next: 'b' }],
        },
        { id: 'a', type: 'update_contact', add_tags: [1] },
        { id: 'b', type: 'exit' },
      ]);
      expect(results(start(noElse).state)).toEqual([
        ['check', 'a'],
        ['a', 'updated'],
        ['b', 'exited'],
      ]);
    });

    it('completes when the last step is a branch that goes below it', () => {
      const last = workflow([
        {
          id: 'check',
          type: 'branch',
          cases: [{ if: [{ field: 'name', operator: 'eq', value: 'Bob' }], next: 'check' }],
        },
      ]);
      const { state } = start(last);
      expect(results(state)).toEqual([['check', 'end']]);
      expect(state.status).toBe('completed');
    });
  });

  it('fails with step_limit after 100 steps without waiting', () => {
    const loop = workflow([
      { id: 'a', type: 'update_contact', data: { n: 1 } },
      { id: 'b', type: 'branch', cases: [{ if: [], next: 'a' }] },
    ]);
    const { state, effects } = start(loop);
    expect(state.history).toHaveLength(101);
    expect(state.history.at(-1)).toEqual({ step: 'a', at: T0, result: 'step_limit', message_id: null });
    expect(state).toMatchObject({ status: 'failed', current_step: null, ended_at: T0 });
    const requests = effects.map((effect) => (effect.type === 'update_contact' ? effect.request_id : null));
    expect(new Set(requests).size).toBe(50);
  });

  it('does not count steps across a wait toward the limit, and gives each run of a step its own ids', () => {
    const loop = workflow([
      { id: 'hello', type: 'send', route: ROUTE },
      { id: 'pause', type: 'wait', duration: 'PT1M', next: 'hello' },
    ]);
    let moved = start(loop);
    const messageIds = new Set<string>();
    const timers = new Set<string>();
    for (let round = 0; round < 60; round += 1) {
      timers.add(timerOf(moved));
      for (const effect of moved.effects)
        if (effect.type === 'send_message') messageIds.add(effect.message_id);
      moved = move(moved.state, loop, { kind: 'timer_due', timer_id: timerOf(moved), at: T0 });
    }
    expect(moved.state.status).toBe('waiting');
    expect(messageIds.size).toBe(60);
    expect(timers.size).toBe(60);
  });

  describe('with a goal', () => {
    const goal = { event: 'order.paid', within: 'P7D' };
    const flow = workflow(
      [
        { id: 'hello', type: 'send', route: ROUTE },
        { id: 'pause', type: 'wait', duration: 'P1D' },
        { id: 'nudge', type: 'send', route: ROUTE },
      ],
      goal,
    );
    const paid = { id: 109, name: 'order.paid', data: { total: 99 } };

    it('waits with no current step after its last step, then completes when within has passed', () => {
      const waiting = start(flow);
      const done = move(waiting.state, flow, {
        kind: 'timer_due',
        timer_id: timerOf(waiting),
        at: '2026-06-16T12:00:00.000Z',
      });
      expect(done.state).toMatchObject({
        status: 'waiting',
        current_step: null,
        goal_deadline: '2026-06-22T12:00:00.000Z',
        waiting_for: { kind: 'goal', due_at: '2026-06-22T12:00:00.000Z' },
      });
      expect(done.effects.at(-1)).toMatchObject({
        type: 'set_timer',
        purpose: 'goal_deadline',
        due_at: '2026-06-22T12:00:00.000Z',
      });
      const end = '2026-06-22T12:00:00.000Z';
      const completed = move(done.state, flow, { kind: 'timer_due', timer_id: timerOf(done), at: end });
      expect(completed.state).toMatchObject({ status: 'completed', ended_at: end, current_step: null });
      expect(completed.state.history).toHaveLength(3);
    });

    it('reaches its goal while waiting, cancelling the wait and recording the outcome with the credited message', () => {
      const waiting = start(flow);
      const at = '2026-06-15T18:00:00.000Z';
      const messages = [message('hello', T0, 'delivered', false, 'msg_a')];
      const { state, effects } = move(
        waiting.state,
        flow,
        { kind: 'event_recorded', event: paid, occurred_at: '2026-06-15T17:59:00Z', at },
        context(messages),
      );
      expect(state).toMatchObject({
        status: 'goal_reached',
        ended_at: at,
        current_step: null,
        waiting_for: null,
      });
      expect(state.history.at(-1)).toEqual({ step: 'pause', at, result: 'goal_reached', message_id: null });
      expect(effects).toEqual([
        { type: 'cancel_timer', timer_id: timerOf(waiting) },
        {
          type: 'record_outcome',
          outcome_id: RUN_ID,
          goal,
          workflow: { id: 42, name: 'Welcome', run_id: RUN_ID },
          contact_id: 9,
          credited_message_id: 'msg_a',
          channel: 'email',
          event: { id: 109, data: { total: 99 } },
          occurred_at: '2026-06-15T17:59:00Z',
          created_at: at,
        },
      ]);
    });

    it('reaches its goal while waiting after its steps, with a null step in history', () => {
      const waiting = start(flow);
      const done = move(waiting.state, flow, {
        kind: 'timer_due',
        timer_id: timerOf(waiting),
        at: '2026-06-16T12:00:00.000Z',
      });
      const at = '2026-06-20T00:00:00.000Z';
      const { state } = move(done.state, flow, { kind: 'event_recorded', event: paid, occurred_at: at, at });
      expect(state.status).toBe('goal_reached');
      expect(state.history.at(-1)).toMatchObject({ step: null, result: 'goal_reached' });
    });

    it('can no longer reach its goal once within has passed, though it goes on with its steps', () => {
      const slow = workflow(
        [
          { id: 'pause', type: 'wait', duration: 'P10D' },
          { id: 'bye', type: 'send', route: ROUTE },
        ],
        goal,
      );
      const waiting = start(slow);
      const late = '2026-06-23T00:00:00.000Z';
      expect(
        move(waiting.state, slow, { kind: 'event_recorded', event: paid, occurred_at: late, at: late })
          .effects,
      ).toEqual([]);
      const { state } = move(waiting.state, slow, {
        kind: 'timer_due',
        timer_id: timerOf(waiting),
        at: '2026-06-25T12:00:00.000Z',
      });
      expect(state.status).toBe('completed');
      expect(results(state)).toEqual([
        ['pause', 'waited'],
        ['bye', 'queued'],
      ]);
    });

    it('ends the run whose goal an event is before that event can end its until_event wait', () => {
      const both = workflow(
        [{ id: 'wait', type: 'wait', until_event: { event: 'order.paid', timeout: 'P1D' } }],
        goal,
      );
      const { state } = move(start(both).state, both, {
        kind: 'event_recorded',
        event: paid,
        occurred_at: T0,
        at: T0,
      });
      expect(state.status).toBe('goal_reached');
      expect(results(state)).toEqual([['wait', 'goal_reached']]);
    });
  });

  describe('ended from outside', () => {
    const flow = workflow([{ id: 'pause', type: 'wait', duration: 'P1D' }]);

    it('ends exited with a last entry replaced or workflow_deleted at the step it was at', () => {
      for (const kind of ['replaced', 'workflow_deleted'] as const) {
        const waiting = start(flow);
        const at = '2026-06-15T13:00:00.000Z';
        const { state, effects } = move(waiting.state, flow, { kind, at });
        expect(state).toMatchObject({
          status: 'exited',
          ended_at: at,
          current_step: null,
          waiting_for: null,
        });
        expect(state.history).toEqual([{ step: 'pause', at, result: kind, message_id: null }]);
        expect(effects).toEqual([{ type: 'cancel_timer', timer_id: timerOf(waiting) }]);
      }
    });
  });
});

describe('creditedMessage', () => {
  it('credits clicked over read over delivered over sent', () => {
    const clicked = message('a', '2026-06-15T10:00:00Z', 'delivered', true);
    const read = message('b', '2026-06-15T11:00:00Z', 'read');
    const delivered = message('c', '2026-06-15T12:00:00Z', 'delivered');
    const sent = message('d', '2026-06-15T13:00:00Z', 'sent');
    expect(creditedMessage([sent, delivered, read, clicked])).toBe(clicked);
    expect(creditedMessage([sent, delivered, read])).toBe(read);
    expect(creditedMessage([sent, delivered])).toBe(delivered);
    expect(creditedMessage([sent])).toBe(sent);
  });

  it('credits the latest made among equals', () => {
    const early = message('a', '2026-06-15T10:00:00Z', 'read');
    const late = message('b', '2026-06-15T11:00:00Z', 'read');
    expect(creditedMessage([late, early])).toBe(late);
    expect(creditedMessage([early, late])).toBe(late);
  });

  it('credits nothing when no message was even sent', () => {
    expect(
      creditedMessage([
        message('a', T0, 'queued'),
        message('b', T0, 'failed'),
        message('c', T0, 'suppressed'),
      ]),
    ).toBeNull();
    expect(creditedMessage([])).toBeNull();
  });
});

describe('readsRunContact', () => {
  const branch = (criteria: unknown[]) => ({
    id: 'check',
    type: 'branch',
    cases: [{ if: criteria, next: 'done' }],
  });
  const done = { id: 'done', type: 'exit' };

  it('is false for runs that only send, wait a duration or a time of day, wait for an event and update', () => {
    const flow = workflow([
      { id: 'hello', type: 'send', route: ROUTE },
      { id: 'later', type: 'wait', duration: 'P1D' },
      { id: 'morning', type: 'wait', until: { time_of_day: '09:00', timezone: 'Europe/Paris' } },
      { id: 'paid', type: 'wait', until_event: { event: 'order.paid', timeout: 'P2D' } },
      { id: 'mark', type: 'update_contact', data: { welcomed: true } },
    ]);
    expect(readsRunContact(flow)).toBe(false);
  });

  it('is false for branches on messages, the trigger event, the waited event and the contact’s events', () => {
    const flow = workflow([
      { id: 'hello', type: 'send', route: ROUTE },
      branch([
        { field: 'message.hello.clicked', operator: 'eq', value: true },
        { field: 'event.data.plan', operator: 'eq', value: 'pro' },
        { field: 'event.order.paid', operator: 'performed' },
      ]),
      done,
    ]);
    expect(readsRunContact(flow)).toBe(false);
  });

  it.each([
    ['a field', { field: 'email', operator: 'exists' }],
    ['custom data', { field: 'data.plan', operator: 'eq', value: 'pro' }],
    ['a time', { field: 'created_at', operator: 'within_last', value: 'P7D' }],
    ['a tag', { field: 'tags', operator: 'has', value: 3 }],
    ['consent', { field: 'consent.email', operator: 'eq', value: true }],
    ['a channel link', { field: 'channel.telegram', operator: 'exists' }],
  ])('is true for a branch that reads %s of the contact, even nested', (_what, condition) => {
    expect(readsRunContact(workflow([branch([condition]), done]))).toBe(true);
    expect(readsRunContact(workflow([branch([{ not: { any: [condition] } }]), done]))).toBe(true);
  });

  it('is true for an until_date wait, a template over the contact', () => {
    const flow = workflow([{ id: 'renew', type: 'wait', until_date: '{{ contact.data.renewal }}' }]);
    expect(readsRunContact(flow)).toBe(true);
  });
});
