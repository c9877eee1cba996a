import { acceptedOutcome, SEGMENTS_REQUEST_TYPES, type Envelope } from '@cms/contracts';
import { createKafka } from '@cms/kafka';
import { eventually, testStack, uniqueName } from '@cms/testing';
import { Partitioners, type Consumer, type Producer } from 'kafkajs';

import { startHarness, type Answer, type Harness } from './gateway.harness';
import { FakeService, tenant } from './messaging.fixtures';

type Data = { data: Record<string, unknown> };
type Errors = { errors: Array<{ status: string; source?: { pointer?: string } }> };

const PATH = `upl_${'0123456789abcdef'.repeat(2)}`;
const OTHER_PATH = `upl_${'f'.repeat(32)}`;
const EXPIRES_AT = '2030-01-01T00:00:00.000Z';
const ROW_COUNT = 250;

/** The uploads the fake segments service holds, by workspace; and the one job it knows. */
const uploads = new Map<string, Set<string>>();
const JOB_ID = 4242;
/** A job the fake service refuses with 429 and a Retry-After, as segments refuses an upload it cannot take. */
const BUSY_JOB_ID = 4343;

const segments = new FakeService([
  ({ target, headers }) => {
    const match = /^\/internal\/v1\/audience-import\/uploads\/([^/?]+)$/.exec(target);
    if (!match || !uploads.get(String(headers['x-workspace-id']))?.has(match[1]!)) return undefined;
    return {
      status: 200,
      body: {
        data: {
          path: match[1],
          columns: ['Name', 'Phone', 'Email'],
          row_count: ROW_COUNT,
          delimiter: ',',
          expires_at: EXPIRES_AT,
        },
      },
    };
  },
  ({ target }) =>
    target === `/internal/v1/audience-import/jobs/${BUSY_JOB_ID}`
      ? {
          status: 429,
          headers: { 'retry-after': '17' },
          body: { errors: [{ status: '429', title: 'Too Many Requests', detail: 'Busy.' }] },
        }
      : undefined,
  ({ target, headers }) =>
    target === `/internal/v1/audience-import/jobs/${JOB_ID}`
      ? {
          status: 200,
          body: { data: { id: JOB_ID, status: 'running', workspace: headers['x-workspace-id'] } },
        }
      : undefined,
]);

/** Plays the segments service's requests consumer: keeps the records, accepts every process request. */
class FakeImportDecider {
  readonly records: Envelope<Record<string, unknown>>[] = [];
  private consumer: Consumer | undefined;
  private producer: Producer | undefined;

  async start(topics: Harness['topics']): Promise<void> {
    const kafka = createKafka({ brokers: (await testStack()).kafkaBrokers, clientId: 'fake-segments' });
    this.producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await this.producer.connect();
    this.consumer = kafka.consumer({ groupId: uniqueName('fake-segments'), maxWaitTimeInMs: 20 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: topics.requests, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        const record = JSON.parse(message.value!.toString()) as Envelope<Record<string, unknown>>;
        this.records.push(record);
        if (record.type !== SEGMENTS_REQUEST_TYPES.importProcess) return;
        const outcome = acceptedOutcome(record, 'segments', 202, {
          job_id: record.data.job_id,
          audience_id: record.data.audience_id,
          status: 'queued',
        });
        await this.producer!.send({
          topic: topics.outcomes,
          messages: [{ key: record.workspaceid, value: JSON.stringify(outcome) }],
        });
      },
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
    await this.producer?.disconnect();
  }

  async recordOf(answer: Answer): Promise<Envelope<Record<string, unknown>>> {
    const id = answer.headers.get('x-request-id');
    return eventually(`the record of request ${id}`, async () =>
      this.records.find((record) => record.id === id),
    );
  }

  recorded(answer: Answer): boolean {
    return this.records.some((record) => record.id === answer.headers.get('x-request-id'));
  }
}

let harness: Harness;
let decider: FakeImportDecider;

beforeAll(async () => {
  harness = await startHarness({ SEGMENTS_URL: await segments.start() });
  decider = new FakeImportDecider();
  await decider.start(harness.topics);
}, 60000);

afterAll(async () => {
  await decider?.stop();
  await harness?.stop();
  await segments.stop();
});

/** A pro workspace holding PATH, and its key. */
async function importer(permissions?: string[]): Promise<{ workspaceId: number; key: string }> {
  const caller = await tenant(harness, 'pro', permissions);
  uploads.set(String(caller.workspaceId), new Set([PATH]));
  return caller;
}

function pointersOf(answer: Answer): string[] {
  return [...new Set((answer.body as Errors).errors.map((error) => error.source?.pointer ?? ''))].sort();
}

function processBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    path: PATH,
    mapping: { phone: 'Phone', email: 'Email' },
    audience_name: 'Spring leads',
    ...fields,
  };
}

