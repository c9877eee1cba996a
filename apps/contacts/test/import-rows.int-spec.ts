import {
  CONTACT_FACT_TYPES,
  createEnvelope,
  GATEWAY_REQUEST_TYPES,
  IMPORT_ROWS_FACT_TYPE,
  IMPORT_ROWS_REFUSED_FACT_TYPE,
  IMPORT_ROWS_REQUEST_TYPE,
  type ContactImportRowsDecidedV1,
  type Envelope,
  type ImportRowDecisionV1,
} from '@cms/contracts';

import { ContactsHarness } from './contacts.harness';

let harness: ContactsHarness;
beforeAll(async () => {
  harness = await ContactsHarness.start();
});

afterAll(async () => {
  await harness?.stop();
});

interface Row {
  phone?: string | null;
  email?: string | null;
  name?: string | null;
  /** The id reserved for the row; a fresh one unless given. */
  contact_id?: number;
}

interface Chunk {
  job: number;
  chunk: number;
  rows: Row[];
  create?: boolean;
  limit?: number;
  /** The 1-based data row of the chunk's first row. */
  firstRow?: number;
}

/** A chunk of an import job as the segments service's import worker appends it (through its outbox). */
function chunkRecord(workspaceId: number, chunk: Chunk): Envelope {
  const firstRow = chunk.firstRow ?? 1;
  return createEnvelope({
    type: IMPORT_ROWS_REQUEST_TYPE,
    source: 'segments',
    workspaceid: String(workspaceId),
    subject: String(chunk.job),
    data: {
      job_id: chunk.job,
      chunk: chunk.chunk,
      create_new_entities: chunk.create ?? true,
      contact_limit: chunk.limit ?? 1000,
      rows: chunk.rows.map((row, index) => ({
        row: firstRow + index,
        phone: row.phone ?? null,
        email: row.email ?? null,
        name: row.name ?? null,
        contact_id: row.contact_id ?? harness.id(),
      })),
    },
  });
}

function factsOf(request: Envelope): Envelope<Record<string, unknown>>[] {
  return harness.facts.filter((fact) => fact.causationid === request.id);
}

/** The decision of a chunk, once it is on cms.contacts.v1. */
async function decidedOf(
  request: Envelope,
  timeoutMs = 15000,
): Promise<Envelope<ContactImportRowsDecidedV1>> {
  const fact = await harness.waitFor(
    `the decision of ${request.id}`,
    () => factsOf(request).find((candidate) => candidate.type === IMPORT_ROWS_FACT_TYPE),
    timeoutMs,
  );
  return fact as unknown as Envelope<ContactImportRowsDecidedV1>;
}

const matched = (row: number, contactId: unknown): ImportRowDecisionV1 => ({
  row,
  outcome: 'matched',
  contact_id: contactId as number,
  reason: null,
});
const created = (row: number, contactId: number): ImportRowDecisionV1 => ({
  row,
  outcome: 'created',
  contact_id: contactId,
  reason: null,
});
const skipped = (row: number, reason: ImportRowDecisionV1['reason']): ImportRowDecisionV1 => ({
  row,
  outcome: 'skipped',
  contact_id: null,
  reason,
});

async function contactsOf(workspaceId: number): Promise<Array<Record<string, unknown>>> {
  const reply = await harness.get('/internal/v1/contacts?per_page=100', workspaceId);
  return reply.body.data as Array<Record<string, unknown>>;
}

