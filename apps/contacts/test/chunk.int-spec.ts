import {
  CONTACT_FACT_TYPES,
  CONTACT_REQUEST_TYPES,
  CONTACTS_RECORD_TYPES,
  createEnvelope,
  EVENT_REQUEST_TYPES,
  GATEWAY_RECORD_TYPES,
  GATEWAY_REQUEST_TYPES,
  IMPORT_ROWS_FACT_TYPE,
  IMPORT_ROWS_REQUEST_TYPE,
  OUTCOME_RECORD_TYPES,
  RecordDecodeError,
  RecordTypeRegistry,
  type DecodedRecord,
  type Envelope,
} from '@cms/contracts';
import { RequestRefusedError, type Answer, type ChunkRecord, type RecordContext } from '@cms/kafka';
import { dropSchema, openDatabase } from '@cms/persistence';
import { testStack, uniqueName } from '@cms/testing';
import fc from 'fast-check';
import type { DataSource, EntityManager } from 'typeorm';

import { ContactsChunk } from '../src/chunk/contacts-chunk';
import { loadConfig, type ContactsConfig } from '../src/config';
import { BatchUpsertContactsHandler } from '../src/contacts/batch-upsert-contacts/batch-upsert-contacts.handler';
import { ContactWriter } from '../src/contacts/contact-writer';
import { ImportRowsHandler } from '../src/contacts/import-rows/import-rows.handler';
import { IngestContactHandler } from '../src/contacts/ingest-contact/ingest-contact.handler';
import { UpdateContactHandler } from '../src/contacts/update-contact/update-contact.handler';
import { UpsertContactHandler } from '../src/contacts/upsert-contact/upsert-contact.handler';
import type { ContactsDecision } from '../src/decisions/decision';
import { RequestDecider } from '../src/decisions/request-decider';
import { RecordEventHandler } from '../src/events/record-event/record-event.handler';
import { entitiesOf, migrationsOf } from '@cms/service-kit';

import { PROJECTION_ENTITIES, CONTACTS_SERVICE } from '../src/contacts.service';
import { ApplyPlanLimitHandler } from '../src/plans/apply-plan-limit/apply-plan-limit.handler';

const CONTACTS_ALL_MIGRATIONS = migrationsOf(CONTACTS_SERVICE);
const CONTACTS_ENTITIES = entitiesOf(CONTACTS_SERVICE);

/**
 * The set-based path (ContactsChunk) against the per-record path (decideRequest with the live
 * handlers, one savepoint per record): the same random requests, applied in chunks the way the
 * consumer runtime applies them, must leave every projection table row for row the same and emit
 * the same records in the same order.
 */

const registry = new RecordTypeRegistry().register(
  ...CONTACTS_RECORD_TYPES,
  ...OUTCOME_RECORD_TYPES,
  ...GATEWAY_RECORD_TYPES,
);
const planLimits = new ApplyPlanLimitHandler();
const PLAN_TYPES: readonly string[] = [
  GATEWAY_REQUEST_TYPES.workspaceCreate,
  GATEWAY_REQUEST_TYPES.workspaceUpdate,
];

let config: ContactsConfig;
let perRecordDb: DataSource;
let chunkDb: DataSource;
let chunk: ContactsChunk;
let decider: RequestDecider;
let handlers: Map<string, (decision: ContactsDecision<never>) => Promise<Answer>>;

