import {
  AUTOMATIONS_FACT_TYPES,
  AUTOMATIONS_REQUEST_TYPES,
  BOT_REQUEST_TYPES,
  CONTACT_REQUEST_TYPES,
  messageIdOfRecord,
  MESSAGING_REQUEST_TYPES,
  OUTCOME_TYPES,
  requestEnvelope,
  RUN_FACT_TYPES,
  RUN_INPUT_TYPES,
  TAG_REQUEST_TYPES,
  type Envelope,
  type RequestAcceptedV1,
  type RequestPayloads,
} from '@cms/contracts';
import { migrationDrift } from '@cms/persistence';
import type { RunningService } from '@cms/service-kit';
import { ServiceHarness, type OutcomeEnvelope } from '@cms/service-kit/testing';
import { eventually } from '@cms/testing';
import { DataSource } from 'typeorm';

import { AUTOMATIONS_SERVICE } from '../src/automations.service';
import type { AutomationsConfig } from '../src/config';
import { contactCreated, eventRecorded, inboundMessage, linkClicked, messageFact } from './run-facts';

let harness: ServiceHarness<AutomationsConfig>;
let service: RunningService;
let lastWorkspace = 0;

type AutomationsRequestType =
  | (typeof AUTOMATIONS_REQUEST_TYPES)[keyof typeof AUTOMATIONS_REQUEST_TYPES]
  | (typeof BOT_REQUEST_TYPES)[keyof typeof BOT_REQUEST_TYPES];

beforeAll(async () => {
  harness = await ServiceHarness.start({
    definition: AUTOMATIONS_SERVICE,
    prefix: 'automations',
    read: ['automations', 'requests'],
  });
  service = await harness.startService();
});

afterAll(async () => {
  await harness?.stop();
});

/** A workspace of its own for each test. */
function workspace(): number {
  lastWorkspace += 1;
  return lastWorkspace;
}

let lastWorkflow = 0;

/** A definition as the gateway's readWorkflowDefinition leaves it (defaults filled in). */
function definition(name: string): Record<string, unknown> {
  return {
    name,
    enabled: true,
    trigger: { event: 'signed_up', filter: [] },
    steps: [{ id: 'end', type: 'exit' }],
    goal: null,
    re_entry: 'after_exit',
  };
}

/** A request as the gateway produces it, and its outcome. */
async function request<T extends AutomationsRequestType>(
  workspaceId: number,
  type: T,
  data: RequestPayloads[T],
): Promise<OutcomeEnvelope> {
  const envelope = requestEnvelope(type, data, { source: 'gateway', workspaceid: String(workspaceId) });
  await harness.produce(envelope);
  return harness.outcomeOf(envelope);
}

function createWorkflow(workspaceId: number, name: string, id = ++lastWorkflow): Promise<OutcomeEnvelope> {
  return request(workspaceId, AUTOMATIONS_REQUEST_TYPES.workflowCreate, {
    workflow_id: id,
    ...definition(name),
  } as RequestPayloads['workflow.create.requested']);
}

async function read(path: string, workspaceId: number): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${service.url}${path}`, {
    headers: { 'x-workspace-id': String(workspaceId) },
  });
  return { status: response.status, body: await response.json() };
}

async function namesIn(workspaceId: number): Promise<string[]> {
  const rows: Array<{ name: string }> = await harness.db.query(
    'SELECT name FROM workflows WHERE workspace_id = $1 ORDER BY name',
    [workspaceId],
  );
  return rows.map((row) => row.name);
}

describe('the process', () => {
  it('starts from main.ts, migrates, and answers /health, /ready and /metrics', async () => {
    // On a schema and consumer group of its own, beside the instance the other tests use.
    const started = await harness.spawnService({
      schema: harness.newSchema(),
      env: { CONSUMER_NAME: 'automations-process' },
    });
    try {
      expect((await fetch(`${started.url}/health`)).status).toBe(200);
      expect((await fetch(`${started.url}/ready`)).status).toBe(200);
      const metrics = await fetch(`${started.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('service="automations"');
    } finally {
      await started.stop();
    }
  });
});