describe('the rows of an import (contact.import-rows.requested)', () => {
  it('matches, creates and skips each row in order, and publishes one decision for the chunk', async () => {
    const ws = harness.workspace();
    const byPhone = await harness.upsert(ws, { name: 'Known', phone: '+14155550401', email: 'k@known.test' });
    const byEmail = await harness.upsert(ws, { name: 'Mailed', email: 'Mail@Known.test' });
    const [newA, newB] = [harness.id(), harness.id()];
    const request = chunkRecord(ws, {
      job: 9001,
      chunk: 0,
      firstRow: 11,
      rows: [
        // Phone first: the email of another contact does not count.
        { phone: '+1 (415) 555-0401', email: 'mail@known.test', name: 'Not renamed' },
        { email: ' MAIL@known.TEST ', name: 'Not renamed either' },
        { phone: '004915112345678', email: 'Neu@Example.test', name: '  Neu  ', contact_id: newA },
        { email: 'only-mail@example.test', contact_id: newB },
        { name: 'Nobody', phone: '  ', email: null },
        { phone: 'call me', email: 'fine@example.test' },
        { phone: '+14155550499', email: 'not-an-email' },
        { email: 'no at sign' },
      ],
    });
    await harness.produce(request);
    const decision = await decidedOf(request);
    expect(decision).toMatchObject({
      source: 'contacts',
      subject: '9001',
      workspaceid: String(ws),
      causationid: request.id,
    });
    expect(decision.data).toEqual({
      job_id: 9001,
      chunk: 0,
      rows: [
        matched(11, byPhone.resource!['id']),
        matched(12, byEmail.resource!['id']),
        created(13, newA),
        created(14, newB),
        skipped(15, 'no_identifier'),
        skipped(16, 'invalid_phone'),
        skipped(17, 'invalid_email'),
        skipped(18, 'invalid_email'),
      ],
    });

    // The created contacts are announced like every create, before the decision; the matched ones
    // are left as they were, without a fact.
    const facts = factsOf(request);
    expect(facts.map((fact) => [fact.type, fact.subject])).toEqual([
      [CONTACT_FACT_TYPES.created, String(newA)],
      [CONTACT_FACT_TYPES.created, String(newB)],
      [IMPORT_ROWS_FACT_TYPE, '9001'],
    ]);
    expect(facts[0]!.data).toMatchObject({
      contact_id: newA,
      name: 'Neu',
      phone: '+4915112345678',
      email: 'Neu@Example.test',
      external_id: null,
      source: 'import',
      data: {},
      tag_ids: [],
    });
    expect(facts[1]!.data).toMatchObject({ contact_id: newB, name: null, phone: null, source: 'import' });
    const contacts = await contactsOf(ws);
    expect(contacts.map((contact) => [contact['id'], contact['name'], contact['email']])).toEqual([
      [byPhone.resource!['id'], 'Known', 'k@known.test'],
      [byEmail.resource!['id'], 'Mailed', 'Mail@Known.test'],
      [newA, 'Neu', 'Neu@Example.test'],
      [newB, null, 'only-mail@example.test'],
    ]);
    expect(contacts[0]!['updated_at']).toBe(byPhone.resource!['updated_at']);
  });

  it('skips unmatched rows without creating anyone when the job does not create contacts', async () => {
    const ws = harness.workspace();
    const known = await harness.upsert(ws, { name: 'Known', phone: '+14155550411' });
    const request = chunkRecord(ws, {
      job: 9002,
      chunk: 0,
      create: false,
      rows: [{ phone: '+14155550412' }, { phone: '+14155550411' }, { email: 'new@example.test' }],
    });
    await harness.produce(request);
    expect((await decidedOf(request)).data.rows).toEqual([
      skipped(1, 'no_match'),
      matched(2, known.resource!['id']),
      skipped(3, 'no_match'),
    ]);
    expect(factsOf(request).map((fact) => fact.type)).toEqual([IMPORT_ROWS_FACT_TYPE]);
    expect(await contactsOf(ws)).toHaveLength(1);
  });

  it('creates contacts up to the plan limit of the latest plan record, and skips the rest with plan_limit', async () => {
    const ws = harness.workspace();
    await harness.upsert(ws, { name: 'Stored', phone: '+14155550421' });
    // A plan record's limit (3) judges the chunk, not the limit the chunk carries.
    await harness.produce(
      harness.envelope(GATEWAY_REQUEST_TYPES.workspaceUpdate, ws, {
        workspace_id: ws,
        plan: 'starter',
        contact_limit: 3,
      }),
    );
    const ids = [harness.id(), harness.id(), harness.id(), harness.id()];
    const request = chunkRecord(ws, {
      job: 9003,
      chunk: 0,
      limit: 1000,
      rows: [
        { phone: '+14155550422', contact_id: ids[0] },
        { phone: '+14155550421' },
        { phone: '+14155550423', contact_id: ids[1] },
        { phone: '+14155550424', contact_id: ids[2] },
        { phone: '+14155550425', contact_id: ids[3] },
      ],
    });
    await harness.produce(request);
    const decision = await decidedOf(request);
    expect(decision.data.rows).toEqual([
      created(1, ids[0]!),
      matched(2, expect.any(Number)),
      created(3, ids[1]!),
      skipped(4, 'plan_limit'),
      skipped(5, 'plan_limit'),
    ]);
    expect(factsOf(request).filter((fact) => fact.type === CONTACT_FACT_TYPES.created)).toHaveLength(2);
    expect(await contactsOf(ws)).toHaveLength(3);
    // The request's own limit applies to a workspace no plan record set one for.
    const other = harness.workspace();
    const limited = chunkRecord(other, {
      job: 9004,
      chunk: 0,
      limit: 1,
      rows: [{ email: 'one@example.test' }, { email: 'two@example.test' }],
    });
    await harness.produce(limited);
    expect((await decidedOf(limited)).data.rows.map((row) => row.reason)).toEqual([null, 'plan_limit']);
  });

  it('matches a later row to the contact an earlier row of the chunk, or of an earlier chunk, created', async () => {
    const ws = harness.workspace();
    const [first, second] = [harness.id(), harness.id()];
    const chunk0 = chunkRecord(ws, {
      job: 9005,
      chunk: 0,
      rows: [
        { phone: '+14155550431', email: 'dup@example.test', name: 'First', contact_id: first },
        { phone: '+1 415 555 0431', name: 'Same phone' },
        { email: 'DUP@example.test', name: 'Same email' },
        { phone: '+14155550432', email: 'dup@example.test', name: 'New phone, same email' },
        { email: 'second@example.test', name: 'Second', contact_id: second },
      ],
    });
    const chunk1 = chunkRecord(ws, {
      job: 9005,
      chunk: 1,
      firstRow: 6,
      rows: [{ email: 'Second@Example.test' }, { phone: '+14155550431' }],
    });
    await harness.produce(chunk0, chunk1);
    expect((await decidedOf(chunk0)).data.rows).toEqual([
      created(1, first),
      matched(2, first),
      matched(3, first),
      matched(4, first),
      created(5, second),
    ]);
    expect((await decidedOf(chunk1)).data.rows).toEqual([matched(6, second), matched(7, first)]);
    const contacts = await contactsOf(ws);
    expect(contacts.map((contact) => [contact['id'], contact['phone'], contact['email']])).toEqual([
      [first, '+14155550431', 'dup@example.test'],
      [second, null, 'second@example.test'],
    ]);
  });

  it('decides a chunk once, however often the log holds it', async () => {
    const ws = harness.workspace();
    const contactId = harness.id();
    const request = chunkRecord(ws, {
      job: 9006,
      chunk: 0,
      rows: [{ phone: '+14155550441', name: 'Once', contact_id: contactId }, { phone: 'x' }],
    });
    // The same record twice in a row (a relay publishing it again after a crash), and once more later
    // under a new envelope (the chunk appended again), each followed by a chunk that is new.
    const again = { ...request, id: `${request.id.slice(0, -4)}beef` };
    const next = chunkRecord(ws, { job: 9006, chunk: 1, firstRow: 3, rows: [{ phone: '+14155550441' }] });
    const last = chunkRecord(ws, { job: 9006, chunk: 2, firstRow: 4, rows: [{ phone: '+14155550442' }] });
    await harness.produce(request, request);
    await harness.produce(next);
    await decidedOf(next);
    await harness.produce(again, last);
    await decidedOf(last);
    expect(factsOf(request).map((fact) => fact.type)).toEqual([
      CONTACT_FACT_TYPES.created,
      IMPORT_ROWS_FACT_TYPE,
    ]);
    expect((await decidedOf(request)).data.rows).toEqual([
      created(1, contactId),
      skipped(2, 'invalid_phone'),
    ]);
    expect((await decidedOf(next)).data.rows).toEqual([matched(3, contactId)]);
    expect(factsOf(again)).toEqual([]);
    const rows = await harness
      .dataSourceOf(harness.service)
      .query(
        `SELECT job_id::int AS job_id, chunk, rows FROM import_chunks WHERE workspace_id = $1 ORDER BY chunk`,
        [ws],
      );
    expect(rows).toEqual([
      { job_id: 9006, chunk: 0, rows: 2 },
      { job_id: 9006, chunk: 1, rows: 1 },
      { job_id: 9006, chunk: 2, rows: 1 },
    ]);
    // Nobody waits for a chunk: it is answered by its fact, never by an outcome.
    await expect(harness.outcomeOf(request, 300)).rejects.toThrow();
  });
});

