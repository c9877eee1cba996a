import { Client } from 'pg';

import { replayInPlace, tablesOf } from '../src/ops-replay';
import { System } from '../src/system';

/**
 * Workflows through the public API (extensions §12): written through the gateway, decided by the
 * automations service from the log, read back through the gateway; the edge refuses a definition §12
 * refuses, and references to tags and templates the workspace lacks, before anything is recorded.
 */
let system: System;
let key: string;
let otherKey: string;

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts', 'messaging', 'automations', 'broadcasts']);
  ({ key } = await system.tenant('business'));
  ({ key: otherKey } = await system.tenant('business'));
}, 120_000);

afterAll(async () => {
  await system?.stop();
});

interface Problem {
  source: { pointer: string };
  detail: string;
}

function call<T = unknown>(method: string, path: string, body?: unknown, as = key) {
  return system.call<T>(method, path, { key: as, ...(body === undefined ? {} : { body }) });
}

function pointers(answer: { body: unknown }): string[] {
  return ((answer.body as { errors: Problem[] }).errors ?? []).map((error) => error.source.pointer);
}

describe('workflows through the public API', () => {
  let templateId: number;
  let tagId: number;

  beforeAll(async () => {
    const template = await call<{ data: { id: number } }>('POST', '/api/v1/templates', {
      name: 'welcome',
      channel: 'sms',
      body: 'Hi {{ contact.name }}, order {{ event.data.order }} is in.',
    });
    expect(template.status).toBe(201);
    templateId = template.body.data.id;
    const tag = await call<{ data: { id: number } }>('POST', '/api/v1/tags', { name: 'buyer' });
    expect(tag.status).toBe(201);
    tagId = tag.body.data.id;
  });

  function definition(): Record<string, unknown> {
    return {
      name: 'Welcome buyers',
      trigger: { event: 'order_placed', filter: [{ field: 'event.data.total', operator: 'gte', value: 10 }] },
      steps: [
        { id: 'hello', type: 'send', route: [{ channel: 'sms', template_id: templateId }], variables: {} },
        { id: 'pause', type: 'wait', duration: 'P1D' },
        { id: 'mark', type: 'update_contact', add_tags: [tagId] },
      ],
      goal: { event: 'order_paid', within: 'P7D' },
    };
  }

  it('creates, lists, reads, changes with versions and deletes a workflow', async () => {
    const created = await call<{ data: Record<string, unknown> }>('POST', '/api/v1/workflows', definition());
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Welcome buyers',
      enabled: true,
      version: 1,
      re_entry: 'after_exit',
      goal: { event: 'order_paid', within: 'P7D' },
    });
    const id = created.body.data['id'] as number;

    const read = await call<{ data: Record<string, unknown> }>('GET', `/api/v1/workflows/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(created.body.data);

    // The name and `enabled` are not a new version; the steps are; the same steps again are not.
    const renamed = await call<{ data: Record<string, unknown> }>('PATCH', `/api/v1/workflows/${id}`, {
      name: 'Welcome',
      enabled: false,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Welcome', enabled: false, version: 1 });
    const steps = [{ id: 'bye', type: 'exit' }];
    const changed = await call<{ data: Record<string, unknown> }>('PATCH', `/api/v1/workflows/${id}`, {
      steps,
    });
    expect(changed.body.data).toMatchObject({ version: 2, steps });
    const again = await call<{ data: Record<string, unknown> }>('PATCH', `/api/v1/workflows/${id}`, {
      steps,
    });
    expect(again.body.data).toMatchObject({ version: 2 });

    const disabled = await call<{ data: Array<{ id: number }> }>(
      'GET',
      '/api/v1/workflows?filter[enabled]=false',
    );
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.map((workflow) => workflow.id)).toEqual([id]);
    const enabled = await call<{ data: unknown[] }>('GET', '/api/v1/workflows?filter[enabled]=true');
    expect(enabled.body.data).toEqual([]);
    const named = await call<{ data: Array<{ id: number }> }>(
      'GET',
      '/api/v1/workflows?filter[name]=Welcome',
    );
    expect(named.body.data.map((workflow) => workflow.id)).toEqual([id]);

    // Another workspace sees none of it.
    expect((await call('GET', `/api/v1/workflows/${id}`, undefined, otherKey)).status).toBe(404);
    expect((await call('PATCH', `/api/v1/workflows/${id}`, { name: 'x' }, otherKey)).status).toBe(404);
    expect((await call('DELETE', `/api/v1/workflows/${id}`, undefined, otherKey)).status).toBe(404);

    expect((await call('DELETE', `/api/v1/workflows/${id}`)).status).toBe(204);
    expect((await call('GET', `/api/v1/workflows/${id}`)).status).toBe(404);
  });

  it('refuses to delete a template a workflow sends with (422), until the workflow is gone', async () => {
    const used = await call<{ data: { id: number } }>('POST', '/api/v1/templates', {
      name: 'used',
      channel: 'sms',
      body: 'Hello',
    });
    const workflow = await call<{ data: { id: number } }>('POST', '/api/v1/workflows', {
      name: 'Uses it',
      trigger: { event: 'signed_up' },
      steps: [{ id: 'hello', type: 'send', route: [{ channel: 'sms', template_id: used.body.data.id }] }],
    });
    expect(workflow.status).toBe(201);
    const refused = await call<{ errors: Array<{ status: string; detail: string }> }>(
      'DELETE',
      `/api/v1/templates/${used.body.data.id}`,
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]!.detail).toContain(`workflow ${workflow.body.data.id} ("Uses it")`);
    expect((await call('GET', `/api/v1/templates/${used.body.data.id}`)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/workflows/${workflow.body.data.id}`)).status).toBe(204);
    expect((await call('DELETE', `/api/v1/templates/${used.body.data.id}`)).status).toBe(204);
  });

  it('refuses what §12 refuses, each problem at its pointer, and records nothing', async () => {
    const before = await call<{ meta: { total: number } }>('GET', '/api/v1/workflows');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ trigger: { event: 'bad name!' } }, '/data/attributes/trigger/event'],
      [{ goal: { event: 'paid', within: 'P91D' } }, '/data/attributes/goal/within'],
      [{ steps: [] }, '/data/attributes/steps'],
      [
        {
          steps: [
            { id: 'a', type: 'exit' },
            { id: 'a', type: 'exit' },
          ],
        },
        '/data/attributes/steps/1/id',
      ],
      [{ steps: [{ id: 'a', type: 'teleport' }] }, '/data/attributes/steps/0/type'],
      [
        { steps: [{ id: 'a', type: 'wait', duration: 'PT1H', next: 'nowhere' }] },
        '/data/attributes/steps/0/next',
      ],
      [
        { steps: [{ id: 'a', type: 'wait', duration: 'PT1H', until_date: '2027-01-01' }] },
        '/data/attributes/steps/0',
      ],
      [
        {
          steps: [
            { id: 'a', type: 'wait', until_event: { event: 'paid', timeout: 'P1D', timeout_next: 'zz' } },
          ],
        },
        '/data/attributes/steps/0/until_event/timeout_next',
      ],
      [
        { steps: [{ id: 'a', type: 'update_contact', add_tags: [987_654_321] }] },
        '/data/attributes/steps/0/add_tags/0',
      ],
      [
        { steps: [{ id: 'a', type: 'send', route: [{ channel: 'sms', template_id: 987_654_321 }] }] },
        '/data/attributes/steps/0/route/0/template_id',
      ],
      [
        { steps: [{ id: 'a', type: 'send', route: [{ channel: 'email', template_id: templateId }] }] },
        '/data/attributes/steps/0/route/0/template_id',
      ],
    ];
    for (const [change, pointer] of cases) {
      const answer = await call('POST', '/api/v1/workflows', { ...definition(), ...change }).catch(
        (error: Error) => {
          throw new Error(`${JSON.stringify(change)}: ${error.message}`);
        },
      );
      expect({ change, status: answer.status }).toEqual({ change, status: 422 });
      expect({ change, pointers: pointers(answer) }).toEqual({
        change,
        pointers: expect.arrayContaining([pointer]),
      });
    }
    const missing = await call('POST', '/api/v1/workflows', { name: 'No steps' });
    expect(missing.status).toBe(422);
    expect(pointers(missing)).toEqual(
      expect.arrayContaining(['/data/attributes/trigger', '/data/attributes/steps']),
    );
    expect((await call('PATCH', '/api/v1/workflows/987654321', { name: 'x' })).status).toBe(404);
    expect((await call('DELETE', '/api/v1/workflows/987654321')).status).toBe(404);
    // Only a workflow's step makes a message with `workflow`: the public body has no such field.
    const forged = await call('POST', '/api/v1/messages', {
      contact_id: 1,
      route: [{ channel: 'sms', template_id: templateId }],
      workflow: { id: 1, name: 'x', run_id: 1, step: 'a' },
    });
    expect(forged.status).toBe(422);
    expect(pointers(forged)).toEqual(['/data/attributes/workflow']);
    const after = await call<{ meta: { total: number } }>('GET', '/api/v1/workflows');
    expect(after.body.meta.total).toBe(before.body.meta.total);
  });
});

describe('ops replay automations --in-place', () => {
  it('rebuilds the workflows and their versions row for row from the log', async () => {
    const created = await call<{ data: { id: number } }>('POST', '/api/v1/workflows', {
      name: 'Kept',
      trigger: { event: 'signed_up' },
      steps: [{ id: 'end', type: 'exit' }],
    });
    expect(created.status).toBe(201);
    expect(
      (await call('PATCH', `/api/v1/workflows/${created.body.data.id}`, { re_entry: 'always' })).status,
    ).toBe(200);
    const db = new Client({ connectionString: system.stack.databaseUrl });
    await db.connect();
    try {
      const schema = system.schema('automations');
      await system.halt('automations');
      const before = await tablesOf(db, schema);
      expect(before['workflows']!.length).toBeGreaterThan(0);
      expect(before['workflow_versions']!.length).toBeGreaterThan(1);
      const report = await replayInPlace(system, 'automations', schema);
      expect(report).toMatchObject({ service: 'automations', mode: 'in-place', schema });
      expect(await tablesOf(db, schema)).toEqual(before);
      await system.resume('automations');
      expect((await call('GET', `/api/v1/workflows/${created.body.data.id}`)).status).toBe(200);
    } finally {
      await db.end();
    }
  });
});
