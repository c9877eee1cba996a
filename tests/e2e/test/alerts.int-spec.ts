import { eventually } from '@cms/testing';

import { startMessagingScenario, type Hook, type MessagingScenario, type System } from '../src';

/**
 * Delivery monitoring end to end through the real gateway, contacts, messaging and webhook-dispatch:
 * a new workspace's default rule, a burst of failures on a sandbox channel raising alert.triggered at
 * the customer's endpoint, and deliveries resolving it.
 */

type Errors = { errors: Array<{ status: string; source?: { pointer: string } }> };

let scenario: MessagingScenario;
let system: System;
let key: string;
let hooks: Hook[];
let create: MessagingScenario['create'];

beforeAll(async () => {
  scenario = await startMessagingScenario('alerts-e2e', ['alert.triggered']);
  ({ system, key, create } = scenario);
  hooks = scenario.receiver.hooks;
}, 120000);

afterAll(async () => {
  await scenario?.stop();
});

/** Messages on the channel to new contacts with these phones, each waited for until `status`. */
async function sendAll(
  channelId: number,
  templateId: number,
  phones: string[],
  status: string,
): Promise<void> {
  const ids: string[] = [];
  for (const phone of phones) {
    const contact = await system.call<{ data: { id: number } }>('POST', '/api/v1/contacts/upsert', {
      key,
      body: { phone, name: 'A' },
    });
    expect([200, 201]).toContain(contact.status);
    const contactId = contact.body.data.id;
    const sent = await system.call<{ data: { id: string } }>('POST', '/api/v1/messages', {
      key,
      body: { contact_id: contactId, route: [{ channel_id: channelId, template_id: templateId }] },
    });
    expect(sent.status).toBe(202);
    ids.push(sent.body.data.id);
  }
  for (const id of ids) {
    await eventually(`message ${id} ${status}`, async () => {
      const message = await system.call<{ data: { status: string } }>('GET', `/api/v1/messages/${id}`, {
        key,
      });
      return message.body.data.status === status || undefined;
    });
  }
}

function alertHooks(): Hook[] {
  return hooks.filter((hook) => hook.type === 'alert.triggered');
}

describe('delivery monitoring', () => {
  it('lists the default rule, fires alert.triggered on a burst of failures and resolves it with deliveries', async () => {
    const rules = await eventually('the default rule', async () => {
      const answer = await system.call<{ data: Array<Record<string, unknown>> }>(
        'GET',
        '/api/v1/alert-rules',
        {
          key,
        },
      );
      return answer.status === 200 && answer.body.data.length > 0 ? answer.body.data : undefined;
    });
    expect(rules).toEqual([
      expect.objectContaining({
        id: 1,
        metric: 'failure_rate',
        comparator: 'gt',
        threshold: 0.2,
        window_minutes: 15,
        min_volume: 20,
        scope: {},
        enabled: true,
      }),
    ]);

    const sms = await create('/api/v1/channels', { type: 'sms', name: 'Sandbox SMS', provider: 'sandbox' });
    const template = await create('/api/v1/templates', { name: 'hello', channel: 'sms', body: 'Hello' });
    const refused = await system.call<Errors>('POST', '/api/v1/alert-rules', {
      key,
      body: { name: 'x', metric: 'failure_rate', comparator: 'gt', threshold: 2, window_minutes: 5 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0]!.source).toEqual({ pointer: '/data/attributes/threshold' });
    const badShape = await system.call<Errors>('POST', '/api/v1/alert-rules', {
      key,
      body: {
        name: 'x',
        metric: 'failure_rate',
        comparator: 'gt',
        threshold: 0.1,
        window_minutes: 2,
        scope: { team: 1 },
      },
    });
    expect(badShape.status).toBe(422);
    expect(badShape.body.errors.map((error) => error.source?.pointer).sort()).toEqual([
      '/data/attributes/scope/team',
      '/data/attributes/window_minutes',
    ]);
    const unchanged = await system.call<{ data: unknown[] }>('GET', '/api/v1/alert-rules', { key });
    expect(unchanged.body.data).toHaveLength(1);
    const ruleId = await create('/api/v1/alert-rules', {
      name: 'SMS failing',
      metric: 'failure_rate',
      comparator: 'gt',
      threshold: 0.5,
      window_minutes: 5,
      min_volume: 4,
      scope: { channel_id: sms },
    });

    await sendAll(sms, template, ['+14155510001', '+14155520001', '+14155530001', '+14155540001'], 'failed');
    const fired = await eventually('alert.triggered (firing)', () => Promise.resolve(alertHooks()[0]), 20000);
    expect(fired.data).toMatchObject({
      rule_id: ruleId,
      status: 'firing',
      notification_seq: 1,
      metric: 'failure_rate',
      value: 1,
      sample_size: 4,
      scope: { channel_id: sms },
      top_failure_codes: [{ code: 'invalid_recipient', count: 4, fix: expect.any(String) }],
      resolved_at: null,
    });

    await sendAll(
      sms,
      template,
      ['+14155561111', '+14155572222', '+14155583333', '+14155594444'],
      'delivered',
    );
    const resolved = await eventually(
      'alert.triggered (resolved)',
      () => Promise.resolve(alertHooks()[1]),
      20000,
    );
    expect(resolved.data).toMatchObject({
      id: fired.data.id,
      status: 'resolved',
      notification_seq: 2,
      value: 0.5,
      sample_size: 8,
    });
    expect(alertHooks()).toHaveLength(2);

    const alerts = await system.call<{ data: Array<Record<string, unknown>>; meta: { total: number } }>(
      'GET',
      `/api/v1/alerts?filter[rule_id]=${ruleId}`,
      { key },
    );
    expect(alerts.status).toBe(200);
    expect(alerts.body.meta.total).toBe(1);
    expect(alerts.body.data[0]).toMatchObject({ id: fired.data.id, status: 'resolved' });
    const one = await system.call<{ data: Record<string, unknown> }>(
      'GET',
      `/api/v1/alerts/${String(fired.data.id)}`,
      {
        key,
      },
    );
    expect(one.body.data).toEqual(alerts.body.data[0]);
  });

  it('reads, changes and deletes a rule', async () => {
    const ruleId = await create('/api/v1/alert-rules', {
      name: 'Email bouncing',
      metric: 'failure_rate',
      comparator: 'gt',
      threshold: 0.2,
      window_minutes: 15,
      min_volume: 10,
    });
    const read = await system.call<{ data: Record<string, unknown> }>(
      'GET',
      `/api/v1/alert-rules/${ruleId}`,
      {
        key,
      },
    );
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: ruleId, name: 'Email bouncing', threshold: 0.2 });
    const changed = await system.call<{ data: Record<string, unknown> }>(
      'PATCH',
      `/api/v1/alert-rules/${ruleId}`,
      { key, body: { threshold: 0.3, enabled: false } },
    );
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      id: ruleId,
      name: 'Email bouncing',
      threshold: 0.3,
      enabled: false,
    });
    const badPatch = await system.call<Errors>('PATCH', `/api/v1/alert-rules/${ruleId}`, {
      key,
      body: { threshold: 'high' },
    });
    expect(badPatch.status).toBe(422);
    expect(badPatch.body.errors.map((error) => error.source?.pointer)).toEqual([
      '/data/attributes/threshold',
    ]);
    const deleted = await system.call('DELETE', `/api/v1/alert-rules/${ruleId}`, { key });
    expect(deleted.status).toBe(204);
    const gone = await system.call('GET', `/api/v1/alert-rules/${ruleId}`, { key });
    expect(gone.status).toBe(404);
  });
});