beforeAll(async () => {
  const stack = await testStack();
  config = loadConfig({
    DATABASE_URL: stack.databaseUrl,
    KAFKA_BROKERS: stack.kafkaBrokers.join(','),
    TOPIC_NAMESPACE: 'chunk-property',
  });
  const open = (schema: string) =>
    openDatabase({
      url: stack.databaseUrl,
      schema,
      applicationName: 'contacts-chunk-test',
      entities: CONTACTS_ENTITIES,
      migrations: CONTACTS_ALL_MIGRATIONS,
    });
  perRecordDb = await open(uniqueName('contacts_one'));
  chunkDb = await open(uniqueName('contacts_chunk'));
  const writer = new ContactWriter();
  const recordEvent = new RecordEventHandler(writer);
  const upsert = new UpsertContactHandler(writer);
  const update = new UpdateContactHandler(writer);
  const batch = new BatchUpsertContactsHandler(upsert);
  const ingest = new IngestContactHandler(writer);
  const importRows = new ImportRowsHandler(writer);
  handlers = new Map<string, (decision: ContactsDecision<never>) => Promise<Answer>>([
    [EVENT_REQUEST_TYPES.record, (decision) => recordEvent.handle(decision)],
    [CONTACT_REQUEST_TYPES.upsert, (decision) => upsert.handle(decision)],
    [CONTACT_REQUEST_TYPES.update, (decision) => update.handle(decision)],
    [CONTACT_REQUEST_TYPES.batchUpsert, (decision) => batch.handle(decision)],
    [CONTACT_REQUEST_TYPES.ingest, (decision) => ingest.handle(decision)],
    [IMPORT_ROWS_REQUEST_TYPE, (decision) => importRows.handle(decision)],
  ]);
  decider = new RequestDecider(config);
  chunk = new ContactsChunk(decider, recordEvent, upsert, update, batch, importRows);
});

afterAll(async () => {
  for (const db of [perRecordDb, chunkDb]) {
    if (!db) continue;
    await dropSchema(db);
    await db.destroy();
  }
});

interface Emitted {
  topic: string;
  key: string | null;
  value: string;
}

/** How a chunk ended: applied, or failed as a whole (the runtime then applies it one record at a time). */
type ChunkEnd = 'applied' | 'failed';

function contextOf(
  manager: EntityManager,
  offset: number,
  emitted: Emitted[],
  replaying = false,
): RecordContext {
  return {
    manager,
    topic: config.topics.requests,
    partition: 0,
    offset: String(offset),
    key: null,
    replaying,
    emit: (topic, envelope, key) => {
      if (!replaying) emitted.push({ topic, key: key ?? null, value: JSON.stringify(envelope) });
    },
  };
}

function decode(value: string): DecodedRecord | undefined {
  try {
    return registry.decode(value);
  } catch (error) {
    if (error instanceof RecordDecodeError) return undefined;
    throw error;
  }
}

function perRecord(record: DecodedRecord, context: RecordContext): Promise<void> {
  // The gateway answers plan records; contacts only keeps their limit (PlanRecordsConsumer).
  if (PLAN_TYPES.includes(record.type)) {
    return planLimits.handle(
      context.manager,
      record.data as { workspace_id: number; contact_limit?: number },
    );
  }
  const handler = handlers.get(record.type)!;
  // The segments service's import chunks are answered by a fact only.
  if (record.type === IMPORT_ROWS_REQUEST_TYPE) {
    return decider.decideUnanswered(record as DecodedRecord<never>, context, handler);
  }
  return decider.decide(record as DecodedRecord<never>, context, handler);
}

/**
 * What ConsumerRuntime does with one partition's chunks: each chunk in one transaction (runs of
 * records the chunk handler takes applied together when `together`, the others one by one); a chunk
 * that fails is applied again one record per transaction, and a record that fails on its own is
 * left out (dead-lettered).
 */
