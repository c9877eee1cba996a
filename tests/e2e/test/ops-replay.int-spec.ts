import { createKafka } from '@cms/kafka';
import { eventually } from '@cms/testing';
import type { Admin } from 'kafkajs';
import { Client } from 'pg';

import { System } from '../src';
import { runOps as runOpsAs, tablesOf, topicSize as recordsIn, type OpsRun } from '../src/ops-replay';

/**
 * `ops replay contacts`, run as an operator would (the built CLI as a process), against the real gateway
 * and contacts service: the rebuilt projection equals the live one row for row, nothing already
 * published is published again, and the service carries on afterwards.
 */

let system: System;
let db: Client;
let admin: Admin;
let key: string;

function runOps(args: string[], onStderr?: (text: string) => void): { done: Promise<OpsRun>; kill(): void } {
  return runOpsAs(system, 'contacts', args, onStderr);
}

/** Every projection table of a schema, each with its rows in primary-key order. */
function projection(schema: string): Promise<Record<string, unknown[]>> {
  return tablesOf(db, schema);
}

/** Records in a topic, all partitions together. */
function topicSize(topic: string): Promise<number> {
  return recordsIn(admin, topic);
}

/** The ids of every fact on the contacts topic, with the number of times each was published. */
async function factCopies(): Promise<Map<string, number>> {
  const expected = await topicSize(system.topics.contacts);
  const consumer = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-facts' }).consumer({
    groupId: `${system.namespace}-facts-${Date.now()}`,
  });
  const copies = new Map<string, number>();
  let seen = 0;
  await consumer.connect();
  await consumer.subscribe({ topic: system.topics.contacts, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      seen += 1;
      const { id } = JSON.parse(message.value!.toString()) as { id: string };
      copies.set(id, (copies.get(id) ?? 0) + 1);
    },
  });
  await eventually('every fact read', async () => seen >= expected, 30000, 100);
  await consumer.disconnect();
  return copies;
}

/** The phone of a round's contact. */
function phoneOf(round: string, i: number): string {
  return `+1415555${'abcd'.indexOf(round) + 1}${String(i).padStart(3, '0')}`;
}

/**
 * A customer's writes: tags, upserts with consent, events with retried Idempotency-Keys, a refusal, and
 * identifiers moving from one contact to another (one contact more than `count`).
 */
async function workload(round: string, count: number): Promise<void> {
  const tag = await system.call<{ data: { id: number } }>('POST', '/api/v1/tags', {
    key,
    body: { name: `vip-${round}`, color: '#ff0000' },
  });
  expect(tag.status).toBe(201);
  for (let i = 0; i < count; i += 1) {
    const phone = phoneOf(round, i);
    const upsert = await system.call<{ data: { id: number } }>('POST', '/api/v1/contacts/upsert', {
      key,
      body: { phone, name: `C ${round}${i}`, marketing_consent: { sms: i % 2 === 0, email: true } },
    });
    expect([200, 201]).toContain(upsert.status);
    const headers = { 'idempotency-key': `${round}-${i}` };
    const event = { name: 'order.paid', contact: { phone, data: { total: i } }, data: { order: i } };
    expect((await system.call('POST', '/api/v1/events', { key, body: event, headers })).status).toBe(202);
    expect((await system.call('POST', '/api/v1/events', { key, body: event, headers })).status).toBe(200);
    if (i % 3 === 0) {
      const attach = await system.call('POST', '/api/v1/tags/attach', {
        key,
        body: { contact_id: upsert.body.data.id, tag_ids: [tag.body.data.id] },
      });
      expect(attach.status).toBeLessThan(300);
    }
  }
  const refused = await system.call('POST', '/api/v1/events', { key, body: { name: 'x', contact: {} } });
  expect(refused.status).toBe(422);
  await moveIdentifiers(round);
}

/**
 * A contact known by its email and CRM id, then an event about the round's first contact (matched by
 * its phone) naming both: the first contact takes them and the other loses them (extensions §2).
 */
