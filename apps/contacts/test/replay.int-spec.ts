import {
  CONTACT_REQUEST_TYPES,
  EVENT_REQUEST_TYPES,
  GATEWAY_REQUEST_TYPES,
  IMPORT_ROWS_REQUEST_TYPE,
  TAG_REQUEST_TYPES,
  type Envelope,
} from '@cms/contracts';
import { KAFKA_PLUMBING_TABLES } from '@cms/kafka';
import { migrationDrift } from '@cms/persistence';
import type { DataSource } from 'typeorm';

import { PROJECTION_ENTITIES } from '../src/contacts.service';
import { ContactsHarness } from './contacts.harness';

let harness: ContactsHarness;

beforeAll(async () => {
  harness = await ContactsHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

const PLUMBING_TABLES = [...KAFKA_PLUMBING_TABLES, 'migrations'];

/**
 * A workload with out-of-order events, duplicates, idempotency races, refusals, identifiers moving
 * between contacts, plan changes and every request type.
 */
function workload(workspaceId: number): Envelope[][] {
  const h = harness;
  const record = (type: string, data: object) => h.envelope(type, workspaceId, data);
  const [vip, lead, gone] = [h.id(), h.id(), h.id()];
  const event = (contact: object, occurredAt: string | null, extra: object = {}) =>
    record(EVENT_REQUEST_TYPES.record, {
      name: 'order.paid',
      event_id: h.id(),
      contact_id: h.id(),
      contact_limit: 6,
      contact,
      data: { total: 10 },
      occurred_at: occurredAt,
      ...extra,
    });
  const upsert = (body: object) =>
    record(CONTACT_REQUEST_TYPES.upsert, { contact_id: h.id(), contact_limit: 6, ...body });
  const ada = { phone: '+14155551001', name: 'Ada' };
  const importChunk = record(IMPORT_ROWS_REQUEST_TYPE, {
    job_id: 77,
    chunk: 0,
    create_new_entities: true,
    contact_limit: 6,
    rows: [
      { row: 1, phone: '+1 415 555 1001', email: null, name: 'Ada again', contact_id: h.id() },
      { row: 2, phone: null, email: 'imported@import.test', name: 'Imported', contact_id: h.id() },
      { row: 3, phone: 'bad', email: null, name: null, contact_id: h.id() },
    ],
  });
  const first = [
    record(TAG_REQUEST_TYPES.create, { tag_id: vip, name: 'vip', color: '#ff0000' }),
    record(TAG_REQUEST_TYPES.create, { tag_id: lead, name: 'lead' }),
    record(TAG_REQUEST_TYPES.create, { tag_id: gone, name: 'gone' }),
    record(TAG_REQUEST_TYPES.create, { tag_id: h.id(), name: 'vip' }),
    upsert({ ...ada, data: { plan: 'basic' }, marketing_consent: { sms: true } }),
    upsert({ name: 'Ada L.', phone: '001 415 555 1001', email: 'ada@example.com' }),
    upsert({ name: 'Bad', phone: 'nope' }),
    record(CONTACT_REQUEST_TYPES.batchUpsert, {
      contact_limit: 6,
      contacts: [
        { contact_id: h.id(), name: 'Bob', external_id: 'crm-bob', marketing_consent: { email: true } },
        { contact_id: h.id(), name: 'Broken', email: 'not-an-email' },
        { contact_id: h.id(), name: 'Cy', email: 'cy@example.com' },
      ],
    }),
    event({ phone: '+1 415 555 1001', data: { plan: 'pro' } }, '2026-05-03T00:00:00Z'),
    event(
      { phone: '+14155551001', data: { plan: 'trial' }, marketing_consent: { sms: false } },
      '2026-05-01T00:00:00Z',
    ),
    event(
      { external_id: 'crm-bob', name: 'Robert', marketing_consent: { email: false } },
      '2026-05-02T00:00:00Z',
    ),
    event({ external_id: 'crm-bob', name: 'Bobby' }, '2026-04-01T00:00:00Z'),
    event({ email: 'CY@example.com', marketing_consent: { whatsapp: true } }, null, {
      idempotency_key: 'k-1',
    }),
    event({ email: 'cy@example.com', marketing_consent: { whatsapp: false } }, null, {
      idempotency_key: 'k-1',
    }),
    event({ phone: 'odd phone' }, null, { idempotency_key: 'k-2' }),
    event({ phone: 'odd phone' }, null, { idempotency_key: 'k-2' }),
    // A chunk of an import, twice (as the segments service's relay may publish it): decided once.
    ...Array.from({ length: 2 }, () => importChunk),
    // Inbound webhook deliveries (about contacts that exist, so the plan limit falls where it did), each
    // repeated: the repeat is answered from inbound_receipts.
    ...[['integration:9:header:h-1', 'integration:9:id:p-1'], ['integration:9:id:p-1']].map((keys, i) =>
      record(CONTACT_REQUEST_TYPES.ingest, {
        contact: { phone: '+1 415 555 1001', name: `Ada via webhook ${i}` },
        contact_id: h.id(),
        contact_limit: 6,
        integration_id: 9,
        retry_keys: keys,
      }),
    ),
    event({ external_id: 'crm-bob' }, null, { integration_id: 9, retry_keys: ['integration:9:id:e-1'] }),
    event({ external_id: 'crm-bob' }, null, { integration_id: 9, retry_keys: ['integration:9:id:e-1'] }),
    // Ada's phone matches the event, which gives her Bob's external id and Cy's email: both move.
    event({ phone: '+14155551001', external_id: 'crm-bob', email: 'Cy@Example.com' }, null),
    // A plan change to a starter-sized limit: the next write is judged by it, whatever limit it carries.
    record(GATEWAY_REQUEST_TYPES.workspaceUpdate, {
      workspace_id: workspaceId,
      plan: 'starter',
      contact_limit: 1,
    }),
    event({ phone: '+14155551999', name: 'Too many' }, null),
    record(GATEWAY_REQUEST_TYPES.workspaceUpdate, {
      workspace_id: workspaceId,
      plan: 'pro',
      contact_limit: 20,
    }),
  ];
  return [first];
}

/** Requests that need the ids the first round gave out. */
function followUps(workspaceId: number, contactIds: number[], tagIds: number[]): Envelope[] {
  const h = harness;
  const record = (type: string, data: object) => h.envelope(type, workspaceId, data);
  const [a, b, c] = contactIds as [number, number, number];
  const [vip, lead, gone] = tagIds as [number, number, number];
  return [
    record(CONTACT_REQUEST_TYPES.update, {
      contact_id: a,
      email: 'ada@lovelace.org',
      data: { team: 'red' },
      marketing_consent: { rcs: true },
    }),
    record(CONTACT_REQUEST_TYPES.update, { contact_id: b, phone: '+14155551001' }),
    record(CONTACT_REQUEST_TYPES.channelLink, { contact_id: a, channel: 'telegram', external_id: 'tg-1' }),
    record(CONTACT_REQUEST_TYPES.channelLink, { contact_id: b, channel: 'telegram', external_id: 'tg-1' }),
    record(CONTACT_REQUEST_TYPES.channelLink, { contact_id: c, channel: 'messenger', external_id: 'm-1' }),
    record(TAG_REQUEST_TYPES.sync, { contact_id: a, tag_ids: [vip, lead] }),
    record(TAG_REQUEST_TYPES.attach, { contact_id: b, tag_ids: [gone, vip] }),
    record(TAG_REQUEST_TYPES.detach, { contact_id: a, tag_ids: [lead] }),
    record(TAG_REQUEST_TYPES.update, { tag_id: lead, name: 'prospect', color: '#0f0' }),
    record(TAG_REQUEST_TYPES.delete, { tag_id: gone }),
    // A deleted tag: named in a body it is 422, in the path of a request 404.
    record(TAG_REQUEST_TYPES.attach, { contact_id: c, tag_ids: [gone] }),
    record(TAG_REQUEST_TYPES.update, { tag_id: gone, name: 'back' }),
    ...['x1', 'x2', 'x3', 'x4'].map((external) =>
      record(EVENT_REQUEST_TYPES.record, {
        name: 'signup',
        event_id: h.id(),
        contact_id: h.id(),
        contact_limit: 6,
        contact: { external_id: external },
        idempotency_key: 'signup-race',
      }),
    ),
    ...['y1', 'y2', 'y3'].map((external) =>
      record(EVENT_REQUEST_TYPES.record, {
        name: 'signup',
        event_id: h.id(),
        contact_id: h.id(),
        contact_limit: 6,
        contact: { external_id: external },
      }),
    ),
  ];
}

async function rows(dataSource: DataSource, table: string, order: string[]): Promise<unknown[]> {
  return dataSource.query(`SELECT * FROM ${table} ORDER BY ${order.join(', ')}`);
}

async function caughtUp(dataSource: DataSource, consumer: string): Promise<boolean> {
  const ends = await harness.admin.fetchTopicOffsets(harness.topics.requests);
  const stored: Array<{ partition: number; next_offset: string }> = await dataSource.query(
    'SELECT partition, next_offset::text AS next_offset FROM consumer_checkpoints WHERE consumer = $1',
    [consumer],
  );
  return ends.every(
    (end) =>
      end.high === '0' ||
      stored.some((row) => row.partition === end.partition && BigInt(row.next_offset) >= BigInt(end.high)),
  );
}

describe('rebuilding from the log', () => {
  it('gives a second instance, reading from the beginning into a fresh schema, the same rows in every projection table', async () => {
    const workspaces = [7001, 7002, 7003, 7004];
    const firstRound = workspaces.flatMap((ws) => workload(ws).flat());
    await harness.produce(...firstRound);
    // The gateway answers plan records; contacts only keeps their limit. Nobody waits for an import's
    // chunk: its answer is a fact.
    const answered = (envelope: Envelope) =>
      !envelope.type.startsWith('workspace.') && envelope.type !== IMPORT_ROWS_REQUEST_TYPE;
    const firstOutcomes = await Promise.all(
      firstRound.filter(answered).map((envelope) => harness.outcomeOf(envelope)),
    );
    expect(firstOutcomes.map((outcome) => outcome.status)).toEqual(
      expect.arrayContaining([201, 200, 422, 202]),
    );
    for (const ws of workspaces) {
      const mine = firstOutcomes.filter((outcome) => outcome.envelope.workspaceid === String(ws));
      // The write after the plan change was refused by the new limit (1), not its own (6).
      expect(mine.at(-1)).toMatchObject({
        status: 422,
        errors: [expect.objectContaining({ source: { pointer: '/data/attributes/contact' } })],
      });
      const byPhone = await harness.get('/internal/v1/contacts?filter[phone]=%2B14155551001', ws);
      expect(byPhone.body.data).toEqual([
        expect.objectContaining({ external_id: 'crm-bob', email: 'Cy@Example.com' }),
      ]);
      const formerHolders = await harness.get('/internal/v1/contacts?filter[search]=example.com', ws);
      expect((formerHolders.body.data as Array<{ email: string }>).map((contact) => contact.email)).toEqual([
        'Cy@Example.com',
      ]);
    }

    const secondRound: Envelope[] = [];
    for (const ws of workspaces) {
      const contacts = await harness.get('/internal/v1/contacts', ws);
      const tags = await harness.get('/internal/v1/tags', ws);
      const contactIds = (contacts.body.data as Array<{ id: number }>).map((contact) => contact.id);
      const tagIds = (tags.body.data as Array<{ id: number }>).map((tag) => tag.id);
      secondRound.push(...followUps(ws, contactIds, tagIds));
    }
    await harness.produce(...secondRound);
    const secondOutcomes = await Promise.all(secondRound.map((envelope) => harness.outcomeOf(envelope)));
    const statuses = secondOutcomes.map((outcome) => outcome.status);
    expect(statuses).toEqual(expect.arrayContaining([200, 202, 204, 404, 422]));
    // The idempotency race: one signup per workspace recorded, the other three answered with it.
    for (const ws of workspaces) {
      const raced = secondOutcomes.filter(
        (outcome) =>
          outcome.envelope.workspaceid === String(ws) && outcome.resource?.idempotency_key === 'signup-race',
      );
      expect(raced.map((outcome) => outcome.status).sort()).toEqual([200, 200, 200, 202]);
      expect(new Set(raced.map((outcome) => outcome.resource!.id)).size).toBe(1);
    }

    const live = harness.dataSourceOf(harness.service);
    const rebuilt = await harness.startService({ CONSUMER_NAME: 'contacts-rebuild' });
    const fresh = harness.dataSourceOf(rebuilt);
    const deadline = Date.now() + 30000;
    while (!(await caughtUp(fresh, 'contacts-rebuild'))) {
      if (Date.now() > deadline) throw new Error('the rebuilding instance did not catch up in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const schemaTables: Array<{ table_name: string }> = await live.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
    );
    const projectionTables = PROJECTION_ENTITIES.map((entity) => live.getMetadata(entity).tableName);
    expect(
      schemaTables
        .map((row) => row.table_name)
        .filter((name) => !PLUMBING_TABLES.includes(name))
        .sort(),
    ).toEqual([...projectionTables].sort());
    for (const entity of PROJECTION_ENTITIES) {
      const metadata = live.getMetadata(entity);
      const order = metadata.primaryColumns.map((column) => column.databaseName);
      const before = await rows(live, metadata.tableName, order);
      const after = await rows(fresh, metadata.tableName, order);
      expect({ table: metadata.tableName, rows: after }).toEqual({ table: metadata.tableName, rows: before });
      expect(before.length).toBeGreaterThan(0);
    }

    // The rebuild publishes the same facts again, with the same ids and the same content.
    const copiesById = (): Map<string, string[]> => {
      const byId = new Map<string, string[]>();
      for (const fact of harness.facts)
        byId.set(fact.id, [...(byId.get(fact.id) ?? []), JSON.stringify(fact)]);
      return byId;
    };
    const copies = await harness.waitFor('every fact twice', () => {
      const byId = copiesById();
      return [...byId.values()].every((list) => list.length === 2) ? byId : undefined;
    });
    expect(copies.size).toBeGreaterThan(100);
    for (const list of copies.values()) expect(list[1]).toBe(list[0]);
  });

  it('has migrations that match the entities (no drift)', async () => {
    expect(await migrationDrift(harness.dataSourceOf(harness.service))).toEqual([]);
  });
});