async function applyLog(
  db: DataSource,
  values: string[][],
  together: boolean,
  replaying = false,
): Promise<{
  emitted: Emitted[];
  ends: ChunkEnd[];
}> {
  const emitted: Emitted[] = [];
  const ends: ChunkEnd[] = [];
  let offset = 0;
  const transaction = async (records: DecodedRecord[], setBased: boolean): Promise<void> => {
    const pending: Emitted[] = [];
    await db.transaction(async (manager) => {
      let run: ChunkRecord[] = [];
      const flush = async () => {
        if (run.length === 0) return;
        const taken = run;
        run = [];
        await chunk.apply(taken, manager);
      };
      for (const record of records) {
        const context = contextOf(manager, offset++, pending, replaying);
        if (setBased && chunk.takes(record)) {
          run.push({ record, context, inSpan: (work) => work() });
          continue;
        }
        await flush();
        await perRecord(record, context);
      }
      await flush();
    });
    emitted.push(...pending);
  };
  for (const chunkValues of values) {
    const records = chunkValues.map(decode).filter((record) => record !== undefined);
    if (records.length === 0) continue;
    try {
      await transaction(records, together && records.length > 1);
      ends.push('applied');
    } catch (error) {
      if (error instanceof RequestRefusedError) throw error;
      ends.push('failed');
      for (const record of records) await transaction([record], false).catch(() => undefined);
    }
  }
  return { emitted, ends };
}

const PRIMARY_KEYS: Record<string, string> = {
  contacts: 'id',
  contact_channels: 'contact_id, channel',
  consent_changes: 'id',
  workspace_usage: 'workspace_id',
  tags: 'id',
  contact_tags: 'contact_id, tag_id',
  events: 'id',
  inbound_receipts: 'workspace_id, key',
  import_chunks: 'workspace_id, job_id, chunk',
};

function tables(db: DataSource): string[] {
  return PROJECTION_ENTITIES.map((entity) => db.getMetadata(entity).tableName);
}

async function projection(db: DataSource): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of tables(db)) {
    rows[table] = await db.query(`SELECT * FROM ${table} ORDER BY ${PRIMARY_KEYS[table]}`);
  }
  return rows;
}

async function empty(db: DataSource): Promise<void> {
  await db.query(`TRUNCATE ${tables(db).join(', ')}`);
}

/**
 * The contact.updated facts about a contact other than the one its request wrote (the outcome's
 * contact): a contact that lost identifiers to it.
 */
function moves(emitted: Emitted[]): number {
  const records = emitted.map(
    (record) => [record.topic, JSON.parse(record.value) as Envelope<Record<string, unknown>>] as const,
  );
  const written = new Map<string | undefined, unknown>();
  for (const [topic, envelope] of records) {
    if (topic !== config.topics.outcomes) continue;
    const resource = (envelope.data as { resource?: { id?: unknown; contact_id?: unknown } }).resource;
    written.set(envelope.causationid, resource?.contact_id ?? resource?.id);
  }
  return records.filter(
    ([, fact]) =>
      fact.type === CONTACT_FACT_TYPES.updated &&
      typeof written.get(fact.causationid) === 'number' &&
      Number(fact.subject) !== written.get(fact.causationid),
  ).length;
}

// --- the requests -----------------------------------------------------------------------------

const workspace = fc.constantFrom(1, 2);
const time = fc.constantFrom(
  '2026-05-01T00:00:00.000Z',
  '2026-05-01T00:00:00.000Z',
  '2026-05-01T08:00:00.000Z',
  '2026-05-02T00:00:00.000Z',
);
const phone = fc.constantFrom(
  '+14155550101',
  '001 415 555 0101',
  '+1 415 555 0102',
  'odd phone',
  ' +14155550103 ',
);
const externalId = fc.constantFrom('crm-1', 'crm-2', 'crm-3');
const email = fc.constantFrom('ada@example.com', 'ADA@Example.com', 'bob@example.com');
const name = fc.constantFrom('Ada', 'Bob', ' Cy ');
const data = fc.dictionary(
  fc.constantFrom('plan', 'tier', 'b', 'aa', '10', '2'),
  fc.oneof(
    fc.integer({ min: 0, max: 3 }),
    fc.constantFrom('x', 'y'),
    fc.constant(null),
    fc.constant({ z: 1, a: [2] }),
  ),
  { maxKeys: 3 },
);
const consent = fc.record(
  { sms: fc.boolean(), email: fc.boolean(), whatsapp: fc.boolean() },
  { requiredKeys: [] },
);
const contactId = fc.integer({ min: 100, max: 110 });
/** Candidate ids that are seldom taken already, so that contacts get created. */
const freshContactId = fc.integer({ min: 200, max: 100_000 });
const limit = fc.integer({ min: 0, max: 4 });

