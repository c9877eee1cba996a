import {
  createEnvelope,
  deterministicId,
  ID_BLOCK_SIZE,
  IMPORT_ROWS_PER_CHUNK,
  IMPORT_ROWS_REQUEST_TYPE,
  SEGMENTS_REQUEST_TYPES,
  type ContactImportRowsRequestedV1,
  type Envelope,
  type ImportFailRequestedV1,
} from '@cms/contracts';
import { appendToOutbox, envelopeRecord } from '@cms/kafka';
import { idFromDatabase } from '@cms/persistence';
import { PolledWorker } from '@cms/service-kit';
import type { Logger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';

import { SOURCE } from '../../config';
import type { ImportMapping } from '../import-job.entity';
import { chunkRows, columnIndexes, importRow } from './import-chunk-rows';
import { IMPORT_WORK_SIGNAL } from '../import-work-signal';

export interface ImportWorkerOptions {
  dataSource: DataSource;
  /** The connection string and schema of the service's database: the worker listens there. */
  databaseUrl: string;
  schema: string;
  requestsTopic: string;
  pollMs: number;
  /** Chunks of one workspace's jobs sent and not decided yet, at most. */
  chunksAhead: number;
  /** Chunks one turn sends at most (over every job it takes). */
  chunksPerTurn: number;
  logger: Logger;
  onOutboxWritten(): void;
}

/** An emission row taken for this turn, with its workspace's chunks sent and not decided yet. */
interface ClaimedEmission {
  job_id: string;
  workspace_id: string;
  next_chunk: number;
  chunks: number;
  workspace_ahead: number;
  now: Date;
}

interface EmittedJob {
  path: string;
  mapping: ImportMapping;
  create_new_entities: boolean;
  contact_limit: string;
  rows_total: number;
}

/** The envelope id of a job's chunk: made again, it is the same record. */
export function chunkRecordId(jobId: number, chunk: number): string {
  return deterministicId('import-job', jobId, 'chunk', chunk);
}

/**
 * Sends the rows of the queued import jobs to the contacts service (extensions §11), as
 * `contact.import-rows.requested` records on the requests topic, a chunk of IMPORT_ROWS_PER_CHUNK rows
 * each, in row order.
 *
 * A turn first gives every queued job it does not know yet its emission row (`INSERT … ON CONFLICT
 * DO NOTHING`: the jobs' decisions write only the projection, so a rebuild, which keeps these rows,
 * never starts a job again). It then takes emission rows with FOR UPDATE SKIP LOCKED and, in the same
 * transaction, reads their next chunks' rows, appends the chunks' records to the outbox and moves
 * `next_chunk` on. Nothing else happens in between, so the transaction is the lease: a process killed
 * anywhere leaves either the chunks sent and counted or neither, and no chunk is sent twice or lost.
 *
 * Imports must not flood the requests topic ahead of other workspaces' requests (§6): a workspace has
 * at most `chunksAhead` chunks sent and not decided yet (decided: in `import_job_chunks`) over all its
 * jobs, however many it started, so its imports move at the pace the contacts service decides them
 * and a request of another workspace on the same partition waits behind at most that many chunks; a
 * turn sends at most `chunksPerTurn` chunks, taking jobs oldest first among the workspaces with room
 * (a workspace at its window does not hold back the jobs of others). Replicas each run a worker: each
 * keeps the window, so a workspace may have a window per replica ahead at the most. A transaction
 * that queues a job or records decided chunks signals the worker as it commits (IMPORT_WORK_SIGNAL), so
 * a job starts and its window is topped up at once; the poll is only a safety net.
 *
 * A job whose upload's rows are no longer there (an expired upload is removed) can never send the
 * rest: the worker appends `audience-import.fail.requested` for it, and its sending ends there. A job
 * that failed otherwise (the contacts service refused one of its chunks) is sent no more chunks.
 */
export class ImportWorker extends PolledWorker {
  constructor(private readonly options: ImportWorkerOptions) {
    super({
      concurrency: 1,
      pollMs: options.pollMs,
      logger: options.logger,
      wakeOn: {
        databaseUrl: options.databaseUrl,
        schema: options.schema,
        signal: IMPORT_WORK_SIGNAL,
      },
    });
  }

  protected async turn(): Promise<boolean> {
    await this.startQueuedJobs();
    const { sent, more } = await this.options.dataSource.transaction((manager) => this.sendChunks(manager));
    if (sent > 0) this.options.onOutboxWritten();
    return more;
  }

  private async startQueuedJobs(): Promise<void> {
    await this.options.dataSource.query(
      `INSERT INTO import_emissions (job_id, workspace_id, next_chunk, chunks)
       SELECT j.id, j.workspace_id, 0, ceil(j.rows_total::numeric / $1)::integer FROM import_jobs j
        WHERE j.status = 'queued' AND j.rows_total > 0
          AND NOT EXISTS (SELECT 1 FROM import_emissions e WHERE e.job_id = j.id)
       ON CONFLICT (job_id) DO NOTHING`,
      [IMPORT_ROWS_PER_CHUNK],
    );
  }

  /** One transaction: answers the records appended and whether more may be sent right away. */
  private async sendChunks(manager: EntityManager): Promise<{ sent: number; more: boolean }> {
    const { chunksAhead, chunksPerTurn, requestsTopic } = this.options;
    // The chunks each workspace has sent and not seen decided, over all its jobs still going (a failed
    // job's are not waited for); then the jobs with chunks to send, oldest first, of workspaces with room.
    const claimed = (await manager.query(
      `WITH going AS (
         SELECT e.job_id, e.workspace_id, e.next_chunk, e.chunks FROM import_emissions e
           JOIN import_jobs j ON j.id = e.job_id AND j.status IN ('queued', 'running')),
       ahead AS (
         SELECT g.workspace_id,
                sum(g.next_chunk - (SELECT count(*) FROM import_job_chunks c WHERE c.job_id = g.job_id))::integer AS ahead
           FROM going g GROUP BY g.workspace_id)
       SELECT e.job_id::text AS job_id, e.workspace_id::text AS workspace_id, e.next_chunk, e.chunks,
              a.ahead AS workspace_ahead, now() AS now
         FROM import_emissions e
         JOIN going g ON g.job_id = e.job_id
         JOIN ahead a ON a.workspace_id = e.workspace_id
        WHERE e.next_chunk < e.chunks AND a.ahead < $1
        ORDER BY e.job_id
        LIMIT $2
        FOR UPDATE OF e SKIP LOCKED`,
      [chunksAhead, chunksPerTurn],
    )) as ClaimedEmission[];
    let budget = chunksPerTurn;
    const records: Envelope[] = [];
    const ahead = new Map(claimed.map((emission) => [emission.workspace_id, emission.workspace_ahead]));
    for (const emission of claimed) {
      if (budget === 0) break;
      const count = Math.min(
        budget,
        chunksAhead - ahead.get(emission.workspace_id)!,
        emission.chunks - emission.next_chunk,
      );
      if (count <= 0) continue;
      const made = await this.chunksOf(manager, emission, count);
      records.push(...made.records);
      ahead.set(emission.workspace_id, ahead.get(emission.workspace_id)! + made.sent);
      budget -= made.sent;
      const next = emission.next_chunk + made.sent;
      await manager.query(
        `UPDATE import_emissions SET next_chunk = $2${made.failed ? ', chunks = $2' : ''} WHERE job_id = $1`,
        [emission.job_id, next],
      );
    }
    if (records.length === 0) return { sent: 0, more: false };
    await appendToOutbox(
      manager,
      records.map((record) => envelopeRecord(requestsTopic, record)),
    );
    return { sent: records.length, more: budget === 0 };
  }

  /**
   * The records of a job's next `count` chunks; when the upload's rows are gone, those sent before
   * and the job's fail request (`failed`).
   */
  private async chunksOf(
    manager: EntityManager,
    emission: ClaimedEmission,
    count: number,
  ): Promise<{ records: Envelope[]; sent: number; failed: boolean }> {
    const jobId = idFromDatabase(emission.job_id);
    const [job] = (await manager.query(
      `SELECT path, mapping, create_new_entities, contact_limit::text AS contact_limit, rows_total
         FROM import_jobs WHERE id = $1`,
      [jobId],
    )) as EmittedJob[];
    // A job is known before its emission row is made, and never removed.
    if (!job) throw new Error(`import job ${jobId} has an emission row but no job`);
    const [upload] = (await manager.query(
      'SELECT columns FROM import_uploads WHERE path = $1 AND workspace_id = $2',
      [job.path, emission.workspace_id],
    )) as Array<{ columns: string[] }>;
    const indexes = upload ? columnIndexes(job.mapping, upload.columns) : undefined;
    const first = chunkRows(emission.next_chunk, job.rows_total).first;
    const last = chunkRows(emission.next_chunk + count - 1, job.rows_total).last;
    const cells = new Map<number, string[]>();
    if (indexes) {
      // As JSON: the driver parses it natively, where a text[] is read character by character in script.
      const rows = (await manager.query(
        'SELECT row, array_to_json(cells) AS cells FROM import_upload_rows WHERE path = $1 AND row BETWEEN $2 AND $3',
        [job.path, first, last],
      )) as Array<{ row: number; cells: string[] }>;
      for (const { row, cells: values } of rows) cells.set(row, values);
    }
    const idBlocks = await this.idBlocksOf(manager, jobId, first, last);
    const records: Envelope[] = [];
    for (let chunk = emission.next_chunk; chunk < emission.next_chunk + count; chunk += 1) {
      const range = chunkRows(chunk, job.rows_total);
      const rows = [];
      for (let row = range.first; row <= range.last; row += 1) {
        const values = cells.get(row);
        if (!values || !indexes)
          return { records: [...records, this.failRecord(emission)], sent: records.length, failed: true };
        rows.push(importRow(row, values, indexes, idBlocks.ids, idBlocks.firstBlock));
      }
      const data: ContactImportRowsRequestedV1 = {
        job_id: jobId,
        chunk,
        create_new_entities: job.create_new_entities,
        contact_limit: idFromDatabase(job.contact_limit),
        rows,
      };
      records.push(
        createEnvelope({
          id: chunkRecordId(jobId, chunk),
          type: IMPORT_ROWS_REQUEST_TYPE,
          source: SOURCE,
          workspaceid: emission.workspace_id,
          subject: String(jobId),
          time: new Date(emission.now).toISOString(),
          data,
        }),
      );
    }
    return { records, sent: records.length, failed: false };
  }

  /**
   * The reserved id blocks rows `first` to `last` draw from, and the place of the first of them among
   * the job's blocks: a job holds up to 10,000, and a turn needs a few.
   */
  private async idBlocksOf(
    manager: EntityManager,
    jobId: number,
    first: number,
    last: number,
  ): Promise<{ ids: number[]; firstBlock: number }> {
    const firstBlock = Math.floor((first - 1) / ID_BLOCK_SIZE);
    const lastBlock = Math.floor((last - 1) / ID_BLOCK_SIZE);
    const [row] = (await manager.query(
      // Postgres arrays count from 1.
      'SELECT id_blocks[$2:$3]::text[] AS blocks FROM import_jobs WHERE id = $1',
      [jobId, firstBlock + 1, lastBlock + 1],
    )) as Array<{ blocks: string[] }>;
    return { ids: (row?.blocks ?? []).map((id) => idFromDatabase(id)), firstBlock };
  }

  private failRecord(emission: ClaimedEmission): Envelope {
    const jobId = idFromDatabase(emission.job_id);
    this.options.logger.warn(
      { job_id: jobId, workspace_id: emission.workspace_id },
      'the upload of an import job is gone before all its rows were sent; the job fails',
    );
    const data: ImportFailRequestedV1 = { job_id: jobId, reason: 'upload_unavailable' };
    return createEnvelope({
      id: deterministicId('import-job', jobId, 'fail'),
      type: SEGMENTS_REQUEST_TYPES.importFail,
      source: SOURCE,
      workspaceid: emission.workspace_id,
      subject: String(jobId),
      time: new Date(emission.now).toISOString(),
      data,
    });
  }
}