describe('a chunk that can never be decided', () => {
  /** The refusal of a chunk, once it is on cms.contacts.v1. */
  function refusalOf(request: Envelope): Promise<Envelope<Record<string, unknown>>> {
    return harness.waitFor(`the refusal of ${request.id}`, () =>
      factsOf(request).find((candidate) => candidate.type === IMPORT_ROWS_REFUSED_FACT_TYPE),
    );
  }

  /** The reason the record was dead-lettered for. */
  async function deadLetterReasonOf(request: Envelope): Promise<string | undefined> {
    const rows: Array<{ reason: string }> = await harness
      .dataSourceOf(harness.service)
      .query("SELECT reason FROM dead_letters WHERE convert_from(value, 'UTF8') LIKE $1", [
        `%${request.id}%`,
      ]);
    return rows[0]?.reason;
  }

  it('is refused to its job, with nothing of it applied, when a reserved id is taken', async () => {
    const ws = harness.workspace();
    const taken = harness.id();
    const first = chunkRecord(ws, {
      job: 9101,
      chunk: 0,
      rows: [{ phone: '+14155550461', contact_id: taken }],
    });
    // Another job's row was given the same id: the job is wrong, not the row.
    const clash = chunkRecord(ws, {
      job: 9102,
      chunk: 3,
      rows: [{ phone: '+14155550462' }, { phone: '+14155550463', contact_id: taken }],
    });
    await harness.produce(first, clash);
    expect((await decidedOf(first)).data.rows).toEqual([created(1, taken)]);
    const refusal = await refusalOf(clash);
    expect(refusal).toMatchObject({
      source: 'contacts',
      workspaceid: String(ws),
      subject: '9102',
      causationid: clash.id,
      correlationid: clash.correlationid,
      time: clash.time,
      data: { job_id: 9102, chunk: 3, reason: 'rejected' },
    });
    expect(await deadLetterReasonOf(clash)).toBe('rejected');
    expect(typeof refusal.data.error_id).toBe('string');
    // Its first row was not applied: the transaction that created it was the one that failed.
    const phones = (await contactsOf(ws)).map((contact) => contact.phone);
    expect(phones).toEqual(['+14155550461']);
    expect(factsOf(clash).map((fact) => fact.type)).toEqual([IMPORT_ROWS_REFUSED_FACT_TYPE]);
  });

  it('is refused to its job when its record breaks the contract', async () => {
    const ws = harness.workspace();
    const broken = chunkRecord(ws, { job: 9103, chunk: 1, rows: [{ phone: '+14155550464' }] });
    (broken.data as { rows: unknown[] }).rows = [];
    await harness.produce(broken);
    const refusal = await refusalOf(broken);
    const reason = await deadLetterReasonOf(broken);
    expect(refusal.data).toEqual({
      job_id: 9103,
      chunk: 1,
      reason,
      error_id: refusal.data.error_id,
    });
    expect(reason).not.toBe('rejected');
  });
});

