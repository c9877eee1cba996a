import { IMPORT_ROWS_PER_CHUNK, OUTCOME_TYPES, SEGMENTS_REQUEST_TYPES } from '@cms/contracts';
import { ServiceHarness, type ServiceProcess } from '@cms/service-kit/testing';
import { eventually } from '@cms/testing';

import { chunkRecordId } from '../src/imports/emit-chunks/import.worker';
import { SEGMENTS_SERVICE } from '../src/segments.service';
import { chunkRecordsOf, processRequest, storeUpload, type Harness } from './import-jobs.fixtures';

const WORKSPACE = 1;
const CHUNKS = 200;
const ROWS = CHUNKS * IMPORT_ROWS_PER_CHUNK;

describe('the import worker killed with SIGKILL while it sends a job', () => {
  let kit: Harness;
  let running: ServiceProcess | undefined;

  beforeAll(async () => {
    kit = await ServiceHarness.start({
      definition: SEGMENTS_SERVICE,
      prefix: 'segimpk',
      read: ['requests'],
      env: {
        IMPORT_WORKER_POLL_MS: '20',
        // Nothing decides the chunks here: the worker may send them all, one a turn.
        IMPORT_CHUNKS_AHEAD: String(CHUNKS),
        IMPORT_CHUNKS_PER_TURN: '1',
        // A killed consumer's partitions go to its successor after this, not after the default 30 s.
        KAFKA_SESSION_TIMEOUT_MS: '6000',
      },
    });
    running = await kit.spawnService();
  }, 120_000);

  afterAll(async () => {
    await running?.kill();
    await kit?.stop();
  });

  async function sentSoFar(jobId: number): Promise<number> {
    const rows: Array<{ next_chunk: number }> = await kit.db.query(
      'SELECT next_chunk FROM import_emissions WHERE job_id = $1',
      [jobId],
    );
    return rows[0]?.next_chunk ?? 0;
  }

  it('sends every chunk exactly once (one envelope id each), none lost', async () => {
    const upload = await storeUpload(kit, WORKSPACE, ['Name', 'Phone'], {
      count: ROWS,
      sql: `ARRAY['n' || g, '+1555' || lpad(g::text, 7, '0')]`,
    });
    const data = processRequest(upload, { mapping: { phone: 'Phone', email: null, name: 'Name' } });
    const outcome = await kit.request(SEGMENTS_REQUEST_TYPES.importProcess, WORKSPACE, data, {
      timeoutMs: 30_000,
    });
    expect(outcome.type).toBe(OUTCOME_TYPES.accepted);

    await eventually('some chunks sent', async () => (await sentSoFar(data.job_id)) >= 10, 30_000, 5);
    await running!.kill();
    running = undefined;
    const atKill = await sentSoFar(data.job_id);
    expect(atKill).toBeLessThan(CHUNKS);
    running = await kit.spawnService();

    await eventually('every chunk sent', async () => (await sentSoFar(data.job_id)) === CHUNKS, 60_000, 100);
    const records = await eventually(
      'every chunk on the requests topic',
      async () => {
        const found = chunkRecordsOf(kit, data.job_id);
        return new Set(found.map((record) => record.data.chunk)).size === CHUNKS ? found : undefined;
      },
      60_000,
    );
    const idsByChunk = new Map<number, Set<string>>();
    for (const record of records) {
      const ids = idsByChunk.get(record.data.chunk) ?? new Set<string>();
      ids.add(record.id);
      idsByChunk.set(record.data.chunk, ids);
    }
    expect([...idsByChunk.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: CHUNKS }, (_, n) => n));
    for (const [chunk, ids] of idsByChunk) expect([...ids]).toEqual([chunkRecordId(data.job_id, chunk)]);
    // Each chunk holds its own rows, whichever life of the process sent it.
    for (const record of records) {
      const first = record.data.chunk * IMPORT_ROWS_PER_CHUNK + 1;
      expect(record.data.rows.map((row) => row.row)).toEqual(
        Array.from({ length: IMPORT_ROWS_PER_CHUNK }, (_, n) => first + n),
      );
      expect(record.data.rows[0]!.phone).toBe(`+1555${String(first).padStart(7, '0')}`);
    }
  });
});