const eventContact = fc.record(
  {
    phone: fc.oneof(phone, fc.constant(null), fc.constant('  ')),
    external_id: externalId,
    email,
    name: fc.oneof(name, fc.constant(null)),
    data,
    marketing_consent: consent,
  },
  { requiredKeys: [] },
);

const event = fc.record(
  {
    name: fc.constantFrom('order.paid', 'page.viewed'),
    event_id: fc.integer({ min: 1, max: 14 }),
    contact_id: contactId,
    contact_limit: limit,
    contact: eventContact,
    data: fc.option(data, { nil: undefined }),
    occurred_at: fc.constantFrom(
      undefined,
      null,
      '2026-04-30T00:00:00Z',
      '2026-05-03T00:00:00Z',
      '2026-05-01',
    ),
    idempotency_key: fc.option(fc.constantFrom('k-1', 'k-2'), { nil: undefined }),
  },
  { requiredKeys: ['name', 'event_id', 'contact_id', 'contact_limit', 'contact'] },
);

/**
 * An event naming a phone, an external id and an email at once: with few values to draw from, they
 * often belong to different contacts, and the one its phone matched takes the others' identifiers.
 */
const identityEvent = event.chain((body) =>
  fc
    .record({ phone, external_id: externalId, email, name: fc.constant('Moved') }, { requiredKeys: ['name'] })
    .chain((contact) =>
      fc.tuple(freshContactId, freshContactId).map(([contactId, eventId]) => ({
        ...body,
        event_id: eventId,
        idempotency_key: undefined,
        contact_id: contactId,
        contact_limit: 10,
        contact,
      })),
    ),
);

/** An inbound webhook's event: it needs the receipts, so it is always decided on its own. */
const inboundEvent = event.chain((body) =>
  fc.constantFrom(['integration:9:id:a'], ['integration:9:id:b', 'integration:9:id:a']).map((keys) => ({
    ...body,
    idempotency_key: undefined,
    integration_id: 9,
    retry_keys: keys,
  })),
);

const upsertBody = fc.record(
  {
    name,
    phone: fc.oneof(phone, fc.constant('nope'), fc.constant(null)),
    external_id: fc.oneof(externalId, fc.constant(null)),
    email: fc.oneof(email, fc.constant(null)),
    source: fc.constantFrom('crm', 'import'),
    data,
    marketing_consent: consent,
  },
  { requiredKeys: ['name'] },
);

const upsert = fc.record({ contact_id: contactId, contact_limit: limit, body: upsertBody });

/** A contact known by one identifier only: what an identity event later takes identifiers from. */
const oneIdentifierUpsert = fc.record({
  contact_id: freshContactId,
  contact_limit: fc.constant(10),
  body: fc.oneof(
    phone.map((value) => ({ name: 'One', phone: value })),
    externalId.map((value) => ({ name: 'One', external_id: value })),
    email.map((value) => ({ name: 'One', email: value })),
  ),
});

const update = fc.record(
  {
    contact_id: contactId,
    name,
    phone: fc.oneof(phone, fc.constant('nope'), fc.constant(null)),
    external_id: fc.oneof(externalId, fc.constant(null)),
    email: fc.oneof(email, fc.constant(null)),
    data,
    marketing_consent: consent,
  },
  { requiredKeys: ['contact_id'] },
);

const ingest = fc.record({
  contact: eventContact,
  contact_id: contactId,
  contact_limit: limit,
  integration_id: fc.constant(9),
  retry_keys: fc.constantFrom(['integration:9:id:c'], ['integration:9:header:d']),
});

