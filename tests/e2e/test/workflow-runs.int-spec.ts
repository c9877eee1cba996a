import { eventually } from '@cms/testing';
import { Client } from 'pg';

import { startMessagingScenario, type Hook, type MessagingScenario, type System } from '../src';
import { replayInPlace, tablesOf } from '../src/ops-replay';

/**
 * Workflow runs end to end (extensions §12): an event recorded through the public API starts a run in
 * the automations service, whose steps send through messaging on a sandbox channel, wait on durable
 * timers, branch on the message's facts and change the contact through the contacts service; the goal
 * event ends the run with an outcome, served at /api/v1/outcomes and delivered as outcome.recorded.
 */

interface Run {
  id: number;
  workflow_id: number;
  version: number;
  contact_id: number;
  status: string;
  current_step: string | null;
  trigger_event_id: number;
  started_at: string;
  ended_at: string | null;
  history: Array<{ step: string | null; at: string; result: string; message_id: string | null }>;
}

let scenario: MessagingScenario;
let system: System;
let key: string;
let hooks: Hook[];
let create: MessagingScenario['create'];
let template: number;
let tag: number;

beforeAll(async () => {
  scenario = await startMessagingScenario(
    'workflow-runs-e2e',
    ['message.sent', 'message.delivered', 'outcome.recorded'],
    {},
    ['automations'],
  );
  ({ system, key, create } = scenario);
  hooks = scenario.receiver.hooks;
  await create('/api/v1/channels', { type: 'sms', name: 'Sandbox SMS', provider: 'sandbox' });
  template = await create('/api/v1/templates', {
    name: 'order',
    channel: 'sms',
    body: 'Hi {{ contact.name }}, order {{ event.data.order }} ({{ vars.greeting }}) is in.',
  });
  tag = await create('/api/v1/tags', { name: 'engaged' });
}, 120_000);

afterAll(async () => {
  await scenario?.stop();
});

function call<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  return system.call<T>(method, path, {
    key,
    ...(body === undefined ? {} : { body }),
    ...(headers ? { headers } : {}),
  });
}

async function recordEvent(
  name: string,
  phone: string,
  data: Record<string, unknown>,
  idempotencyKey?: string,
) {
  const answer = await call<{ data: { id: number; contact_id: number } }>(
    'POST',
    '/api/v1/events',
    { name, contact: { phone, name: 'Ada' }, data },
    idempotencyKey === undefined ? undefined : { 'idempotency-key': idempotencyKey },
  );
  expect([200, 202]).toContain(answer.status);
  return answer.body.data;
}

