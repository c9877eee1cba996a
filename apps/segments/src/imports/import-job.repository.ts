import type { ImportJobStatus, ImportRowDecisionV1 } from '@cms/contracts';
import type { SqlWindow } from '@cms/http';
import { signalOnCommit } from '@cms/service-kit';
import { In, type EntityManager, type QueryDeepPartialEntity, type Repository } from 'typeorm';

import { ImportJobEntity } from './import-job.entity';
import { IMPORT_WORK_SIGNAL } from './import-work-signal';
import type { DecidedChunk } from './import-progress';

/** Import jobs, their decided chunks and the members they add, through one EntityManager. */
export class ImportJobRepository {
  private readonly jobs: Repository<ImportJobEntity>;

  constructor(private readonly manager: EntityManager) {
    this.jobs = manager.getRepository(ImportJobEntity);
  }

  /**
   * Orders, until the transaction ends, everything done about one job: its request (which may find
   * chunks decided before it, in a rebuild) and its decided chunks (which may find no job yet), so
   * neither misses the other.
   */
  async lock(jobId: number): Promise<void> {
    await this.manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('import_job:' || $1, 0))`, [
      String(jobId),
    ]);
  }

  exists(id: number): Promise<boolean> {
    return this.jobs.existsBy({ id });
  }

  /** The job, its row locked for the rest of the transaction. */
  findForUpdate(id: number): Promise<ImportJobEntity | null> {
    return this.jobs.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  findInWorkspace(workspaceId: number, id: number): Promise<ImportJobEntity | null> {
    return this.jobs.findOneBy({ id, workspaceId });
  }

  /** A new job; the import worker is woken as the transaction commits. */
  async insert(job: ImportJobEntity): Promise<void> {
    await this.jobs.insert(job as QueryDeepPartialEntity<ImportJobEntity>);
    await signalOnCommit(this.manager, IMPORT_WORK_SIGNAL);
  }

  /** Stores what decided chunks and the job's end change. */
  async saveProgress(job: ImportJobEntity): Promise<void> {
    await this.jobs.update({ id: job.id }, {
      status: job.status,
      rowsProcessed: job.rowsProcessed,
      contactsCreated: job.contactsCreated,
      contactsMatched: job.contactsMatched,
      rowsSkipped: job.rowsSkipped,
      errors: job.errors,
      startedAt: job.startedAt,
      finishedAt: job.finishedAt,
    } as QueryDeepPartialEntity<ImportJobEntity>);
  }

  /**
   * Records a decided (or refused) chunk once: false when it was recorded before (the same decision
   * read again). With `pending`, its rows are kept until its job is known (a refused chunk's are none).
   */
  async insertChunk(jobId: number, decided: DecidedChunk, pending: boolean): Promise<boolean> {
    const inserted: unknown[] = await this.manager.query(
      `INSERT INTO import_job_chunks (job_id, chunk, at, pending, refused) VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT (job_id, chunk) DO NOTHING RETURNING chunk`,
      [
        jobId,
        decided.chunk,
        decided.at,
        pending ? JSON.stringify(decided.rows) : null,
        decided.refused ?? null,
      ],
    );
    return inserted.length > 0;
  }

  /** The chunks decided before their job was known, in chunk order; they are taken (emptied). */
  async takePending(jobId: number): Promise<DecidedChunk[]> {
    const rows: Array<{ chunk: number; at: Date; pending: ImportRowDecisionV1[]; refused: string | null }> =
      await this.manager.query(
        `SELECT chunk, at, pending, refused FROM import_job_chunks WHERE job_id = $1 AND pending IS NOT NULL
          ORDER BY chunk FOR UPDATE`,
        [jobId],
      );
    if (rows.length === 0) return [];
    await this.manager.query(
      'UPDATE import_job_chunks SET pending = NULL WHERE job_id = $1 AND pending IS NOT NULL',
      [jobId],
    );
    return rows.map((row) => ({
      chunk: row.chunk,
      at: new Date(row.at),
      rows: row.pending,
      refused: row.refused,
    }));
  }

  /** When the job's latest decided chunk was decided. */
  async lastChunkAt(jobId: number): Promise<Date | null> {
    return (await this.lastChunkTimes([jobId])).get(jobId) ?? null;
  }

  /** When each job's latest decided chunk was decided; jobs without one are absent. */
  async lastChunkTimes(jobIds: readonly number[]): Promise<Map<number, Date>> {
    if (jobIds.length === 0) return new Map();
    const rows = (await this.manager.query(
      `SELECT job_id::text AS job_id, max(at) AS at FROM import_job_chunks
        WHERE job_id = ANY($1::bigint[]) GROUP BY job_id`,
      [jobIds],
    )) as Array<{ job_id: string; at: Date }>;
    return new Map(rows.map((row) => [Number(row.job_id), new Date(row.at)]));
  }

  /** The audience's imported members; a contact already in it stays once. */
  async addMembers(audienceId: number, workspaceId: number, contactIds: readonly number[]): Promise<void> {
    if (contactIds.length === 0) return;
    await this.manager.query(
      `INSERT INTO audience_members (audience_id, contact_id, workspace_id)
       SELECT $1, c, $3 FROM unnest($2::bigint[]) AS c ON CONFLICT DO NOTHING`,
      [audienceId, [...new Set(contactIds)], workspaceId],
    );
  }

  /** A page of jobs, oldest first: of one workspace, or of every one (the operator's view). */
  async list(
    workspaceId: number | undefined,
    statuses: readonly ImportJobStatus[] | undefined,
    window: SqlWindow,
  ): Promise<{ rows: ImportJobEntity[]; total: number }> {
    const [rows, total] = await this.jobs.findAndCount({
      where: {
        ...(workspaceId !== undefined ? { workspaceId } : {}),
        ...(statuses !== undefined ? { status: In([...statuses]) } : {}),
      },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: window.offset,
      take: window.limit,
    });
    return { rows, total };
  }
}
