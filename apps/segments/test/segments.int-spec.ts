import {
  SEGMENTS_FACT_TYPES,
  SEGMENTS_REQUEST_TYPES,
  OUTCOME_TYPES,
  requestEnvelope,
  type RequestAcceptedV1,
} from '@cms/contracts';
import { migrationDrift } from '@cms/persistence';
import type { RunningService } from '@cms/service-kit';
import { ServiceHarness, type OutcomeEnvelope } from '@cms/service-kit/testing';
import { DataSource } from 'typeorm';

import { SEGMENTS_SERVICE } from '../src/segments.service';
import type { SegmentsConfig } from '../src/config';

let harness: ServiceHarness<SegmentsConfig>;
let service: RunningService;
let lastWorkspace = 0;

beforeAll(async () => {
  harness = await ServiceHarness.start({
    definition: SEGMENTS_SERVICE,
    prefix: 'segments',
    read: ['segments'],
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

/** `segments-audience.create.requested` as the gateway produces it, and its outcome. */
async function createAudience(
  workspaceId: number,
  name: string,
  id = Math.floor(Math.random() * 1e12) + 1,
): Promise<OutcomeEnvelope> {
  const request = requestEnvelope(
    SEGMENTS_REQUEST_TYPES.audienceCreate,
    { audience_id: id, name },
    { source: 'gateway', workspaceid: String(workspaceId) },
  );
  await harness.produce(request);
  return harness.outcomeOf(request);
}

async function read(path: string, workspaceId: number): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${service.url}${path}`, {
    headers: { 'x-workspace-id': String(workspaceId) },
  });
  return { status: response.status, body: await response.json() };
}

async function namesIn(workspaceId: number): Promise<string[]> {
  const rows: Array<{ name: string }> = await harness.db.query(
    'SELECT name FROM audiences WHERE workspace_id = $1 ORDER BY name',
    [workspaceId],
  );
  return rows.map((row) => row.name);
}

describe('the process', () => {
  it('starts from main.ts, migrates, and answers /health, /ready and /metrics', async () => {
    // On a schema and consumer group of its own, beside the instance the other tests use.
    const started = await harness.spawnService({
      schema: harness.newSchema(),
      env: { CONSUMER_NAME: 'segments-process' },
    });
    try {
      expect((await fetch(`${started.url}/health`)).status).toBe(200);
      expect((await fetch(`${started.url}/ready`)).status).toBe(200);
      const metrics = await fetch(`${started.url}/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain('service="segments"');
    } finally {
      await started.stop();
    }
  });
});

describe('segments-audience.create.requested', () => {
  it('answers 201 with the audience, publishes its fact, stores its row and reads it back', async () => {
    const ws = workspace();
    const id = Math.floor(Math.random() * 1e12) + 1;
    const outcome = await createAudience(ws, 'First', id);
    expect(outcome.type).toBe(OUTCOME_TYPES.accepted);
    const { status, resource } = outcome.data as RequestAcceptedV1;
    expect(status).toBe(201);
    expect(resource).toEqual({ id, name: 'First', created_at: expect.any(String) });

    const fact = await harness.waitFor('the fact of the request', () =>
      harness.recordsOn(harness.topics.segments).find((record) => record.causationid === outcome.causationid),
    );
    expect(fact).toMatchObject({
      type: SEGMENTS_FACT_TYPES.audienceCreated,
      subject: id,
      data: { audience_id: id, name: 'First' },
    });
    expect(await namesIn(ws)).toEqual(['First']);

    expect(await read(`/internal/v1/audiences/${id}`, ws)).toEqual({ status: 200, body: { data: resource } });
    expect(await read('/internal/v1/audiences', ws)).toMatchObject({
      status: 200,
      body: { data: [resource], meta: { total: 1 } },
    });
    // Another workspace's audience is not found.
    expect((await read(`/internal/v1/audiences/${id}`, workspace())).status).toBe(404);
  });

  it('refuses a name the workspace has with 422 at /data/attributes/name, storing nothing', async () => {
    const ws = workspace();
    expect((await createAudience(ws, 'Twice')).data).toMatchObject({ status: 201 });
    const refused = await createAudience(ws, 'Twice');
    expect(refused.type).toBe(OUTCOME_TYPES.rejected);
    expect(refused.data).toMatchObject({
      status: 422,
      errors: [{ status: '422', source: { pointer: '/data/attributes/name' } }],
    });
    expect(await namesIn(ws)).toEqual(['Twice']);
  });
});

describe('rebuilding from the log', () => {
  it('makes the same rows in a new schema, as `ops replay` does', async () => {
    const ws = workspace();
    for (const name of ['One', 'Two', 'One']) await createAudience(ws, name);
    const live = await harness.projectionRows();
    expect(Object.values(live).every((rows) => rows.length > 0)).toBe(true);
    expect(await harness.projectionRows(await harness.rebuild())).toEqual(live);
  });

  it('has migrations that match the entities (no drift)', async () => {
    expect(await migrationDrift(service.app.get(DataSource))).toEqual([]);
  });
});