/** The refused requests were not recorded: a later accepted one was, and they were not before it. */
async function expectNotRecorded(refused: Answer[], key: string): Promise<void> {
  const later = await harness.call('POST', '/api/v1/audience-import/process', {
    token: key,
    body: processBody(),
  });
  expect(later.status).toBe(202);
  await decider.recordOf(later);
  for (const answer of refused) expect(decider.recorded(answer)).toBe(false);
}

describe('POST /api/v1/audience-import/process', () => {
  it('answers 202 queued and records the job with its ids, the contact ids its rows may create, and the upload', async () => {
    const { workspaceId, key } = await importer();
    const asked = segments.received.length;
    const answer = await harness.call('POST', '/api/v1/audience-import/process', {
      token: key,
      body: processBody({
        mapping: { phone: 'Phone', email: null, name: 'Name' },
        create_new_entities: true,
      }),
    });
    expect(answer.status).toBe(202);
    const record = await decider.recordOf(answer);
    expect(record).toMatchObject({
      type: SEGMENTS_REQUEST_TYPES.importProcess,
      workspaceid: String(workspaceId),
    });
    expect(record.data).toEqual({
      path: PATH,
      mapping: { phone: 'Phone', email: null, name: 'Name' },
      audience_name: 'Spring leads',
      create_new_entities: true,
      job_id: expect.any(Number),
      audience_id: expect.any(Number),
      contact_limit: 25_000,
      id_blocks: expect.any(Array),
      rows_total: ROW_COUNT,
      upload_expires_at: EXPIRES_AT,
    });
    const blocks = record.data.id_blocks as number[];
    // 250 rows: three whole blocks of 100 ids, each a block the contact sequence handed out.
    expect(blocks).toHaveLength(3);
    expect(new Set(blocks).size).toBe(3);
    for (const start of blocks) expect(start % 100).toBe(1);
    expect((answer.body as Data).data).toEqual({
      job_id: record.data.job_id,
      audience_id: record.data.audience_id,
      status: 'queued',
    });
    const lookups = segments.since(asked).filter((received) => received.target.includes('/uploads/'));
    expect(lookups.map((received) => [received.target, received.headers['x-workspace-id']])).toEqual([
      [`/internal/v1/audience-import/uploads/${PATH}`, String(workspaceId)],
    ]);

    // Unmatched rows are skipped unless the request says otherwise; every job gets ids of its own.
    const again = await harness.call('POST', '/api/v1/audience-import/process', {
      token: key,
      body: processBody({ audience_name: 'Again' }),
    });
    const second = await decider.recordOf(again);
    expect(second.data).toMatchObject({
      create_new_entities: false,
      mapping: { phone: 'Phone', email: 'Email', name: null },
    });
    expect(second.data.job_id).not.toBe(record.data.job_id);
    expect(second.data.audience_id).not.toBe(record.data.audience_id);
    expect((second.data.id_blocks as number[]).some((start) => blocks.includes(start))).toBe(false);
  });

  it("answers 422 at path for an unknown, expired or another workspace's upload, recording nothing", async () => {
    const { key } = await importer();
    const other = await importer();
    uploads.get(String(other.workspaceId))!.add(OTHER_PATH);
    const refused = [];
    for (const path of [OTHER_PATH, `upl_${'1'.repeat(32)}`, '../uploads/x', 'upl_short']) {
      const answer = await harness.call('POST', '/api/v1/audience-import/process', {
        token: key,
        body: processBody({ path }),
      });
      expect([path, answer.status, pointersOf(answer)]).toEqual([path, 422, ['/data/attributes/path']]);
      refused.push(answer);
    }
    // A path no preview hands out never reaches the segments service.
    expect(segments.received.some((received) => received.target.includes('upl_short'))).toBe(false);
    await expectNotRecorded(refused, key);
  });

  it('answers 422 at the mapping for a column the file lacks, and for a mapping with neither phone nor email', async () => {
    const { key } = await importer();
    const missing = await harness.call('POST', '/api/v1/audience-import/process', {
      token: key,
      body: processBody({ mapping: { phone: 'Mobile', email: 'Email', name: 'Full name' } }),
    });
    expect([missing.status, pointersOf(missing)]).toEqual([
      422,
      ['/data/attributes/mapping/name', '/data/attributes/mapping/phone'],
    ]);
    const unmatchable = await harness.call('POST', '/api/v1/audience-import/process', {
      token: key,
      body: processBody({ mapping: { name: 'Name' } }),
    });
    expect([unmatchable.status, pointersOf(unmatchable)]).toEqual([422, ['/data/attributes/mapping']]);
    const invalid = await harness.call('POST', '/api/v1/audience-import/process', {
      token: key,
      body: { mapping: { phone: 5 }, audience_name: '   ', create_new_entities: 'yes' },
    });
    expect([invalid.status, pointersOf(invalid)]).toEqual([
      422,
      [
        '/data/attributes/audience_name',
        '/data/attributes/create_new_entities',
        '/data/attributes/mapping/phone',
        '/data/attributes/path',
      ],
    ]);
    await expectNotRecorded([missing, unmatchable, invalid], key);
  });

  it('needs the create permission, and a plan with the API', async () => {
    const reader = await importer(['read']);
    const answer = await harness.call('POST', '/api/v1/audience-import/process', {
      token: reader.key,
      body: processBody(),
    });
    expect(answer.status).toBe(403);
    const starter = await tenant(harness, 'starter');
    expect(
      (
        await harness.call('POST', '/api/v1/audience-import/process', {
          token: starter.key,
          body: processBody(),
        })
      ).status,
    ).toBe(403);
  });
});

