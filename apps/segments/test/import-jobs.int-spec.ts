import {
  IMPORT_ROWS_PER_CHUNK,
  MAX_IMPORT_JOB_ERRORS,
  OUTCOME_TYPES,
  SEGMENTS_FACT_TYPES,
  SEGMENTS_REQUEST_TYPES,
  type ContactImportRowsRequestedV1,
  type Envelope,
  type ImportJobFactV1,
  type ImportProcessRequestedV1,
  type ImportRowDecisionV1,
  type ImportRowV1,
  type RequestAcceptedV1,
  type RequestRejectedV1,
} from '@cms/contracts';
import type { RunningService } from '@cms/service-kit';
import { ServiceHarness, type OutcomeEnvelope } from '@cms/service-kit/testing';
import { eventually } from '@cms/testing';

import { chunkRecordId } from '../src/imports/emit-chunks/import.worker';
import { SEGMENTS_SERVICE } from '../src/segments.service';
import {
  chunkRecordsOf,
  decidedFact,
  processRequest,
  refusedFact,
  storeUpload,
  type Harness,
} from './import-jobs.fixtures';

/** Chunks a job may have sent and not decided (IMPORT_CHUNKS_AHEAD of these instances). */
const CHUNKS_AHEAD = 2;
const COLUMNS = ['Name', 'Phone', 'Email'];

let harness: Harness;
let service: RunningService;
let lastWorkspace = 0;

beforeAll(async () => {
  harness = await ServiceHarness.start({
    definition: SEGMENTS_SERVICE,
    prefix: 'segimp',
    read: ['segments', 'requests'],
    env: { IMPORT_WORKER_POLL_MS: '20', IMPORT_CHUNKS_AHEAD: String(CHUNKS_AHEAD) },
  });
  service = await harness.startService();
});

afterAll(async () => {
  await harness?.stop();
});