async function moveIdentifiers(round: string): Promise<void> {
  const email = `moved-${round}@example.com`;
  const externalId = `crm-${round}`;
  const holder = await system.call<{ data: { id: number } }>('POST', '/api/v1/contacts/upsert', {
    key,
    body: { name: `Holder ${round}`, email, external_id: externalId },
  });
  expect(holder.status).toBe(201);
  const event = {
    name: 'profile.updated',
    contact: { phone: phoneOf(round, 0), email, external_id: externalId },
  };
  expect((await system.call('POST', '/api/v1/events', { key, body: event })).status).toBe(202);
  const holders = await system.call<{ data: Array<{ phone: string | null }> }>(
    'GET',
    `/api/v1/contacts?filter[email]=${encodeURIComponent(email)}`,
    { key },
  );
  expect(holders.body.data.map((contact) => contact.phone)).toEqual([phoneOf(round, 0)]);
  const former = await system.call<{ data: Record<string, unknown> }>(
    'GET',
    `/api/v1/contacts/${holder.body.data.id}`,
    { key },
  );
  expect(former.body.data).toMatchObject({ email: null, external_id: null });
}

/** A plan with a starter-sized limit, for the plan change below. */
const SMALL_PLAN = 'business';
const SMALL_LIMIT = 2;

/**
 * A plan change followed at once by a write: the write is judged by the new plan's limit, although the
 * gateway's cached key still carried the old plan (plan changes apply in log order, extensions §2).
 */
async function planChange(): Promise<void> {
  const other = await system.tenant('pro');
  const signup = (phone: string) =>
    system.call('POST', '/api/v1/events', { key: other.key, body: { name: 'signup', contact: { phone } } });
  for (let i = 0; i < SMALL_LIMIT; i += 1) expect((await signup(`+1415556000${i}`)).status).toBe(202);
  const patched = await system.call('PATCH', `/admin/v1/workspaces/${other.workspaceId}`, {
    admin: true,
    body: { plan: SMALL_PLAN },
  });
  expect(patched.status).toBe(200);
  const over = await signup('+14155569999');
  expect({ status: over.status, body: over.body }).toMatchObject({
    status: 422,
    body: { errors: [expect.objectContaining({ source: { pointer: '/data/attributes/contact' } })] },
  });
}

beforeAll(async () => {
  system = await System.start(['gateway', 'contacts'], {
    [`PLAN_${SMALL_PLAN.toUpperCase()}_STORED_CONTACTS`]: String(SMALL_LIMIT),
  });
  db = new Client({ connectionString: system.stack.databaseUrl });
  await db.connect();
  admin = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-ops' }).admin();
  await admin.connect();
  ({ key } = await system.tenant('pro'));
  await workload('a', 12);
  await planChange();
});

afterAll(async () => {
  const leftovers = await db
    ?.query<{ schema_name: string }>(
      `SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE $1`,
      [`${system.schema('contacts')}_%`],
    )
    .catch(() => ({ rows: [] }));
  for (const { schema_name: schema } of leftovers?.rows ?? [])
    await db.query(`DROP SCHEMA "${schema}" CASCADE`);
  await db?.end();
  await admin?.disconnect();
  await system?.stop();
});