describe('the speed of an import', () => {
  // A harness of its own, the service a process of its own as deployed: the figure is the service's.
  let own: ContactsHarness;
  beforeAll(async () => {
    own = await ContactsHarness.start([], { asProcess: true });
  }, 120_000);

  afterAll(async () => {
    await own?.stop();
  });

  it('decides 20,000 rows of 40 chunks into a fresh workspace, then the same rows again as matches', async () => {
    const rowsPerChunk = 500;
    const job = (jobId: number, ws: number, chunks = 40) =>
      Array.from({ length: chunks }, (_, chunk) =>
        chunkRecord(ws, {
          job: jobId,
          chunk,
          firstRow: chunk * rowsPerChunk + 1,
          limit: 250_000,
          rows: Array.from({ length: rowsPerChunk }, (_, index) => {
            const n = chunk * rowsPerChunk + index;
            return {
              phone: `+1212${String(5_000_000 + n).padStart(7, '0')}`,
              email: `person.${n}@bulk.example.test`,
              name: `Person ${n}`,
              contact_id: 10_000_000 + jobId * 100_000 + n,
            };
          }),
        }),
      );
    // The decisions read so far, by request: facts are looked at once each, however often this asks.
    const decisions = new Map<string, Envelope<ContactImportRowsDecidedV1>>();
    let read = 0;
    const decided = (record: Envelope) => {
      for (; read < own.facts.length; read += 1) {
        const fact = own.facts[read]!;
        if (fact.type !== IMPORT_ROWS_FACT_TYPE) continue;
        decisions.set(fact.causationid!, fact as unknown as Envelope<ContactImportRowsDecidedV1>);
      }
      return decisions.get(record.id);
    };
    const measure = async (records: Envelope[]): Promise<{ ms: number; rows: ImportRowDecisionV1[] }> => {
      const started = performance.now();
      await own.produce(...records);
      await own.waitFor('every chunk decided', () => records.every(decided) || undefined, 120_000);
      const ms = performance.now() - started;
      return { ms, rows: records.flatMap((record) => decided(record)!.data.rows) };
    };
    // A short import first, into a workspace of its own: the figure is of a service that runs, not of
    // one compiling its code paths (an import of a million rows does that once).
    const warmUp = await measure(job(9099, own.workspace(), 4));
    expect(warmUp.rows.every((row) => row.outcome === 'created')).toBe(true);
    const ws = own.workspace();
    const creating = await measure(job(9100, ws));
    expect(creating.rows).toHaveLength(20_000);
    expect(creating.rows.every((row) => row.outcome === 'created')).toBe(true);
    expect(own.facts.filter((fact) => fact.type === CONTACT_FACT_TYPES.created)).toHaveLength(22_000);
    const matching = await measure(job(9101, ws));
    expect(matching.rows.every((row) => row.outcome === 'matched')).toBe(true);
    const rate = (ms: number) => Math.round(20_000 / (ms / 1000));
    process.stdout.write(
      `import rows: 20,000 created in ${Math.round(creating.ms)} ms (${rate(creating.ms)} rows/s), ` +
        `20,000 matched in ${Math.round(matching.ms)} ms (${rate(matching.ms)} rows/s)\n`,
    );
  }, 300_000);
});
