import {
  ALERT_FACT_TYPES,
  ALERT_REQUEST_TYPES,
  GATEWAY_REQUEST_TYPES,
  OUTCOME_TYPES,
  type Envelope,
} from '@cms/contracts';
import { eventually } from '@cms/testing';

import { MessagesFixture } from './support/messages.fixture';
import { MessagingHarness } from './support/messaging.harness';

interface RuleBody {
  id: number;
  metric: string;
  threshold: number;
  window_minutes: number;
  min_volume: number;
  scope: Record<string, number>;
  enabled: boolean;
}

interface AlertBody {
  id: string;
  rule_id: number;
  status: string;
  value: number;
  sample_size: number;
  top_failure_codes: Array<{ code: string; count: number; fix: string }>;
  started_at: string;
  resolved_at: string | null;
}

describe('delivery monitoring: alert rules and alerts', () => {
  let harness: MessagingHarness;
  let fixture: MessagesFixture;

  beforeAll(async () => {
    harness = await MessagingHarness.start({ SANDBOX_STATUS_DELAY_MS: '20', SEND_WORKER_POLL_MS: '20' });
    fixture = new MessagesFixture(harness);
  }, 120_000);

  afterAll(async () => {
    await harness?.stop();
  });

  /** A workspace as the gateway creates one: its creation comes by on the requests topic. */
  async function newWorkspace(): Promise<number> {
    const ws = harness.workspace();
    await harness.kit.produce(
      harness.kit.envelope(GATEWAY_REQUEST_TYPES.workspaceCreate, ws, {
        workspace_id: ws,
        name: `w${ws}`,
        plan: 'business',
        contact_limit: 250_000,
      }),
    );
    await eventually(`the default rule of workspace ${ws}`, async () => {
      const { body } = await harness.get<{ data: RuleBody[] }>('alert-rules', ws);
      return body.data.length > 0 || undefined;
    });
    return ws;
  }

  function alertFacts(ws: number): Envelope<Record<string, unknown>>[] {
    return harness.kit
      .recordsOn(harness.kit.topics.messaging)
      .filter((fact) => fact.type === ALERT_FACT_TYPES.alertTriggered && fact.workspaceid === String(ws));
  }

  async function contactsWithPhones(ws: number, phones: string[]): Promise<number[]> {
    const contacts = phones.map((phone) => ({ id: harness.id(), name: 'C', phone }));
    await harness.contacts(ws, ...contacts);
    return contacts.map((contact) => contact.id);
  }

  it('lists the default rule for a new workspace before it sent anything', async () => {
    const ws = await newWorkspace();
    const { status, body } = await harness.get<{ data: RuleBody[]; meta: { total: number } }>(
      'alert-rules',
      ws,
    );
    expect(status).toBe(200);
    expect(body.meta.total).toBe(1);
    expect(body.data[0]).toMatchObject({
      id: 1,
      metric: 'failure_rate',
      comparator: 'gt',
      threshold: 0.2,
      window_minutes: 15,
      min_volume: 20,
      scope: {},
      enabled: true,
    });
  });

  it('refuses bad rules with 422 at a pointer and changes nothing; creates, changes and deletes good ones', async () => {
    const ws = await newWorkspace();
    const create = (data: object) => harness.request(ws, ALERT_REQUEST_TYPES.alertRuleCreate, data);
    const base = {
      name: 'Fails',
      metric: 'failure_rate',
      comparator: 'gt',
      threshold: 0.3,
      window_minutes: 5,
    };

    const rate = await create({ ...base, threshold: 1.5 });
    expect(rate.type).toBe(OUTCOME_TYPES.rejected);
    expect(rate.data).toMatchObject({
      status: 422,
      errors: [{ source: { pointer: '/data/attributes/threshold' } }],
    });
    const channel = await create({ ...base, scope: { channel_id: 987_654 } });
    expect(channel.data).toMatchObject({
      status: 422,
      errors: [{ source: { pointer: '/data/attributes/scope/channel_id' } }],
    });

    const created = await create({ ...base, metric: 'failure_count', threshold: 10, min_volume: 0 });
    expect(created.data).toMatchObject({
      status: 201,
      resource: { id: 2, metric: 'failure_count', threshold: 10, min_volume: 0, enabled: true, scope: {} },
    });
    const badPatch = await harness.request(ws, ALERT_REQUEST_TYPES.alertRuleUpdate, {
      rule_id: 2,
      metric: 'failure_rate',
    });
    expect(badPatch.data).toMatchObject({
      status: 422,
      errors: [{ source: { pointer: '/data/attributes/metric' } }],
    });
    const patched = await harness.request(ws, ALERT_REQUEST_TYPES.alertRuleUpdate, {
      rule_id: 2,
      threshold: 3,
      enabled: false,
    });
    expect(patched.data).toMatchObject({ status: 200, resource: { id: 2, threshold: 3, enabled: false } });
    const missing = await harness.request(ws, ALERT_REQUEST_TYPES.alertRuleUpdate, {
      rule_id: 99,
      name: 'x',
    });
    expect(missing.data).toMatchObject({ status: 404 });

    expect(
      (await harness.request(ws, ALERT_REQUEST_TYPES.alertRuleDelete, { rule_id: 2 })).data,
    ).toMatchObject({
      status: 204,
    });
    // Ids are never reused.
    expect((await create(base)).data).toMatchObject({ status: 201, resource: { id: 3 } });
    const { body } = await harness.get<{ data: RuleBody[] }>('alert-rules', ws);
    expect(body.data.map((rule) => rule.id)).toEqual([1, 3]);
    expect((await harness.get('alert-rules/2', ws)).status).toBe(404);
  });

  it('fires once on a burst of failures, and resolves once deliveries bring the rate back', async () => {
    const ws = await newWorkspace();
    const sms = await fixture.channel(ws, 'sms');
    const template = await fixture.template(ws, 'sms');
    const rule = await harness.request(ws, ALERT_REQUEST_TYPES.alertRuleCreate, {
      name: 'SMS failing',
      metric: 'failure_rate',
      comparator: 'gt',
      threshold: 0.5,
      window_minutes: 5,
      min_volume: 4,
      scope: { channel_id: sms },
    });
    const ruleId = (rule.data as unknown as { resource: { id: number } }).resource.id;
    const failing = await contactsWithPhones(ws, [
      '+15550010001',
      '+15550020001',
      '+15550030001',
      '+15550040001',
      '+15550050001',
    ]);
    const route = [{ channel: 'sms', channel_id: sms, template_id: template }];
    for (const contact of failing) {
      await fixture.untilStatus(ws, await fixture.sent(ws, { contact_id: contact, route }), 'failed');
    }
    const fired = await harness.kit.waitFor('alert.triggered (firing)', () => alertFacts(ws)[0]);
    expect(fired.data).toMatchObject({
      rule_id: ruleId,
      status: 'firing',
      notification_seq: 1,
      metric: 'failure_rate',
      value: 1,
      threshold: 0.5,
      window_minutes: 5,
      sample_size: 4,
      scope: { channel_id: sms },
      top_failure_codes: [{ code: 'invalid_recipient', count: 4, fix: expect.any(String) }],
      resolved_at: null,
    });
    const alertId = fired.data['id'] as string;

    const healthy = await contactsWithPhones(ws, [
      '+15550061111',
      '+15550072222',
      '+15550083333',
      '+15550094444',
      '+15550105555',
      '+15550116666',
    ]);
    for (const contact of healthy.slice(0, 5)) {
      await fixture.untilStatus(ws, await fixture.sent(ws, { contact_id: contact, route }), 'delivered');
    }
    const resolved = await harness.kit.waitFor('alert.triggered (resolved)', () => alertFacts(ws)[1]);
    expect(resolved.data).toMatchObject({
      id: alertId,
      status: 'resolved',
      notification_seq: 2,
      value: 0.5,
      sample_size: 10,
    });
    expect(resolved.data['resolved_at']).toEqual(expect.any(String));

    // The fifth failure came while it fired (no second alert); nothing fires again within the threshold.
    await fixture.untilStatus(ws, await fixture.sent(ws, { contact_id: healthy[5]!, route }), 'delivered');
    expect(alertFacts(ws)).toHaveLength(2);

    const list = await harness.get<{ data: AlertBody[]; meta: { total: number } }>(
      `alerts?filter[rule_id]=${ruleId}&filter[status]=resolved`,
      ws,
    );
    expect(list.body.meta.total).toBe(1);
    expect(list.body.data[0]).toMatchObject({ id: alertId, status: 'resolved', rule_id: ruleId });
    const one = await harness.get<{ data: AlertBody }>(`alerts/${alertId}`, ws);
    expect(one.body.data).toEqual(list.body.data[0]);
    expect((await harness.get('alerts?filter[status]=firing', ws)).body).toMatchObject({
      meta: { total: 0 },
    });
  });

  it('resolves a firing alert whose traffic stopped once its check finds the window empty', async () => {
    const ws = await newWorkspace();
    const sms = await fixture.channel(ws, 'sms');
    const template = await fixture.template(ws, 'sms');
    await harness.request(ws, ALERT_REQUEST_TYPES.alertRuleCreate, {
      name: 'Any failure',
      metric: 'failure_count',
      comparator: 'gt',
      threshold: 0,
      window_minutes: 5,
      min_volume: 1,
    });
    const [contact] = await contactsWithPhones(ws, ['+15550110001']);
    const route = [{ channel: 'sms', channel_id: sms, template_id: template }];
    await fixture.untilStatus(ws, await fixture.sent(ws, { contact_id: contact!, route }), 'failed');
    const fired = await harness.kit.waitFor('alert.triggered (firing)', () => alertFacts(ws)[0]);
    // The check is a durable timer due when the window empties; bring it forward instead of waiting.
    const [timer]: Array<{ due_at: Date }> = await harness.kit.db.query(
      `SELECT due_at FROM messaging_timers WHERE kind = 'alert' AND message_id = $1`,
      [fired.data['id']],
    );
    expect(timer).toBeDefined();
    await harness.kit.db.query(
      `UPDATE messaging_timers SET due_at = now() WHERE kind = 'alert' AND message_id = $1`,
      [fired.data['id']],
    );
    // Fired now rather than in five minutes, the check finds the failure still in the window.
    await eventually('the check fired and set the next one', async () => {
      const rows: unknown[] = await harness.kit.db.query(
        `SELECT 1 FROM messaging_timers WHERE kind = 'alert' AND message_id = $1 AND due_at > now()`,
        [fired.data['id']],
      );
      return rows.length === 1 || undefined;
    });
    expect(alertFacts(ws)).toHaveLength(1);
    // Ten minutes on (the outcome moved back as far), the next check finds the window empty.
    await harness.kit.db.query(
      `UPDATE alert_outcome_buckets SET minute = minute - interval '10 minutes' WHERE workspace_id = $1`,
      [ws],
    );
    await harness.kit.db.query(
      `UPDATE messaging_timers SET due_at = now() WHERE kind = 'alert' AND message_id = $1`,
      [fired.data['id']],
    );
    const resolved = await harness.kit.waitFor('alert.triggered (resolved)', () => alertFacts(ws)[1]);
    expect(resolved.data).toMatchObject({
      id: fired.data['id'],
      status: 'resolved',
      notification_seq: 2,
      sample_size: 0,
    });
  });

  it('resolves a firing alert when its rule is redefined, and not when it is only renamed', async () => {
    const ws = await newWorkspace();
    const sms = await fixture.channel(ws, 'sms');
    const template = await fixture.template(ws, 'sms');
    const created = await harness.request(ws, ALERT_REQUEST_TYPES.alertRuleCreate, {
      name: 'Any failure',
      metric: 'failure_count',
      comparator: 'gt',
      threshold: 0,
      window_minutes: 5,
      min_volume: 1,
    });
    const ruleId = (created.data as unknown as { resource: { id: number } }).resource.id;
    const [contact] = await contactsWithPhones(ws, ['+15550120001']);
    const route = [{ channel: 'sms', channel_id: sms, template_id: template }];
    await fixture.untilStatus(ws, await fixture.sent(ws, { contact_id: contact!, route }), 'failed');
    const fired = await harness.kit.waitFor('alert.triggered (firing)', () => alertFacts(ws)[0]);

    await harness.request(ws, ALERT_REQUEST_TYPES.alertRuleUpdate, { rule_id: ruleId, name: 'Renamed' });
    const firing = await harness.get<{ data: AlertBody }>(`alerts/${String(fired.data['id'])}`, ws);
    expect(firing.body.data.status).toBe('firing');

    const patched = await harness.request(ws, ALERT_REQUEST_TYPES.alertRuleUpdate, {
      rule_id: ruleId,
      threshold: 5,
    });
    expect(patched.data).toMatchObject({ status: 200 });
    const resolved = await harness.kit.waitFor('alert.triggered (resolved)', () => alertFacts(ws)[1]);
    expect(resolved.data).toMatchObject({ id: fired.data['id'], status: 'resolved', notification_seq: 2 });
    const read = await harness.get<{ data: AlertBody }>(`alerts/${String(fired.data['id'])}`, ws);
    expect(read.body.data).toMatchObject({ status: 'resolved', resolved_at: expect.any(String) });
  });
});