const batch = fc.record({
  contact_limit: limit,
  contacts: fc.array(
    upsertBody.chain((body) => contactId.map((id) => ({ ...body, contact_id: id }))),
    { minLength: 1, maxLength: 3 },
  ),
});

/**
 * A chunk of an import: rows matching contacts of the other requests, invalid ones, and rows that
 * create contacts under ids of their own. Jobs and chunks repeat, so a chunk is often seen again.
 */
const importRows = fc.record({
  job_id: fc.integer({ min: 1, max: 3 }),
  chunk: fc.integer({ min: 0, max: 2 }),
  create_new_entities: fc.boolean(),
  contact_limit: limit,
  rows: fc
    .array(
      fc.record({
        phone: fc.oneof(phone, fc.constant(null), fc.constant(' ')),
        email: fc.oneof(email, fc.constant('not-an-email'), fc.constant(null)),
        name: fc.oneof(name, fc.constant(null)),
        contact_id: fc.integer({ min: 1_000_000, max: 2 ** 40 }),
      }),
      { minLength: 1, maxLength: 5 },
    )
    .map((rows) => rows.map((row, index) => ({ ...row, row: index + 1 }))),
});

/** A plan change between the writes: the limit every later write of the workspace is judged by. */
const plan = workspace.chain((workspaceId) =>
  fc.record(
    { workspace_id: fc.constant(workspaceId), plan: fc.constant('pro'), contact_limit: limit },
    { requiredKeys: ['workspace_id'] },
  ),
);

const request = fc.tuple(
  workspace,
  time,
  fc.oneof(
    { weight: 5, arbitrary: event.map((body) => [EVENT_REQUEST_TYPES.record, body] as const) },
    { weight: 3, arbitrary: identityEvent.map((body) => [EVENT_REQUEST_TYPES.record, body] as const) },
    { weight: 1, arbitrary: inboundEvent.map((body) => [EVENT_REQUEST_TYPES.record, body] as const) },
    {
      weight: 3,
      arbitrary: upsert.map(
        ({ contact_id, contact_limit, body }) =>
          [CONTACT_REQUEST_TYPES.upsert, { ...body, contact_id, contact_limit }] as const,
      ),
    },
    {
      weight: 2,
      arbitrary: oneIdentifierUpsert.map(
        ({ contact_id, contact_limit, body }) =>
          [CONTACT_REQUEST_TYPES.upsert, { ...body, contact_id, contact_limit }] as const,
      ),
    },
    { weight: 3, arbitrary: update.map((body) => [CONTACT_REQUEST_TYPES.update, body] as const) },
    { weight: 1, arbitrary: ingest.map((body) => [CONTACT_REQUEST_TYPES.ingest, body] as const) },
    { weight: 1, arbitrary: batch.map((body) => [CONTACT_REQUEST_TYPES.batchUpsert, body] as const) },
    { weight: 2, arbitrary: importRows.map((body) => [IMPORT_ROWS_REQUEST_TYPE, body] as const) },
    { weight: 1, arbitrary: plan.map((body) => [GATEWAY_REQUEST_TYPES.workspaceUpdate, body] as const) },
  ),
);

/** Requests as the gateway writes them, cut into the chunks a partition is read in. */
const log = fc
  .tuple(
    fc.array(request, { minLength: 1, maxLength: 30, size: 'medium' }),
    fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 }),
  )
  .map(([requests, sizes]) => {
    const values = requests.map(([workspaceId, at, [type, body]]) => {
      // A plan record is about the workspace it names, and keyed by it like the workspace's writes.
      const about = 'workspace_id' in body ? body.workspace_id : workspaceId;
      return JSON.stringify(
        createEnvelope({ type, source: 'gateway', workspaceid: String(about), time: at, data: body }),
      );
    });
    const chunks: string[][] = [];
    for (let at = 0, index = 0; at < values.length; index += 1) {
      const size = sizes[index % sizes.length]!;
      chunks.push(values.slice(at, at + size));
      at += size;
    }
    return chunks;
  });