describe('workflow requests', () => {
  it('creates a workflow: 201 with it at version 1, its fact, its row and its first version, read back', async () => {
    const ws = workspace();
    const outcome = await createWorkflow(ws, 'First');
    expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
    const { status, resource } = outcome.data as RequestAcceptedV1;
    expect(status).toBe(201);
    const id = (resource as { id: number }).id;
    expect(resource).toEqual({
      id,
      ...definition('First'),
      version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const fact = await harness.waitFor('the fact of the request', () =>
      harness
        .recordsOn(harness.topics.automations)
        .find((record) => record.causationid === outcome.causationid),
    );
    expect(fact).toMatchObject({
      type: AUTOMATIONS_FACT_TYPES.workflowCreated,
      subject: String(id),
      data: { workflow_id: id, name: 'First', version: 1 },
    });
    expect(await namesIn(ws)).toEqual(['First']);

    expect(await read(`/internal/v1/workflows/${id}`, ws)).toEqual({ status: 200, body: { data: resource } });
    expect(await read('/internal/v1/workflows', ws)).toMatchObject({
      status: 200,
      body: { data: [resource], meta: { total: 1 } },
    });
    // Another workspace's workflow is not found.
    expect((await read(`/internal/v1/workflows/${id}`, workspace())).status).toBe(404);
  });

  it('makes a new version only when trigger, steps, goal or re_entry change, and keeps every version', async () => {
    const ws = workspace();
    const id = ++lastWorkflow;
    await createWorkflow(ws, 'Versions', id);
    const update = (changes: Record<string, unknown>) =>
      request(ws, AUTOMATIONS_REQUEST_TYPES.workflowUpdate, { workflow_id: id, changes });
    expect((await update({ name: 'Renamed', enabled: false })).data).toMatchObject({
      status: 200,
      resource: { name: 'Renamed', enabled: false, version: 1 },
    });
    expect((await update({ re_entry: 'always' })).data).toMatchObject({ resource: { version: 2 } });
    expect((await update({ re_entry: 'always' })).data).toMatchObject({ resource: { version: 2 } });
    const versions: Array<{ version: number; re_entry: string }> = await harness.db.query(
      'SELECT version, re_entry FROM workflow_versions WHERE workflow_id = $1 ORDER BY version',
      [id],
    );
    expect(versions).toEqual([
      { version: 1, re_entry: 'after_exit' },
      { version: 2, re_entry: 'always' },
    ]);
  });

  it('refuses an update or delete of a workflow the workspace lacks (404), and a definition §12 refuses (422)', async () => {
    const ws = workspace();
    const id = ++lastWorkflow;
    await createWorkflow(ws, 'Mine', id);
    const elsewhere = workspace();
    expect(
      (await request(elsewhere, AUTOMATIONS_REQUEST_TYPES.workflowUpdate, { workflow_id: id, changes: {} }))
        .data,
    ).toMatchObject({ status: 404 });
    expect(
      (await request(elsewhere, AUTOMATIONS_REQUEST_TYPES.workflowDelete, { workflow_id: id })).data,
    ).toMatchObject({ status: 404 });
    const refused = await request(ws, AUTOMATIONS_REQUEST_TYPES.workflowUpdate, {
      workflow_id: id,
      changes: { steps: [] },
    });
    expect(refused.type).toBe(OUTCOME_TYPES.rejected);
    expect(refused.data).toMatchObject({
      status: 422,
      errors: [{ source: { pointer: '/data/attributes/steps' } }],
    });
    expect(
      (await request(ws, AUTOMATIONS_REQUEST_TYPES.workflowDelete, { workflow_id: id })).data,
    ).toMatchObject({
      status: 204,
    });
    expect(await namesIn(ws)).toEqual([]);
  });
});

describe('runs', () => {
  /** The workflow's message.send.requested records, once there are `count`. */
  function sendsOf(workflowId: number, count: number): Promise<Envelope<Record<string, unknown>>[]> {
    return harness.waitFor(`${count} sends of workflow ${workflowId}`, () => {
      const sends = harness
        .recordsOn(harness.topics.requests)
        .filter(
          (record) =>
            record.type === MESSAGING_REQUEST_TYPES.messageSend &&
            (record.data['workflow'] as { id: number } | undefined)?.id === workflowId,
        );
      return sends.length >= count ? sends : undefined;
    });
  }

  async function runsOf(workflowId: number): Promise<Array<Record<string, unknown>>> {
    return harness.db.query('SELECT * FROM workflow_runs WHERE workflow_id = $1 ORDER BY id', [workflowId]);
  }

  function runsWhere(
    workflowId: number,
    what: string,
    holds: (runs: Array<Record<string, unknown>>) => boolean,
  ) {
    return eventually(what, async () => {
      const runs = await runsOf(workflowId);
      return holds(runs) ? runs : undefined;
    });
  }

  it('starts from an event, sends with the workflow through messaging, and its goal records an outcome', async () => {
    const ws = workspace();
    const workflowId = ++lastWorkflow;
    await request(ws, AUTOMATIONS_REQUEST_TYPES.workflowCreate, {
      workflow_id: workflowId,
      name: 'Nudge',
      enabled: true,
      trigger: { event: 'cart_left', filter: [{ field: 'event.data.total', operator: 'gte', value: 10 }] },
      steps: [
        { id: 'nudge', type: 'send', route: [{ channel: 'sms', template_id: 7 }], variables: { a: 1 } },
        { id: 'hold', type: 'wait', until_event: { event: 'cart_seen', timeout: 'P1D' } },
      ],
      goal: { event: 'cart_paid', within: 'P1D' },
      re_entry: 'always',
    } as RequestPayloads['workflow.create.requested']);
    await harness.publish(harness.topics.contacts, [
      contactCreated(ws, 501),
      eventRecorded(ws, 501, 9001, 'cart_left', { total: 5 }),
      eventRecorded(ws, 501, 9002, 'cart_left', { total: 20 }),
    ]);
    const [send] = await sendsOf(workflowId, 1);
    const [run] = await runsWhere(
      workflowId,
      'one run waiting',
      (runs) => runs.length === 1 && runs[0]!['status'] === 'waiting',
    );
    const runId = Number(run!['id']);
    const messageId = messageIdOfRecord(send!.id);
    expect(send!.data).toEqual({
      contact_id: 501,
      route: [{ channel: 'sms', template_id: 7 }],
      purpose: 'transactional',
      variables: { a: 1 },
      workflow: { id: workflowId, name: 'Nudge', run_id: runId, step: 'nudge' },
      event: { id: 9002, name: 'cart_left', data: { total: 20 } },
      waited_event: null,
    });
    expect(run!['history']).toEqual([
      { step: 'nudge', at: expect.any(String), result: 'queued', message_id: messageId },
    ]);
    expect(await harness.db.query('SELECT id FROM run_timers WHERE run_id = $1', [runId])).toHaveLength(1);

    // Messaging's facts of the message, then the goal.
    const workflow = { id: workflowId, name: 'Nudge', run_id: runId, step: 'nudge' };
    await harness.publish(harness.topics.messaging, [
      messageFact(ws, { id: messageId, contactId: 501, status: 'queued', workflow }),
      messageFact(ws, { id: messageId, contactId: 501, status: 'delivered', workflow }),
      linkClicked(ws, { id: messageId, contactId: 501, workflow }),
    ]);
    await eventually('the delivery in the run', async () => {
      const rows: unknown[] = await harness.db.query(
        "SELECT 1 FROM run_messages WHERE message_id = $1 AND status = 'delivered' AND clicked AND channel = 'sms'",
        [messageId],
      );
      return rows.length === 1;
    });
    await harness.publish(harness.topics.contacts, [
      eventRecorded(ws, 501, 9003, 'cart_paid', { total: 20 }),
    ]);
    const outcome = await harness.waitFor('outcome.recorded', () =>
      harness
        .recordsOn(harness.topics.automations)
        .find((record) => record.type === RUN_FACT_TYPES.outcomeRecorded && record.subject === String(runId)),
    );
    expect(outcome.data).toEqual({
      id: runId,
      goal: 'cart_paid',
      workflow: { id: workflowId, name: 'Nudge', run_id: runId },
      credited_message_id: messageId,
      channel: 'sms',
      contact: { id: 501, external_id: null, name: 'Ada', phone: '+14155550501', email: null },
      event: { id: 9003, data: { total: 20 } },
      occurred_at: '2026-06-15T12:00:00.000Z',
      created_at: expect.any(String),
    });
    const [ended] = await runsOf(workflowId);
    expect(ended).toMatchObject({ status: 'goal_reached', current_step: null });
    expect(await harness.db.query('SELECT id FROM run_timers WHERE run_id = $1', [runId])).toEqual([]);
    const served = await read(`/internal/v1/outcomes/${runId}`, ws);
    expect(served).toEqual({ status: 200, body: { data: outcome.data } });
    expect((await read(`/internal/v1/outcomes/${runId}`, ws + 1000)).status).toBe(404);
  });

  it("forwards a message's facts only to a run that reads them (a goal or a branch), not to one that ended", async () => {
    const ws = workspace();
    const sendStep = { id: 'tell', type: 'send', route: [{ channel: 'sms', template_id: 7 }], variables: {} };
    const receipt = ++lastWorkflow;
    const nudge = ++lastWorkflow;
    for (const [workflowId, name, goal] of [
      [receipt, 'Receipt', null],
      [nudge, 'Nudge', { event: 'paid_twice', within: 'P1D' }],
    ] as const) {
      await request(ws, AUTOMATIONS_REQUEST_TYPES.workflowCreate, {
        workflow_id: workflowId,
        name,
        enabled: true,
        trigger: { event: 'paid', filter: [] },
        steps: [sendStep],
        goal,
        re_entry: 'always',
      } as RequestPayloads['workflow.create.requested']);
    }
    await harness.publish(harness.topics.contacts, [
      contactCreated(ws, 651),
      eventRecorded(ws, 651, 9151, 'paid'),
    ]);
    const [receiptSend] = await sendsOf(receipt, 1);
    const [nudgeSend] = await sendsOf(nudge, 1);
    const [receiptRun] = await runsWhere(
      receipt,
      'the receipt completed',
      (runs) => runs[0]?.['status'] === 'completed',
    );
    const [nudgeRun] = await runsWhere(
      nudge,
      'the nudge waits for its goal',
      (runs) => runs[0]?.['status'] === 'waiting',
    );
    const receiptMessage = messageIdOfRecord(receiptSend!.id);
    const nudgeMessage = messageIdOfRecord(nudgeSend!.id);
    const factsOf = (message: string, run: Record<string, unknown>, name: string) =>
      (['queued', 'sent', 'delivered'] as const).map((status) =>
        messageFact(ws, {
          id: message,
          contactId: 651,
          status,
          workflow: { id: Number(run['workflow_id']), name, run_id: Number(run['id']), step: 'tell' },
        }),
      );
    // The ended run's facts first, in the same partition as the reading run's.
    await harness.publish(harness.topics.messaging, [
      ...factsOf(receiptMessage, receiptRun!, 'Receipt'),
      ...factsOf(nudgeMessage, nudgeRun!, 'Nudge'),
    ]);
    await eventually('the nudge delivered in its run', async () => {
      const rows: unknown[] = await harness.db.query(
        "SELECT 1 FROM run_messages WHERE message_id = $1 AND status = 'delivered'",
        [nudgeMessage],
      );
      return rows.length === 1;
    });
    const inputs = harness
      .recordsOn(harness.topics.requests)
      .filter((record) => record.type === RUN_INPUT_TYPES.message)
      .map((record) => record.data['message_id']);
    expect(inputs.filter((id) => id === nudgeMessage)).toHaveLength(3);
    expect(inputs.filter((id) => id === receiptMessage)).toEqual([]);
    expect(
      await harness.db.query('SELECT status FROM run_messages WHERE message_id = $1', [receiptMessage]),
    ).toEqual([{ status: 'queued' }]);
  });

  it("reads the contact's events in a trigger filter (performed), those recorded before the trigger", async () => {
    const ws = workspace();
    const workflowId = ++lastWorkflow;
    await request(ws, AUTOMATIONS_REQUEST_TYPES.workflowCreate, {
      workflow_id: workflowId,
      name: 'Returning',
      enabled: true,
      trigger: { event: 'ping', filter: [{ field: 'event.signed_up', operator: 'performed' }] },
      steps: [{ id: 'end', type: 'exit' }],
      goal: null,
      re_entry: 'always',
    } as RequestPayloads['workflow.create.requested']);
    await harness.publish(harness.topics.contacts, [
      contactCreated(ws, 701),
      eventRecorded(ws, 701, 9201, 'ping'),
      eventRecorded(ws, 701, 9202, 'signed_up'),
      eventRecorded(ws, 701, 9203, 'ping'),
    ]);
    const runs = await runsWhere(workflowId, 'the run of the second ping', (found) => found.length === 1);
    expect(runs[0]).toMatchObject({ trigger_event_id: '9203', status: 'exited' });
  });

  it('fires the timers of a run that reads the contact with it, and of one that does not without it', async () => {
    const ws = workspace();
    const plain = ++lastWorkflow;
    const reading = ++lastWorkflow;
    const send = { id: 'tell', type: 'send', route: [{ channel: 'sms', template_id: 7 }], variables: {} };
    // The runs start at the event's time, long past: their one-second waits fall due at once.
    for (const [workflowId, name, steps] of [
      [plain, 'Later', [{ id: 'pause', type: 'wait', duration: 'PT1S' }, send]],
      [
        reading,
        'Later for pros',
        [
          { id: 'pause', type: 'wait', duration: 'PT1S' },
          {
            id: 'pro',
            type: 'branch',
            cases: [{ if: [{ field: 'data.plan', operator: 'eq', value: 'pro' }], next: 'tell' }],
            else: 'stop',
          },
          { id: 'stop', type: 'exit' },
          send,
        ],
      ],
    ] as const) {
      await request(ws, AUTOMATIONS_REQUEST_TYPES.workflowCreate, {
        workflow_id: workflowId,
        name,
        enabled: true,
        trigger: { event: 'paused', filter: [] },
        steps,
        goal: null,
        re_entry: 'always',
      } as unknown as RequestPayloads['workflow.create.requested']);
    }
    await harness.publish(harness.topics.contacts, [
      contactCreated(ws, 751, { data: { plan: 'pro' } }),
      eventRecorded(ws, 751, 9251, 'paused'),
    ]);

    const [plainRun] = await runsWhere(
      plain,
      'the run completed',
      (runs) => runs[0]?.['status'] === 'completed',
    );
    const [readingRun] = await runsWhere(
      reading,
      'the run completed',
      (runs) => runs[0]?.['status'] === 'completed',
    );
    const fired = (run: Record<string, unknown> | undefined) =>
      harness
        .recordsOn(harness.topics.requests)
        .filter((record) => record.type === RUN_INPUT_TYPES.timer && record.subject === String(run!['id']));
    expect(fired(plainRun).map((record) => record.data['contact'])).toEqual([null]);
    expect(fired(readingRun).map((record) => record.data['contact'])).toEqual([
      expect.objectContaining({ contact_id: 751, data: { plan: 'pro' } }),
    ]);
    // Both went on past their wait: the plain one to its send, the other through its branch to its send.
    for (const run of [plainRun, readingRun])
      expect(
        (run!['history'] as Array<{ step: string; result: string }>).map((entry) => entry.step),
      ).toContain('tell');
    expect((await sendsOf(plain, 1)).length + (await sendsOf(reading, 1)).length).toBe(2);
  });

  it('replaces a going run on re_entry always, and ends the going ones when the workflow is deleted', async () => {
    const ws = workspace();
    const workflowId = ++lastWorkflow;
    await request(ws, AUTOMATIONS_REQUEST_TYPES.workflowCreate, {
      workflow_id: workflowId,
      name: 'Again',
      enabled: true,
      trigger: { event: 'ping', filter: [] },
      steps: [{ id: 'hold', type: 'wait', duration: 'P1D' }],
      goal: null,
      re_entry: 'always',
    } as RequestPayloads['workflow.create.requested']);
    await harness.publish(harness.topics.contacts, [
      contactCreated(ws, 601),
      eventRecorded(ws, 601, 9101, 'ping'),
      eventRecorded(ws, 601, 9102, 'ping'),
    ]);
    const runs = await runsWhere(
      workflowId,
      'two runs',
      (found) => found.length === 2 && found[1]!['status'] === 'waiting',
    );
    expect(runs[0]).toMatchObject({ status: 'exited', current_step: null });
    expect((runs[0]!['history'] as Array<{ result: string }>).at(-1)).toMatchObject({
      step: 'hold',
      result: 'replaced',
    });
    await request(ws, AUTOMATIONS_REQUEST_TYPES.workflowDelete, { workflow_id: workflowId });
    const after = await runsOf(workflowId);
    expect(after[1]).toMatchObject({ status: 'exited' });
    expect((after[1]!['history'] as Array<{ result: string }>).at(-1)).toMatchObject({
      result: 'workflow_deleted',
    });
    expect(
      await harness.db.query('SELECT id FROM run_timers WHERE run_id = $1', [Number(after[1]!['id'])]),
    ).toEqual([]);
    // The runs stay readable.
    expect((await read(`/internal/v1/workflow-runs/${String(after[1]!['id'])}`, ws)).status).toBe(200);
  });
});

describe('bots', () => {
  let lastBot = 1000;

  function createBot(workspaceId: number, body: Record<string, unknown>): Promise<OutcomeEnvelope> {
    return request(workspaceId, BOT_REQUEST_TYPES.create, {
      bot_id: ++lastBot,
      description: null,
      trigger_value: null,
      target_group_id: null,
      ai_instructions: null,
      ai_temperature: null,
      ai_max_tokens: null,
      flow_definition: null,
      settings: {},
      enabled: true,
      ...body,
    } as RequestPayloads['bot.create.requested']);
  }

  /** The bot's message.send.requested records, once there are `count`. */
  function botSends(botId: number, count: number): Promise<Envelope<Record<string, unknown>>[]> {
    return harness.waitFor(`${count} sends of bot ${botId}`, () => {
      const sends = harness
        .recordsOn(harness.topics.requests)
        .filter(
          (record) =>
            record.type === MESSAGING_REQUEST_TYPES.messageSend &&
            (record.data['bot'] as { id: number } | undefined)?.id === botId,
        );
      return sends.length >= count ? sends : undefined;
    });
  }

  function conversationOf(botId: number, holds: (row: Record<string, unknown>) => boolean) {
    return eventually(`a conversation of bot ${botId}`, async () => {
      const rows: Array<Record<string, unknown>> = await harness.db.query(
        'SELECT * FROM bot_conversations WHERE bot_id = $1 ORDER BY id DESC',
        [botId],
      );
      return rows.find(holds);
    });
  }

  it('refuses a bot §12 refuses (422 with pointers), a PATCH as it would leave the bot, and answers 404 across workspaces', async () => {
    const ws = workspace();
    const refused = await createBot(ws, { name: 'No steps', mode: 'flow', trigger_type: 'any_message' });
    expect(refused.data.status).toBe(422);
    expect(JSON.stringify(refused.data)).toContain('/data/attributes/flow_definition/steps');
    const created = await createBot(ws, {
      name: 'Asker',
      mode: 'ai',
      trigger_type: 'keyword',
      trigger_value: 'help',
      ai_instructions: 'Be kind.',
    });
    expect(created.data.status).toBe(201);
    const botId = lastBot;
    const patch = (workspaceId: number, changes: Record<string, unknown>) =>
      request(workspaceId, BOT_REQUEST_TYPES.update, { bot_id: botId, changes });
    const broken = await patch(ws, { name: 'Asker', mode: 'flow', trigger_type: 'keyword' });
    expect(broken.data.status).toBe(422);
    const renamed = await patch(ws, { name: 'Helper', mode: 'ai', trigger_type: 'keyword' });
    expect(renamed.data).toMatchObject({ status: 200 });
    expect((await read(`/internal/v1/bots/${botId}`, ws)).body).toMatchObject({
      data: { id: botId, name: 'Helper', trigger_value: 'help', ai_instructions: 'Be kind.' },
    });
    expect(
      (await patch(workspace(), { name: 'Mine', mode: 'ai', trigger_type: 'keyword' })).data.status,
    ).toBe(404);
    expect((await read(`/internal/v1/bots/${botId}`, workspace())).status).toBe(404);
  });

  it('starts a flow on its keyword, asks, stores a passing answer through contacts, tags, and completes', async () => {
    const ws = workspace();
    const contactId = 5001;
    await harness.publish(harness.topics.contacts, [
      contactCreated(ws, contactId, { data: { plan: 'pro' } }),
    ]);
    // The inbound message carries the contact as the view has it when the message is read.
    await eventually('the contact in the view', async () =>
      (await harness.db.query('SELECT 1 FROM contacts WHERE id = $1', [contactId])).length > 0
        ? true
        : undefined,
    );
    await createBot(ws, {
      name: 'Catch-all',
      mode: 'flow',
      trigger_type: 'any_message',
      flow_definition: { steps: [{ id: 'bye', type: 'end' }] },
    });
    const created = await createBot(ws, {
      name: 'Sign-up',
      mode: 'flow',
      trigger_type: 'keyword',
      trigger_value: 'join',
      flow_definition: {
        steps: [
          {
            id: 'ask',
            type: 'question',
            text: 'Email?',
            save_as: 'data.email',
            validate: 'email',
            retry_text: 'An email, please.',
          },
          {
            id: 'route',
            type: 'branch',
            on: 'data.plan',
            cases: [{ equals: 'PRO', next: 'vip' }],
            default: 'thanks',
          },
          { id: 'vip', type: 'tag', tag_id: 77 },
          { id: 'thanks', type: 'message', text: 'Thanks!' },
        ],
      },
    });
    expect(created.data.status).toBe(201);
    const botId = lastBot;
    // The keyword bot wins over the catch-all (lower id), whatever the case and spaces.
    await harness.publish(harness.topics.messaging, [
      inboundMessage(ws, { contactId, channelId: 9, text: ' JOIN ' }),
    ]);
    const asking = await conversationOf(botId, (row) => row['current_step'] === 'ask');
    expect(asking).toMatchObject({ status: 'active', channel_id: '9' });
    await harness.publish(harness.topics.messaging, [
      inboundMessage(ws, { contactId, channelId: 9, text: 'nope' }),
    ]);
    await harness.publish(harness.topics.messaging, [
      inboundMessage(ws, { contactId, channelId: 9, text: 'ada@example.com' }),
    ]);
    const done = await conversationOf(botId, (row) => row['status'] === 'completed');
    expect(done['end_reason']).toBe('completed');
    const sends = await botSends(botId, 3);
    expect(sends.map((send) => send.data['text'])).toEqual(['Email?', 'An email, please.', 'Thanks!']);
    expect(sends[0]!.data).toMatchObject({
      contact_id: contactId,
      route: [{ channel_id: 9 }],
      purpose: 'transactional',
      bot: { id: botId, name: 'Sign-up', conversation_id: Number(done['id']) },
    });
    const requests = harness.recordsOn(harness.topics.requests);
    expect(
      requests.find(
        (record) => record.type === CONTACT_REQUEST_TYPES.update && record.subject === String(contactId),
      )?.data,
    ).toEqual({ contact_id: contactId, data: { email: 'ada@example.com' } });
    expect(
      requests.find(
        (record) => record.type === TAG_REQUEST_TYPES.attach && record.subject === String(contactId),
      )?.data,
    ).toEqual({ contact_id: contactId, tag_ids: [77] });
  });

  it('ends a conversation on an opt-out, and an AI bot without a model ends ai_unavailable', async () => {
    const ws = workspace();
    const contactId = 5002;
    await harness.publish(harness.topics.contacts, [contactCreated(ws, contactId)]);
    await createBot(ws, {
      name: 'Quiz',
      mode: 'flow',
      trigger_type: 'keyword',
      trigger_value: 'quiz',
      flow_definition: { steps: [{ id: 'q', type: 'question', text: 'Ready?' }] },
    });
    const quizId = lastBot;
    await harness.publish(harness.topics.messaging, [
      inboundMessage(ws, { contactId, channelId: 3, text: 'quiz' }),
    ]);
    await conversationOf(quizId, (row) => row['status'] === 'active');
    await harness.publish(harness.topics.messaging, [
      inboundMessage(ws, { contactId, channelId: 3, text: 'STOP', keyword: 'opt_out' }),
    ]);
    expect(await conversationOf(quizId, (row) => row['status'] !== 'active')).toMatchObject({
      status: 'completed',
      end_reason: 'opted_out',
    });
    await createBot(ws, {
      name: 'Model',
      mode: 'ai',
      trigger_type: 'any_message',
      ai_instructions: 'Answer.',
    });
    const modelId = lastBot;
    await harness.publish(harness.topics.messaging, [
      inboundMessage(ws, { contactId, channelId: 3, text: 'hello' }),
    ]);
    expect(await conversationOf(modelId, (row) => row['status'] !== 'active')).toMatchObject({
      status: 'failed',
      end_reason: 'ai_unavailable',
    });
  });

  it('starts an event bot on its channel, and a delete ends its active conversations bot_deleted', async () => {
    const ws = workspace();
    const contactId = 5003;
    await harness.publish(harness.topics.contacts, [contactCreated(ws, contactId)]);
    await createBot(ws, {
      name: 'Welcome',
      mode: 'flow',
      trigger_type: 'event',
      trigger_value: 'signed_up',
      settings: { channel_id: 4 },
      flow_definition: { steps: [{ id: 'q', type: 'question', text: 'Welcome! How did you hear of us?' }] },
    });
    const botId = lastBot;
    await harness.publish(harness.topics.contacts, [eventRecorded(ws, contactId, 9301, 'signed_up')]);
    expect(await conversationOf(botId, (row) => row['status'] === 'active')).toMatchObject({
      channel_id: '4',
    });
    expect((await botSends(botId, 1))[0]!.data).toMatchObject({ text: 'Welcome! How did you hear of us?' });
    const deleted = await request(ws, BOT_REQUEST_TYPES.delete, { bot_id: botId });
    expect(deleted.data.status).toBe(204);
    expect(await conversationOf(botId, () => true)).toMatchObject({
      status: 'completed',
      end_reason: 'bot_deleted',
    });
  });
});

describe('rebuilding from the log', () => {
  it('makes the same rows in a new schema, as `ops replay` does', async () => {
    const ws = workspace();
    for (const name of ['One', 'Two', 'One']) await createWorkflow(ws, name);
    await request(ws, AUTOMATIONS_REQUEST_TYPES.workflowUpdate, {
      workflow_id: lastWorkflow,
      changes: { steps: [{ id: 'bye', type: 'exit' }] },
    });
    const live = await harness.projectionRows();
    expect(Object.values(live).every((rows) => rows.length > 0)).toBe(true);
    expect(await harness.projectionRows(await harness.rebuild())).toEqual(live);
  });

  it('has migrations that match the entities (no drift)', async () => {
    expect(await migrationDrift(service.app.get(DataSource))).toEqual([]);
  });
});