async function runsOf(workflowId: number, query = ''): Promise<Run[]> {
  const answer = await call<{ data: Run[] }>('GET', `/api/v1/workflows/${workflowId}/runs${query}`);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

function runWhere(workflowId: number, what: string, holds: (run: Run) => boolean): Promise<Run> {
  return eventually(what, async () => (await runsOf(workflowId)).find(holds), 30_000);
}

describe('a workflow from event to outcome', () => {
  let workflowId: number;

  beforeAll(async () => {
    workflowId = await create('/api/v1/workflows', {
      name: 'Order follow-up',
      trigger: { event: 'order_placed', filter: [{ field: 'event.data.total', operator: 'gte', value: 10 }] },
      steps: [
        {
          id: 'hello',
          type: 'send',
          route: [{ channel: 'sms', template_id: template }],
          variables: { greeting: 'thanks' },
        },
        // The branch reads the message's status: the test says when it is delivered, so a busy
        // machine's slow delivery cannot send the run the other way.
        { id: 'review', type: 'wait', until_event: { event: 'order_reviewed', timeout: 'P1D' } },
        { id: 'pause', type: 'wait', duration: 'PT2S' },
        {
          id: 'check',
          type: 'branch',
          cases: [
            {
              if: [{ field: 'message.hello.status', operator: 'in', value: ['delivered', 'read'] }],
              next: 'mark',
            },
          ],
          else: 'out',
        },
        { id: 'mark', type: 'update_contact', data: { stage: 'engaged' }, add_tags: [tag] },
        { id: 'done', type: 'exit' },
        { id: 'out', type: 'exit' },
      ],
      goal: { event: 'order_paid', within: 'P1D' },
    });
  });

  it('sends with the workflow on the message, waits, branches on its facts, updates the contact', async () => {
    const placed = await recordEvent('order_placed', '+14155550101', { total: 20, order: 'A-1' });
    const waiting = await runWhere(
      workflowId,
      'the run waiting for order_reviewed',
      (candidate) => candidate.trigger_event_id === placed.id && candidate.status === 'waiting',
    );
    const sentId = waiting.history[0]!.message_id!;
    await eventually(
      'the message delivered',
      () =>
        Promise.resolve(
          hooks.find((hook) => hook.type === 'message.delivered' && hook.data['id'] === sentId),
        ),
      20_000,
    );
    await recordEvent('order_reviewed', '+14155550101', {});
    const run = await runWhere(workflowId, 'the run to exit', (candidate) => candidate.status === 'exited');
    expect(run).toMatchObject({
      workflow_id: workflowId,
      version: 1,
      contact_id: placed.contact_id,
      trigger_event_id: placed.id,
      current_step: null,
    });
    expect(run.history.map((entry) => [entry.step, entry.result])).toEqual([
      ['hello', 'queued'],
      ['review', 'event'],
      ['pause', 'waited'],
      ['check', 'mark'],
      ['mark', 'updated'],
      ['done', 'exited'],
    ]);
    const messageId = run.history[0]!.message_id!;
    expect(messageId).toMatch(/^msg_[0-9a-f]{32}$/);
    // The wait lasted its duration at least.
    expect(Date.parse(run.history[2]!.at) - Date.parse(run.history[1]!.at)).toBeGreaterThanOrEqual(2000);

    const sent = await eventually(
      'message.sent of the run',
      () =>
        Promise.resolve(hooks.find((hook) => hook.type === 'message.sent' && hook.data['id'] === messageId)),
      20_000,
    );
    expect(sent.data['workflow']).toEqual({
      id: workflowId,
      name: 'Order follow-up',
      run_id: run.id,
      step: 'hello',
    });
    const message = await call<{ data: { body: string; workflow: unknown } }>(
      'GET',
      `/api/v1/messages/${messageId}`,
    );
    expect(message.body.data.body).toBe('Hi Ada, order A-1 (thanks) is in.');

    const contact = await eventually(
      'the contact updated by the run',
      async () => {
        const answer = await call<{
          data: { data: Record<string, unknown>; tags?: unknown[]; tag_ids?: number[] };
        }>('GET', `/api/v1/contacts/${placed.contact_id}`);
        return answer.body.data.data['stage'] === 'engaged' ? answer.body.data : undefined;
      },
      20_000,
    );
    expect(JSON.stringify(contact)).toContain(String(tag));

    const read = await call<{ data: Run }>('GET', `/api/v1/workflow-runs/${run.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(run);
  });

  it('starts nothing when the filter does not hold, nor for a repeated Idempotency-Key', async () => {
    await recordEvent('order_placed', '+14155550102', { total: 5, order: 'A-2' });
    const first = await recordEvent('order_placed', '+14155550103', { total: 50, order: 'A-3' }, 'inv-3');
    await runWhere(workflowId, 'the run of A-3', (run) => run.trigger_event_id === first.id);
    const again = await recordEvent('order_placed', '+14155550103', { total: 50, order: 'A-3' }, 'inv-3');
    expect(again.id).toBe(first.id);
    // A later event of the first contact passes both and is in the log after them.
    const marker = await recordEvent('order_placed', '+14155550104', { total: 11, order: 'A-4' });
    await runWhere(workflowId, 'the run of A-4', (run) => run.trigger_event_id === marker.id);
    const runs = await runsOf(workflowId);
    expect(runs.filter((run) => run.trigger_event_id === first.id)).toHaveLength(1);
    const smallOrders = await runsOf(
      workflowId,
      '?filter[contact_id]=' + String((await recordEvent('noop', '+14155550102', {})).contact_id),
    );
    expect(smallOrders).toEqual([]);
    // Newest first.
    expect(runs.map((run) => run.id)).toEqual([...runs.map((run) => run.id)].sort((a, b) => b - a));
  });

  it('ends a run on its goal with an outcome crediting its engaged message, and sends outcome.recorded', async () => {
    const goalFlow = await create('/api/v1/workflows', {
      name: 'Cart reminder',
      trigger: { event: 'cart_left' },
      steps: [
        {
          id: 'nudge',
          type: 'send',
          route: [{ channel: 'sms', template_id: template }],
          variables: { greeting: 'still there?' },
        },
        { id: 'hold', type: 'wait', until_event: { event: 'cart_seen', timeout: 'P1D' } },
      ],
      goal: { event: 'cart_paid', within: 'P1D' },
    });
    const left = await recordEvent('cart_left', '+14155550110', { order: 'C-1' });
    const waiting = await runWhere(
      goalFlow,
      'the run waiting for cart_seen',
      (run) => run.status === 'waiting',
    );
    const messageId = waiting.history[0]!.message_id!;
    await eventually(
      'the nudge delivered',
      () =>
        Promise.resolve(
          hooks.find((hook) => hook.type === 'message.delivered' && hook.data['id'] === messageId),
        ),
      20_000,
    );
    const paid = await recordEvent('cart_paid', '+14155550110', { total: 99 });
    const ended = await runWhere(
      goalFlow,
      'the run to reach its goal',
      (run) => run.status === 'goal_reached',
    );
    expect(ended.history.at(-1)).toMatchObject({ step: 'hold', result: 'goal_reached', message_id: null });
    expect(ended.ended_at).not.toBeNull();

    const outcomes = await eventually(
      'the outcome',
      async () => {
        const answer = await call<{ data: Array<Record<string, unknown>> }>(
          'GET',
          `/api/v1/outcomes?filter[workflow_id]=${goalFlow}`,
        );
        return answer.body.data.length > 0 ? answer.body.data : undefined;
      },
      20_000,
    );
    const expected = {
      id: ended.id,
      goal: 'cart_paid',
      workflow: { id: goalFlow, name: 'Cart reminder', run_id: ended.id },
      credited_message_id: messageId,
      channel: 'sms',
      contact: { id: left.contact_id, external_id: null, name: 'Ada', phone: '+14155550110', email: null },
      event: { id: paid.id, data: { total: 99 } },
    };
    expect(outcomes).toEqual([expect.objectContaining(expected)]);
    const one = await call<{ data: Record<string, unknown> }>('GET', `/api/v1/outcomes/${ended.id}`);
    expect(one.body.data).toEqual(outcomes[0]);
    const hook = await eventually(
      'outcome.recorded',
      () =>
        Promise.resolve(
          hooks.find(
            (candidate) => candidate.type === 'outcome.recorded' && candidate.data['id'] === ended.id,
          ),
        ),
      20_000,
    );
    expect(hook.data).toMatchObject(expected);
  });
});

describe('ops replay automations --in-place', () => {
  it('rebuilds runs, their messages and outcomes row for row, and sends nothing again', async () => {
    const db = new Client({ connectionString: system.stack.databaseUrl });
    await db.connect();
    try {
      const schema = system.schema('automations');
      const messagesBefore = await call<{ meta: { total: number } }>('GET', '/api/v1/messages');
      await system.halt('automations');
      const before = await tablesOf(db, schema);
      expect(before['workflow_runs']!.length).toBeGreaterThan(2);
      expect(before['outcomes']!.length).toBe(1);
      await replayInPlace(system, 'automations', schema);
      expect(await tablesOf(db, schema)).toEqual(before);
      await system.resume('automations');
      // Nothing the rebuild read asked for a message again: the next message decided is the new run's.
      const placed = await recordEvent('order_placed', '+14155550120', { total: 12, order: 'R-1' });
      const workflowId = (before['workflow_runs'] as Array<{ workflow_id: string }>)[0]!.workflow_id;
      await runWhere(
        Number(workflowId),
        'the run after the rebuild',
        (run) => run.trigger_event_id === placed.id,
      );
      const messagesAfter = await eventually(
        'the message of the run after the rebuild',
        async () => {
          const answer = await call<{ meta: { total: number } }>('GET', '/api/v1/messages');
          return answer.body.meta.total > messagesBefore.body.meta.total ? answer.body.meta.total : undefined;
        },
        20_000,
      );
      expect(messagesAfter).toBe(messagesBefore.body.meta.total + 1);
    } finally {
      await db.end();
    }
  });
});