describe('ops replay contacts --in-place', () => {
  it('refuses while the service runs, naming what to do', async () => {
    const run = await runOps(['replay', 'contacts', '--in-place', '--schema', system.schema('contacts')])
      .done;
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/contacts is running .*stop it first/);
  });

  it('rebuilds the projection row for row, publishes nothing again, and the service carries on', async () => {
    const schema = system.schema('contacts');
    await system.halt('contacts');
    const before = await projection(schema);
    // The round's 12, the contact identifiers moved from, and the other workspace's 2 (its third refused).
    expect(before.contacts!.length).toBe(15);
    expect(before.events!.length).toBe(15);
    const facts = await topicSize(system.topics.contacts);
    const outcomes = await topicSize(system.topics.outcomes);
    const requests = await topicSize(system.topics.requests);

    const run = await runOps(['replay', 'contacts', '--in-place', '--schema', schema, '--json']).done;
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout.trim()) as Record<string, unknown>;
    expect(report).toEqual(
      expect.objectContaining({ service: 'contacts', mode: 'in-place', schema, records: requests }),
    );
    expect(report.rate).toBeGreaterThan(0);

    expect(await projection(schema)).toEqual(before);
    expect(await topicSize(system.topics.contacts)).toBe(facts);
    expect(await topicSize(system.topics.outcomes)).toBe(outcomes);

    await system.resume('contacts');
    await workload('b', 3);
    const contacts = await system.call<{ meta: { total: number } }>('GET', '/api/v1/contacts', { key });
    expect(contacts.body.meta.total).toBe(17);
    expect([...(await factCopies()).values()].every((count) => count === 1)).toBe(true);
  });

  it('resumes after an interruption instead of starting over', async () => {
    const schema = system.schema('contacts');
    await system.halt('contacts');
    const before = await projection(schema);
    let interrupted = false;
    const first = runOps(['replay', 'contacts', '--in-place', '--schema', schema], (stderr) => {
      if (!interrupted && /contacts in place/.test(stderr)) {
        interrupted = true;
        first.kill();
      }
    });
    const stopped = await first.done;
    // Interrupted mid-way (exit 130), or so quick it finished first (exit 0): both must leave a resumable state.
    expect({ stopped: [0, 130].includes(stopped.code ?? -1), stderr: stopped.stderr }).toEqual({
      stopped: true,
      stderr: expect.any(String),
    });
    const second = await runOps(['replay', 'contacts', '--in-place', '--schema', schema, '--json']).done;
    expect(second.code).toBe(0);
    expect(await projection(schema)).toEqual(before);
    await system.resume('contacts');
  });
});

describe('ops replay contacts --blue-green', () => {
  it('builds beside the live service, switches when it stops, and nothing is lost or published twice', async () => {
    const schema = system.schema('contacts');
    const target = `${schema}_green`.slice(0, 63);
    let waiting = false;
    const run = runOps(
      ['replay', 'contacts', '--blue-green', '--schema', schema, '--target-schema', target],
      (stderr) => {
        if (/Stop it to switch/.test(stderr)) waiting = true;
      },
    );
    await eventually('the new schema caught up', async () => waiting, 60000, 100);
    // The live service keeps taking writes while the new schema is built.
    await workload('c', 3);
    await system.halt('contacts');
    const live = await projection(schema);
    const result = await run.done;
    // On a failure the operator's output is the diagnosis: show it.
    expect({ code: result.code, stderr: result.code === 0 ? '' : result.stderr }).toEqual({
      code: 0,
      stderr: '',
    });
    const previous = /kept as (\S+);/.exec(result.stdout)?.[1];
    expect(previous).toBeDefined();
    expect(await projection(previous!)).toEqual(live);
    expect(await projection(schema)).toEqual(live);

    await system.resume('contacts');
    await workload('d', 2);
    const contacts = await system.call<{ meta: { total: number } }>('GET', '/api/v1/contacts', { key });
    expect(contacts.body.meta.total).toBe(24);
    const copies = await factCopies();
    expect(copies.size).toBeGreaterThan(40);
    expect([...copies.values()].every((count) => count === 1)).toBe(true);
  });
});

describe('ops lag', () => {
  it('shows each consumer of the service with no lag once it caught up', async () => {
    await eventually(
      'contacts caught up',
      async () => {
        const run = await runOps(['lag', 'contacts', '--schema', system.schema('contacts'), '--json']).done;
        const rows = JSON.parse(run.stdout) as Array<{ consumer: string; lag: string; members: number }>;
        return (
          rows.length === 1 &&
          rows[0]!.consumer === 'contacts' &&
          rows[0]!.lag === '0' &&
          rows[0]!.members === 1
        );
      },
      30000,
      500,
    );
  });
});