function workspace(): number {
  lastWorkspace += 1;
  return lastWorkspace;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Row r of the file: a name with blanks around it, a phone but every fifth, an email every fourth. */
function fileRow(r: number): string[] {
  return [
    `  Person ${r} `,
    r % 5 === 0 ? '' : `+1555${String(r).padStart(7, '0')}`,
    r % 4 === 0 ? `p${r}@example.com` : '   ',
  ];
}

function fileRows(count: number): string[][] {
  return Array.from({ length: count }, (_, index) => fileRow(index + 1));
}

function processImport(workspaceId: number, data: ImportProcessRequestedV1): Promise<OutcomeEnvelope> {
  return harness.request(SEGMENTS_REQUEST_TYPES.importProcess, workspaceId, data);
}

/** A job as the internal reads answer it (the list adds its workspace). */
type JobResource = ImportJobFactV1 & { updated_at: string; workspace_id?: number };

async function read(
  path: string,
  workspaceId?: number,
): Promise<{ status: number; body: { data: unknown; meta?: { total: number } } }> {
  const response = await fetch(`${service.url}${path}`, {
    headers: workspaceId === undefined ? {} : { 'x-workspace-id': String(workspaceId) },
  });
  return { status: response.status, body: (await response.json()) as { data: unknown } };
}

async function jobOf(workspaceId: number, jobId: number): Promise<JobResource> {
  const { status, body } = await read(`/internal/v1/audience-import/jobs/${jobId}`, workspaceId);
  expect(status).toBe(200);
  return body.data as JobResource;
}

function factsOf(type: string, subject: number): Envelope<Record<string, unknown>>[] {
  return harness
    .recordsOn(harness.topics.segments)
    .filter((record) => record.type === type && record.subject === String(subject));
}

/** The facts of `type` about the job, once there is one. */
function published(type: string, jobId: number): Promise<Envelope<Record<string, unknown>>[]> {
  return harness.waitFor(type, () => {
    const facts = factsOf(type, jobId);
    return facts.length > 0 ? facts : undefined;
  });
}

/** Publishes a chunk's answer for a job not decided yet, and waits until it is kept for the job. */
async function publishBeforeTheJob(jobId: number, fact: Envelope): Promise<void> {
  await harness.publish(harness.topics.contacts, [fact]);
  await eventually('the chunk kept for its job', async () => {
    const kept: unknown[] = await harness.db.query(
      'SELECT 1 FROM import_job_chunks WHERE job_id = $1 AND pending IS NOT NULL',
      [jobId],
    );
    return kept.length === 1;
  });
}

async function chunksSent(jobId: number, count: number): Promise<Envelope<ContactImportRowsRequestedV1>[]> {
  return eventually(`${count} chunks of job ${jobId}`, async () => {
    const records = chunkRecordsOf(harness, jobId);
    return new Set(records.map((record) => record.data.chunk)).size >= count ? records : undefined;
  });
}

function chunkOf(jobId: number, chunk: number): Envelope<ContactImportRowsRequestedV1> {
  const record = chunkRecordsOf(harness, jobId).find((candidate) => candidate.data.chunk === chunk);
  if (!record) throw new Error(`chunk ${chunk} of job ${jobId} was not sent`);
  return record;
}

/** What the contacts service would decide: every tenth row skipped, every third matched, the rest created. */
function decide(rows: ImportRowV1[]): ImportRowDecisionV1[] {
  return rows.map((row) => {
    if (row.row % 10 === 0) return { row: row.row, outcome: 'skipped', contact_id: null, reason: 'no_match' };
    if (row.row % 3 === 0) {
      return { row: row.row, outcome: 'matched', contact_id: 7_000_000 + (row.row % 7), reason: null };
    }
    return { row: row.row, outcome: 'created', contact_id: row.contact_id, reason: null };
  });
}

/** The numbers of the job's chunks sent so far. */
function chunkNumbersSent(jobId: number): Set<number> {
  return new Set(chunkRecordsOf(harness, jobId).map((record) => record.data.chunk));
}

/** Publishes the decision of a sent chunk and waits until the job has processed `rowsProcessed` rows. */
async function decideSentChunk(
  workspaceId: number,
  jobId: number,
  chunk: number,
  rowsProcessed: number,
): Promise<JobResource> {
  const fact = decidedFact(workspaceId, jobId, chunk, decide(chunkOf(jobId, chunk).data.rows));
  await harness.publish(harness.topics.contacts, [fact]);
  return eventually(`chunk ${chunk} of job ${jobId} counted`, async () => {
    const current = await jobOf(workspaceId, jobId);
    return current.rows_processed === rowsProcessed ? current : undefined;
  });
}

async function membersOf(audienceId: number): Promise<number[]> {
  const rows: Array<{ contact_id: string }> = await harness.db.query(
    'SELECT contact_id FROM audience_members WHERE audience_id = $1 ORDER BY contact_id',
    [audienceId],
  );
  return rows.map((row) => Number(row.contact_id));
}

function refusal(outcome: OutcomeEnvelope): { status: number; pointers: Array<string | undefined> } {
  expect(outcome.type).toBe(OUTCOME_TYPES.rejected);
  const { status, errors } = outcome.data as RequestRejectedV1;
  return { status, pointers: errors.map((error) => error.source?.pointer) };
}

describe('an import job from its request to its completion', () => {
  const ws = workspace();
  const ROWS = 2 * IMPORT_ROWS_PER_CHUNK + 234;
  let data: ImportProcessRequestedV1;
  let decided: Envelope[] = [];

  it('answers 202 queued, creates the import audience and the job, and publishes both', async () => {
    const upload = await storeUpload(harness, ws, COLUMNS, fileRows(ROWS));
    data = processRequest(upload);
    const outcome = await processImport(ws, data);
    expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
    expect(outcome.data as RequestAcceptedV1).toMatchObject({
      status: 202,
      resource: { job_id: data.job_id, audience_id: data.audience_id, status: 'queued' },
    });

    const [audience] = await harness.waitFor('audience.created', () => {
      const facts = factsOf(SEGMENTS_FACT_TYPES.audienceCreated, data.audience_id);
      return facts.length > 0 ? facts : undefined;
    });
    expect(audience!.data).toMatchObject({
      id: data.audience_id,
      name: data.audience_name,
      source: 'import',
      filter_criteria: [],
      include_contact_ids: [],
      exclude_contact_ids: [],
    });
    const [queued] = await harness.waitFor('audience-import.queued', () => {
      const facts = factsOf(SEGMENTS_FACT_TYPES.importQueued, data.job_id);
      return facts.length > 0 ? facts : undefined;
    });
    expect(queued!.data).toEqual({
      id: data.job_id,
      status: 'queued',
      audience_id: data.audience_id,
      rows_total: ROWS,
      rows_processed: 0,
      contacts_created: 0,
      contacts_matched: 0,
      rows_skipped: 0,
      errors: [],
      created_at: queued!.time,
      started_at: null,
      finished_at: null,
    });
    expect(await jobOf(ws, data.job_id)).toMatchObject({
      id: data.job_id,
      status: 'queued',
      rows_total: ROWS,
      updated_at: queued!.time,
    });
    expect((await read(`/internal/v1/audience-import/jobs/${data.job_id}`, workspace())).status).toBe(404);
    expect((await read('/internal/v1/audience-import/jobs/1e3', ws)).status).toBe(404);
  });

  it('sends the rows to the contacts service a chunk at a time, mapped, each with its reserved contact id', async () => {
    const [first, second] = [
      ...(await chunksSent(data.job_id, CHUNKS_AHEAD)).sort((a, b) => a.data.chunk - b.data.chunk),
    ];
    expect(first).toMatchObject({
      id: chunkRecordId(data.job_id, 0),
      type: 'contact.import-rows.requested',
      workspaceid: String(ws),
      subject: String(data.job_id),
      data: { job_id: data.job_id, chunk: 0, create_new_entities: true, contact_limit: 25_000 },
    });
    const rows = first!.data.rows;
    expect(rows.map((row) => row.row)).toEqual(
      Array.from({ length: IMPORT_ROWS_PER_CHUNK }, (_, n) => n + 1),
    );
    expect(rows[0]).toEqual({
      row: 1,
      name: 'Person 1',
      phone: '+15550000001',
      email: null,
      contact_id: data.id_blocks[0],
    });
    expect(rows[3]).toMatchObject({ row: 4, email: 'p4@example.com' });
    expect(rows[4]).toMatchObject({ row: 5, phone: null });
    expect(rows[249]).toMatchObject({ row: 250, contact_id: data.id_blocks[2]! + 49 });
    expect(second!.data.rows[0]).toMatchObject({
      row: IMPORT_ROWS_PER_CHUNK + 1,
      contact_id: data.id_blocks[5],
    });
  });

  it('keeps at most IMPORT_CHUNKS_AHEAD chunks undecided, and sends the next once one is decided', async () => {
    await sleep(400);
    expect(chunkNumbersSent(data.job_id)).toEqual(new Set([0, 1]));
    const fact = decidedFact(ws, data.job_id, 0, decide(chunkOf(data.job_id, 0).data.rows));
    decided.push(fact);
    await harness.publish(harness.topics.contacts, [fact]);
    const job = await eventually('the first chunk counted', async () => {
      const current = await jobOf(ws, data.job_id);
      return current.rows_processed === IMPORT_ROWS_PER_CHUNK ? current : undefined;
    });
    expect(job).toMatchObject({ status: 'running', started_at: fact.time, finished_at: null });
    const last = (await chunksSent(data.job_id, 3)).find((record) => record.data.chunk === 2)!;
    expect(last.data.rows.map((row) => row.row)).toEqual(
      Array.from({ length: 234 }, (_, n) => 2 * IMPORT_ROWS_PER_CHUNK + n + 1),
    );
  });

  it('counts a chunk decided twice once, and completes the job when its last rows are decided', async () => {
    const second = decidedFact(ws, data.job_id, 1, decide(chunkOf(data.job_id, 1).data.rows));
    const third = decidedFact(ws, data.job_id, 2, decide(chunkOf(data.job_id, 2).data.rows));
    decided = [...decided, second, third];
    // The first chunk's decision again, as a relay publishes it again after a crash.
    await harness.publish(harness.topics.contacts, [decided[0]!, second]);
    await eventually('the second chunk counted', async () => {
      const current = await jobOf(ws, data.job_id);
      return current.rows_processed === 2 * IMPORT_ROWS_PER_CHUNK ? current : undefined;
    });
    await harness.publish(harness.topics.contacts, [third]);
    const [completed] = await published(SEGMENTS_FACT_TYPES.importCompleted, data.job_id);

    const all = decided.flatMap((fact) => (fact.data as { rows: ImportRowDecisionV1[] }).rows);
    const skipped = all.filter((row) => row.outcome === 'skipped');
    const expected = {
      id: data.job_id,
      status: 'completed',
      audience_id: data.audience_id,
      rows_total: ROWS,
      rows_processed: ROWS,
      contacts_created: all.filter((row) => row.outcome === 'created').length,
      contacts_matched: all.filter((row) => row.outcome === 'matched').length,
      rows_skipped: skipped.length,
      errors: skipped.slice(0, MAX_IMPORT_JOB_ERRORS).map((row) => ({ row: row.row, reason: 'no_match' })),
      started_at: decided[0]!.time,
      finished_at: third.time,
    };
    expect(skipped.length).toBeGreaterThan(MAX_IMPORT_JOB_ERRORS);
    expect(completed!.data).toMatchObject(expected);
    expect(await jobOf(ws, data.job_id)).toMatchObject({ ...expected, updated_at: third.time });
    const members = [
      ...new Set(all.filter((row) => row.outcome !== 'skipped').map((row) => row.contact_id!)),
    ].sort((a, b) => a - b);
    expect(await membersOf(data.audience_id)).toEqual(members);
  });
});

describe('chunks decided before their job is known', () => {
  it('are kept and applied when the job is decided, as a rebuild that reads the contacts topic first meets them', async () => {
    const ws = workspace();
    const upload = await storeUpload(harness, ws, COLUMNS, fileRows(3));
    const data = processRequest(upload);
    const rows: ImportRowDecisionV1[] = [
      { row: 1, outcome: 'created', contact_id: data.id_blocks[0]!, reason: null },
      { row: 2, outcome: 'matched', contact_id: 42, reason: null },
      { row: 3, outcome: 'skipped', contact_id: null, reason: 'invalid_email' },
    ];
    const fact = decidedFact(ws, data.job_id, 0, rows);
    await publishBeforeTheJob(data.job_id, fact);
    expect((await processImport(ws, data)).data).toMatchObject({ status: 202 });
    expect(await jobOf(ws, data.job_id)).toMatchObject({
      status: 'completed',
      rows_processed: 3,
      contacts_created: 1,
      contacts_matched: 1,
      rows_skipped: 1,
      errors: [{ row: 3, reason: 'invalid_email' }],
      started_at: fact.time,
      finished_at: fact.time,
    });
    expect(await membersOf(data.audience_id)).toEqual([42, data.id_blocks[0]].sort((a, b) => a! - b!));
    const pending: unknown[] = await harness.db.query(
      'SELECT 1 FROM import_job_chunks WHERE job_id = $1 AND pending IS NOT NULL',
      [data.job_id],
    );
    expect(pending).toEqual([]);
  });
});

describe('refusals', () => {
  it('refuses an upload expired when the request was recorded with 422 at path, storing nothing', async () => {
    const ws = workspace();
    const upload = await storeUpload(harness, ws, COLUMNS, fileRows(3), new Date(Date.now() - 1000));
    const data = processRequest(upload);
    expect(refusal(await processImport(ws, data))).toEqual({
      status: 422,
      pointers: ['/data/attributes/path'],
    });
    const audiences: unknown[] = await harness.db.query('SELECT 1 FROM audiences WHERE workspace_id = $1', [
      ws,
    ]);
    const jobs: unknown[] = await harness.db.query('SELECT 1 FROM import_jobs WHERE workspace_id = $1', [ws]);
    expect([audiences, jobs]).toEqual([[], []]);
  });

  it('refuses an audience name the workspace has (422 at audience_name) and a mapping without phone or email', async () => {
    const ws = workspace();
    const upload = await storeUpload(harness, ws, COLUMNS, fileRows(3));
    const first = processRequest(upload, { audience_name: 'Customers' });
    expect((await processImport(ws, first)).data).toMatchObject({ status: 202 });
    expect(refusal(await processImport(ws, processRequest(upload, { audience_name: 'Customers' })))).toEqual({
      status: 422,
      pointers: ['/data/attributes/audience_name'],
    });
    const unmatchable = processRequest(upload, { mapping: { phone: null, email: null, name: 'Name' } });
    expect(refusal(await processImport(ws, unmatchable))).toEqual({
      status: 422,
      pointers: ['/data/attributes/mapping'],
    });
    // A job id in use: the same request recorded twice, or a forged one.
    expect(
      refusal(
        await processImport(ws, { ...first, audience_name: 'Other', audience_id: first.audience_id + 1 }),
      ).status,
    ).toBe(409);
    const names: Array<{ name: string }> = await harness.db.query(
      'SELECT name FROM audiences WHERE workspace_id = $1',
      [ws],
    );
    expect(names).toEqual([{ name: 'Customers' }]);
  });
});

describe('the same path processed twice', () => {
  it('is a second job into an audience of its own, its rows sent with its own reserved ids', async () => {
    const ws = workspace();
    const upload = await storeUpload(harness, ws, COLUMNS, fileRows(2));
    const [one, two] = [processRequest(upload), processRequest(upload)];
    for (const data of [one, two])
      expect((await processImport(ws, data)).data).toMatchObject({ status: 202 });
    const [first] = await chunksSent(one.job_id, 1);
    const [second] = await chunksSent(two.job_id, 1);
    expect(second!.id).not.toBe(first!.id);
    expect(first!.data.rows.map((row) => row.contact_id)).toEqual([one.id_blocks[0], one.id_blocks[0]! + 1]);
    expect(second!.data.rows.map((row) => row.contact_id)).toEqual([two.id_blocks[0], two.id_blocks[0]! + 1]);
    expect(second!.data.rows.map((row) => row.phone)).toEqual(first!.data.rows.map((row) => row.phone));
  });
});

describe('a job with no rows', () => {
  it('completes as soon as it is decided, and sends nothing', async () => {
    const ws = workspace();
    const upload = await storeUpload(harness, ws, COLUMNS, []);
    const data = processRequest(upload);
    const outcome = await processImport(ws, data);
    expect(outcome.data).toMatchObject({ status: 202, resource: { status: 'queued' } });
    const [completed] = await published(SEGMENTS_FACT_TYPES.importCompleted, data.job_id);
    expect(completed!.data).toMatchObject({
      status: 'completed',
      rows_total: 0,
      rows_processed: 0,
      started_at: completed!.time,
      finished_at: completed!.time,
    });
    await sleep(200);
    expect(chunkRecordsOf(harness, data.job_id)).toEqual([]);
  });
});

describe('a job whose upload is gone before all its rows were sent', () => {
  it('fails, and still counts the chunks that were sent once they are decided', async () => {
    const ws = workspace();
    const upload = await storeUpload(harness, ws, COLUMNS, fileRows(2 * IMPORT_ROWS_PER_CHUNK + 100));
    const data = processRequest(upload);
    await processImport(ws, data);
    await chunksSent(data.job_id, CHUNKS_AHEAD);
    // Removed once expired, before the last chunk could go.
    await harness.db.query('DELETE FROM import_upload_rows WHERE path = $1', [upload.path]);
    await harness.db.query('DELETE FROM import_uploads WHERE path = $1', [upload.path]);
    const first = decidedFact(ws, data.job_id, 0, decide(chunkOf(data.job_id, 0).data.rows));
    await harness.publish(harness.topics.contacts, [first]);

    const [failed] = await published(SEGMENTS_FACT_TYPES.importFailed, data.job_id);
    const request = harness
      .recordsOn(harness.topics.requests)
      .find(
        (record) =>
          record.type === SEGMENTS_REQUEST_TYPES.importFail && record.subject === String(data.job_id),
      );
    expect(request?.data).toEqual({ job_id: data.job_id, reason: 'upload_unavailable' });
    expect(failed!.data).toMatchObject({ status: 'failed', finished_at: request!.time });
    expect(chunkNumbersSent(data.job_id)).toEqual(new Set([0, 1]));

    const job = await decideSentChunk(ws, data.job_id, 1, 2 * IMPORT_ROWS_PER_CHUNK);
    expect(job).toMatchObject({ status: 'failed', finished_at: request!.time });
    expect(factsOf(SEGMENTS_FACT_TYPES.importCompleted, data.job_id)).toEqual([]);
  });
});

describe("one workspace's many imports", () => {
  it('share one window of IMPORT_CHUNKS_AHEAD chunks, oldest job first, and hold back no other workspace', async () => {
    const ws = workspace();
    const jobs: ImportProcessRequestedV1[] = [];
    for (let made = 0; made < 3; made += 1) {
      const upload = await storeUpload(harness, ws, COLUMNS, fileRows(2 * IMPORT_ROWS_PER_CHUNK));
      jobs.push(processRequest(upload));
    }
    for (const job of jobs) await processImport(ws, job);
    const other = workspace();
    const otherJob = processRequest(
      await storeUpload(harness, other, COLUMNS, fileRows(IMPORT_ROWS_PER_CHUNK)),
    );
    await processImport(other, otherJob);

    // The other workspace's job is sent although the first one's window is full.
    await chunksSent(otherJob.job_id, 1);
    await chunksSent(jobs[0]!.job_id, 2);
    await sleep(400);
    const sent = () => jobs.map((job) => chunkNumbersSent(job.job_id).size);
    expect(sent()).toEqual([2, 0, 0]);

    // A chunk decided frees one place, which goes to the oldest job with chunks left: the second.
    await decideSentChunk(ws, jobs[0]!.job_id, 0, IMPORT_ROWS_PER_CHUNK);
    await chunksSent(jobs[1]!.job_id, 1);
    await sleep(400);
    expect(sent()).toEqual([2, 1, 0]);
  });
});

describe('a job one of whose chunks the contacts service refused', () => {
  it('fails at the refusal, is sent no more chunks, and still counts the chunks decided', async () => {
    const ws = workspace();
    const upload = await storeUpload(harness, ws, COLUMNS, fileRows(3 * IMPORT_ROWS_PER_CHUNK));
    const data = processRequest(upload);
    await processImport(ws, data);
    await chunksSent(data.job_id, CHUNKS_AHEAD);
    const refused = refusedFact(ws, data.job_id, 0);
    // Read twice, as a relay publishes it again after a crash.
    await harness.publish(harness.topics.contacts, [refused, refused]);
    const [failed] = await published(SEGMENTS_FACT_TYPES.importFailed, data.job_id);
    expect(failed!.data).toMatchObject({
      status: 'failed',
      rows_processed: 0,
      started_at: refused.time,
      finished_at: refused.time,
    });
    // The refusal freed a place in the window, and still nothing more goes.
    await sleep(400);
    expect(chunkNumbersSent(data.job_id)).toEqual(new Set([0, 1]));
    const job = await decideSentChunk(ws, data.job_id, 1, IMPORT_ROWS_PER_CHUNK);
    expect(job).toMatchObject({ status: 'failed', finished_at: refused.time });
    expect(factsOf(SEGMENTS_FACT_TYPES.importFailed, data.job_id)).toHaveLength(1);
    expect(factsOf(SEGMENTS_FACT_TYPES.importCompleted, data.job_id)).toEqual([]);
  });

  it('fails when decided, the refusal read before the job was known (a rebuild)', async () => {
    const ws = workspace();
    const upload = await storeUpload(harness, ws, COLUMNS, fileRows(3));
    const data = processRequest(upload);
    const refused = refusedFact(ws, data.job_id, 0);
    await publishBeforeTheJob(data.job_id, refused);
    expect((await processImport(ws, data)).data).toMatchObject({ status: 202 });
    expect(await jobOf(ws, data.job_id)).toMatchObject({
      status: 'failed',
      rows_processed: 0,
      finished_at: refused.time,
    });
    const failed = await published(SEGMENTS_FACT_TYPES.importFailed, data.job_id);
    expect(failed).toHaveLength(1);
    await sleep(200);
    expect(chunkRecordsOf(harness, data.job_id)).toEqual([]);
  });
});

describe('the list of jobs', () => {
  it("lists running jobs of every workspace for the operator, and one workspace's with its header", async () => {
    const ws = workspace();
    const upload = await storeUpload(harness, ws, COLUMNS, fileRows(IMPORT_ROWS_PER_CHUNK + 1));
    const data = processRequest(upload);
    await processImport(ws, data);
    await chunksSent(data.job_id, 1);
    const fact = decidedFact(ws, data.job_id, 0, decide(chunkOf(data.job_id, 0).data.rows));
    await harness.publish(harness.topics.contacts, [fact]);
    await eventually('the job running', async () => (await jobOf(ws, data.job_id)).status === 'running');

    const all = await read('/internal/v1/audience-import/jobs?status=running&per_page=100');
    expect(all.status).toBe(200);
    expect(all.body.data).toContainEqual(
      expect.objectContaining({ id: data.job_id, workspace_id: ws, rows_processed: IMPORT_ROWS_PER_CHUNK }),
    );
    expect((all.body.data as JobResource[]).every((job) => job.status === 'running')).toBe(true);
    const mine = await read('/internal/v1/audience-import/jobs?status=queued,running', ws);
    expect((mine.body.data as JobResource[]).map((job) => job.id)).toEqual([data.job_id]);
    const others = await read('/internal/v1/audience-import/jobs?status=running', workspace());
    expect(others.body).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await read('/internal/v1/audience-import/jobs?status=sleeping')).status).toBe(422);
  });
});

describe('rebuilding from the log', () => {
  it('makes the same jobs, chunks and members in a new schema, the uploads long gone', async () => {
    // Every job above left the worker with nothing to send until more is decided.
    await sleep(500);
    const live = await harness.projectionRows();
    expect(live.import_jobs!.length).toBeGreaterThan(3);
    expect(live.import_job_chunks!.length).toBeGreaterThan(3);
    await harness.db.query('DELETE FROM import_upload_rows');
    await harness.db.query('DELETE FROM import_uploads');
    expect(await harness.projectionRows(await harness.rebuild())).toEqual(live);
  });
});