describe('deciding a chunk together', () => {
  it('leaves every table and every emitted record as deciding its records one by one does', async () => {
    let chunksTogether = 0;
    let moved = 0;
    let importChunks = 0;
    await fc.assert(
      fc.asyncProperty(log, fc.boolean(), async (chunks, replaying) => {
        await empty(perRecordDb);
        await empty(chunkDb);
        const one = await applyLog(perRecordDb, chunks, false);
        // Every chunk applies: no write ever tries to give a second contact an identifier (the unique
        // indexes would fail it), including moves between contacts of one chunk.
        expect(one.ends.every((end) => end === 'applied')).toBe(true);
        moved += moves(one.emitted);
        importChunks += one.emitted.filter((record) => record.value.includes(IMPORT_ROWS_FACT_TYPE)).length;
        // Below a replay horizon nothing is emitted, and the rows are the same all the same.
        const together = await applyLog(chunkDb, chunks, true, replaying);
        // A chunk the per-record path applies is applied set-based too, not left to the fallback.
        expect(together.ends).toEqual(one.ends);
        expect(together.emitted).toEqual(replaying ? [] : one.emitted);
        expect(await projection(chunkDb)).toEqual(await projection(perRecordDb));
        chunksTogether += chunks.filter((values) => values.length > 1).length;
      }),
      { numRuns: 150 },
    );
    expect(chunksTogether).toBeGreaterThan(100);
    expect(moved).toBeGreaterThan(20);
    expect(importChunks).toBeGreaterThan(50);
  }, 300_000);

  it('decides a chunk of new contacts, matches, refusals and repeats with a few statements', async () => {
    await empty(chunkDb);
    const at = '2026-05-01T00:00:00.000Z';
    const record = (type: string, body: object) =>
      registry.decode(
        JSON.stringify(createEnvelope({ type, source: 'gateway', workspaceid: '7', time: at, data: body })),
      );
    const records = [
      record(EVENT_REQUEST_TYPES.record, {
        name: 'page.viewed',
        event_id: 1,
        contact_id: 11,
        contact_limit: 2,
        contact: { phone: '+14155550111', name: 'Ada' },
      }),
      record(EVENT_REQUEST_TYPES.record, {
        name: 'page.viewed',
        event_id: 2,
        contact_id: 12,
        contact_limit: 2,
        contact: { phone: '+1 415 555 0111', marketing_consent: { sms: true } },
      }),
      record(CONTACT_REQUEST_TYPES.upsert, {
        contact_id: 13,
        contact_limit: 2,
        name: 'Bob',
        phone: '+14155550112',
      }),
      record(CONTACT_REQUEST_TYPES.upsert, {
        contact_id: 14,
        contact_limit: 2,
        name: 'Cy',
        phone: '+14155550113',
      }),
      record(EVENT_REQUEST_TYPES.record, {
        name: 'page.viewed',
        event_id: 2,
        contact_id: 15,
        contact_limit: 2,
        contact: { phone: '+14155550112' },
      }),
    ];
    const emitted: Emitted[] = [];
    const statements = await counted(chunkDb, (manager) =>
      chunk.apply(
        records.map((decoded, offset) => ({
          record: decoded,
          context: contextOf(manager, offset, emitted),
          inSpan: (work) => work(),
        })),
        manager,
      ),
    );
    const outcomes = emitted
      .filter((record) => record.topic === config.topics.outcomes)
      .map((record) => JSON.parse(record.value) as { data: { status: number } });
    expect(outcomes.map((outcome) => outcome.data.status)).toEqual([202, 202, 201, 422, 409]);
    const rows = await projection(chunkDb);
    expect(rows.contacts).toHaveLength(2);
    expect(rows.events).toHaveLength(2);
    expect(rows.consent_changes).toHaveLength(1);
    expect(
      (rows.workspace_usage as Array<{ workspace_id: unknown }>).map((row) => ({
        ...row,
        workspace_id: String(row.workspace_id),
      })),
    ).toEqual([{ workspace_id: '7', contacts: 2, contact_limit: null }]);
    // Loading (contacts, emails' lower case not needed here, views, events, usage) and writing (contacts
    // updated and inserted, usage, consent changes, events): not one statement per record.
    expect(statements.length).toBeLessThanOrEqual(12);
  });

  it('decides a batch of 1,000 upserts, refusals among them, with a few statements', async () => {
    await empty(chunkDb);
    const contacts = Array.from({ length: 1000 }, (_, i) => ({
      contact_id: 5000 + i,
      name: `Batch ${i}`,
      // Every tenth element names the phone of the one before it: that contact, updated.
      phone: `+1415556${String(i % 10 === 9 ? i - 1 : i).padStart(4, '0')}`,
      external_id: `batch-${i}`,
    }));
    const record = registry.decode(
      JSON.stringify(
        createEnvelope({
          type: CONTACT_REQUEST_TYPES.batchUpsert,
          source: 'gateway',
          workspaceid: '7',
          data: { contact_limit: 800, contacts },
        }),
      ),
    );
    expect(chunk.takes(record) && chunk.worthAlone(record)).toBe(true);
    const emitted: Emitted[] = [];
    const statements = await counted(chunkDb, (manager) =>
      chunk.apply([{ record, context: contextOf(manager, 0, emitted), inSpan: (work) => work() }], manager),
    );
    const [outcome] = emitted
      .filter((entry) => entry.topic === config.topics.outcomes)
      .map(
        (entry) =>
          JSON.parse(entry.value) as {
            data: { status: number; resource: { summary: Record<string, number> } };
          },
      );
    expect(outcome!.data.status).toBe(200);
    // The plan allows 800 contacts: the new ones past them are refused, and leave nothing behind.
    const { created, updated, failed } = outcome!.data.resource.summary;
    expect([created, created! + updated! + failed!]).toEqual([800, 1000]);
    expect([updated! > 0, failed! > 0]).toEqual([true, true]);
    expect((await projection(chunkDb)).contacts).toHaveLength(800);
    expect(emitted.filter((entry) => entry.topic === config.topics.contacts).length).toBeGreaterThanOrEqual(
      created! + updated!,
    );
    expect(statements.length).toBeLessThanOrEqual(12);
  });

  it('decides a chunk of 500 import rows, matches, duplicates and the plan limit among them, with a few statements', async () => {
    await empty(chunkDb);
    const at = '2026-05-01T00:00:00.000Z';
    const record = (type: string, body: object) =>
      registry.decode(
        JSON.stringify(createEnvelope({ type, source: 'gateway', workspaceid: '8', time: at, data: body })),
      );
    const known = record(CONTACT_REQUEST_TYPES.upsert, {
      contact_id: 90_000,
      contact_limit: 400,
      name: 'Known',
      phone: '+14155570000',
    });
    const rows = Array.from({ length: 500 }, (_, i) => ({
      row: 1001 + i,
      // Every tenth row names the phone of the row before it: the contact that row created.
      phone: `+1415557${String(i % 10 === 9 ? i - 1 : i).padStart(4, '0')}`,
      email: `row${i}@example.com`,
      name: `Row ${i}`,
      contact_id: 90_001 + i,
    }));
    const importChunk = record(IMPORT_ROWS_REQUEST_TYPE, {
      job_id: 5,
      chunk: 2,
      create_new_entities: true,
      contact_limit: 400,
      rows,
    });
    expect(chunk.takes(importChunk) && chunk.worthAlone(importChunk)).toBe(true);
    const emitted: Emitted[] = [];
    const statements = await counted(chunkDb, (manager) =>
      chunk.apply(
        [known, importChunk, importChunk].map((decoded, offset) => ({
          record: decoded,
          context: contextOf(manager, offset, emitted),
          inSpan: (work) => work(),
        })),
        manager,
      ),
    );
    const facts = emitted
      .filter((entry) => entry.topic === config.topics.contacts)
      .map((entry) => JSON.parse(entry.value) as Envelope<Record<string, unknown>>);
    const decided = facts.filter((fact) => fact.type === IMPORT_ROWS_FACT_TYPE);
    // The same chunk twice in a row: decided once.
    expect(decided).toHaveLength(1);
    const outcomes = (decided[0]!.data as { rows: Array<{ outcome: string; reason: string | null }> }).rows;
    const count = (outcome: string, reason: string | null = null) =>
      outcomes.filter((row) => row.outcome === outcome && row.reason === reason).length;
    // Row 0 matches the upserted contact and every tenth row the one before it while that one could be
    // created: the plan allows 400 contacts, the upserted one among them, so rows 444 on are skipped.
    expect([count('matched'), count('created'), count('skipped', 'plan_limit')]).toEqual([45, 399, 56]);
    expect(outcomes.slice(443, 446).map((row) => row.outcome)).toEqual(['created', 'skipped', 'skipped']);
    expect(facts.filter((fact) => fact.type === CONTACT_FACT_TYPES.created)).toHaveLength(1 + 399);
    expect((await projection(chunkDb)).contacts).toHaveLength(400);
    // Loading (contacts, lower-case emails, views, import chunks, usage) and writing (contacts, usage,
    // import chunks): never a statement per row.
    expect(statements.length).toBeLessThanOrEqual(12);
  });

  it('decides an event on its own with one statement per thing it reads or writes', async () => {
    await empty(perRecordDb);
    const event = (eventId: number, contactId: number) =>
      registry.decode(
        JSON.stringify(
          createEnvelope({
            type: EVENT_REQUEST_TYPES.record,
            source: 'gateway',
            workspaceid: '7',
            data: {
              name: 'page.viewed',
              event_id: eventId,
              contact_id: contactId,
              contact_limit: 5,
              contact: { phone: '+14155550121', name: `Reader ${eventId}` },
            },
          }),
        ),
      );
    const emitted: Emitted[] = [];
    // Savepoint, event id taken?, contact by phone, usage counted within the limit, contact, event, release.
    const created = await counted(perRecordDb, (manager) =>
      perRecord(event(1, 21), contextOf(manager, 0, emitted)),
    );
    expect(created).toHaveLength(7);
    // Savepoint, event id taken?, contact by phone, contact written, its tags, its channels, event, release.
    const matched = await counted(perRecordDb, (manager) =>
      perRecord(event(2, 22), contextOf(manager, 1, emitted)),
    );
    expect(matched).toHaveLength(8);
    const outcomes = emitted
      .filter((record) => record.topic === config.topics.outcomes)
      .map((record) => JSON.parse(record.value) as { data: { status: number } });
    expect(outcomes.map((outcome) => outcome.data.status)).toEqual([202, 202]);
  });
});

/** The statements `work` sends in a transaction of its own (the transaction's own begin and commit aside). */
async function counted(db: DataSource, work: (manager: EntityManager) => Promise<void>): Promise<string[]> {
  const statements: string[] = [];
  await db.transaction(async (manager) => {
    const runner = manager.queryRunner!;
    const query = runner.query.bind(runner);
    runner.query = ((sql: string, ...rest: unknown[]) => {
      statements.push(sql);
      return (query as (...args: unknown[]) => Promise<unknown>)(sql, ...rest);
    }) as typeof runner.query;
    await work(manager);
  });
  return statements.filter((sql) => !/^(START TRANSACTION|BEGIN|COMMIT)\b/.test(sql));
}