describe('GET /api/v1/audience-import/jobs/{id}', () => {
  it("reads the job from the segments service in the caller's workspace, with the read permission", async () => {
    const { workspaceId, key } = await importer(['read']);
    const answer = await harness.call('GET', `/api/v1/audience-import/jobs/${JOB_ID}`, { token: key });
    expect([answer.status, (answer.body as Data).data]).toEqual([
      200,
      { id: JOB_ID, status: 'running', workspace: String(workspaceId) },
    ]);
    // The service's 404 (another workspace's job, or none) passes through.
    expect((await harness.call('GET', '/api/v1/audience-import/jobs/77', { token: key })).status).toBe(404);
    const writer = await importer(['create']);
    expect(
      (await harness.call('GET', `/api/v1/audience-import/jobs/${JOB_ID}`, { token: writer.key })).status,
    ).toBe(403);
  });

  it("passes a refusal's Retry-After on with it", async () => {
    const { key } = await importer(['read']);
    const answer = await harness.call('GET', `/api/v1/audience-import/jobs/${BUSY_JOB_ID}`, { token: key });
    expect([answer.status, answer.headers.get('retry-after')]).toEqual([429, '17']);
    expect((answer.body as Errors).errors[0]).toMatchObject({ status: '429', detail: 'Busy.' });
  });

  it('answers 404 for an id that is not the decimal form of 1 … 2^53 − 1, asking nobody', async () => {
    const { key } = await importer();
    const asked = segments.received.length;
    for (const id of ['0', '-1', '1e3', '0x10', 'abc', '9007199254740992', '042']) {
      const answer = await harness.call('GET', `/api/v1/audience-import/jobs/${id}`, { token: key });
      expect([id, answer.status]).toEqual([id, 404]);
    }
    expect(segments.since(asked)).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('documents the process body and answer, the job id and the job', async () => {
    type Operation = {
      tags?: string[];
      parameters?: Array<{ name: string; schema?: unknown }>;
      requestBody?: { content: Record<string, unknown> };
      responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
    };
    type Document = {
      paths: Record<string, Record<string, Operation>>;
      components: {
        schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
      };
    };
    const { paths, components } = (await harness.call('GET', '/openapi.json')).body as Document;
    const answer = (operation: Operation, status: string) =>
      operation.responses[status]?.content?.['application/json']?.schema;
    const process = paths['/api/v1/audience-import/process']!.post!;
    expect(process.tags).toEqual(['Imports']);
    expect(Object.keys(components.schemas.ProcessImportBody!.properties ?? {}).sort()).toEqual([
      'audience_name',
      'create_new_entities',
      'mapping',
      'path',
    ]);
    expect(answer(process, '202')).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/ImportJobQueued' } },
    });
    expect(components.schemas.ImportJobQueued!.required).toEqual(['job_id', 'audience_id', 'status']);
    const job = paths['/api/v1/audience-import/jobs/{id}']!.get!;
    const id = job.parameters!.find((p) => p.name === 'id');
    expect(id?.schema).toMatchObject({ type: 'integer', minimum: 1 });
    expect(answer(job, '200')).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/ImportJob' } },
    });
    const upload = paths['/api/v1/audience-import/preview']!.post!;
    expect(Object.keys(upload.requestBody!.content)).toEqual(['multipart/form-data']);
    expect(answer(upload, '201')).toMatchObject({
      properties: { data: { $ref: '#/components/schemas/ImportUpload' } },
    });
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['408', '413', '422', '429']));
  });
});
