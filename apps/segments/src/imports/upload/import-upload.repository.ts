import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { MoreThan, type DataSource, type EntityManager, type QueryDeepPartialEntity } from 'typeorm';

import type { UploadShareLimits } from '../../config';
import { ImportUploadEntity } from './import-upload.entity';
import { ImportUploadException } from './import-upload.exception';
import { readUploadCsv, type UploadCsvLimits } from './upload-csv';

/** An upload's opaque reference: `upl_` and 32 random hex digits (IMPORT_PATH_PATTERN). */
export function newUploadPath(): string {
  return `upl_${randomBytes(16).toString('hex')}`;
}

/** The uploads and their rows (import_uploads, import_upload_rows). */
export class ImportUploadRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Reads the file from `source` and stores it under a new path, valid for `ttlMs`: its rows go to
   * Postgres through COPY as they are parsed, and the upload's own row is written after the last of
   * them, in the same transaction. A refused file, a client that went away or a crash leave nothing.
   */
  async store(
    workspaceId: number,
    source: Readable,
    limits: UploadCsvLimits,
    ttlMs: number,
    share?: Pick<UploadShareLimits, 'perWorkspace' | 'quotaBytes'>,
  ): Promise<ImportUploadEntity> {
    const path = newUploadPath();
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    try {
      await runner.startTransaction();
      try {
        if (share) await this.takeShare(runner.manager, workspaceId, share);
        const rows = client.query(copyFrom('COPY import_upload_rows (path, "row", cells) FROM STDIN'));
        const summary = await readUploadCsv(source, rows, path, limits);
        const createdAt = new Date();
        const upload: ImportUploadEntity = {
          path,
          workspaceId,
          columns: summary.columns,
          delimiter: summary.delimiter,
          rowCount: summary.rowCount,
          sampleRows: summary.sampleRows,
          bytes: summary.bytes,
          createdAt,
          expiresAt: new Date(createdAt.getTime() + ttlMs),
        };
        await runner.manager
          .getRepository(ImportUploadEntity)
          .insert(upload as QueryDeepPartialEntity<ImportUploadEntity>);
        await runner.commitTransaction();
        return upload;
      } catch (error) {
        // The file's own fault is what the client hears, even when the connection broke with it.
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * Before a file is read, in its upload's transaction: one of the workspace's `perWorkspace` places
   * for an upload in progress (a transaction-scoped advisory lock named after the schema, so every
   * replica counts the same places and a crash frees its own), and room under its quota of bytes in
   * uploads not expired yet. Refuses with 429 otherwise, having read nothing of the file.
   */
  private async takeShare(
    manager: EntityManager,
    workspaceId: number,
    share: Pick<UploadShareLimits, 'perWorkspace' | 'quotaBytes'>,
  ): Promise<void> {
    const [place] = (await manager.query(
      `SELECT slot FROM generate_series(0, $2 - 1) AS slot
        WHERE pg_try_advisory_xact_lock(hashtextextended(current_schema() || ':import-upload:' || $1 || ':' || slot, 0))
        LIMIT 1`,
      [String(workspaceId), share.perWorkspace],
    )) as Array<{ slot: number }>;
    if (place === undefined) throw ImportUploadException.workspaceBusy(share.perWorkspace);
    const [held] = (await manager.query(
      `SELECT coalesce(sum(bytes), 0)::text AS bytes, min(expires_at) AS first_expiry, now() AS now
         FROM import_uploads WHERE workspace_id = $1 AND expires_at > now()`,
      [workspaceId],
    )) as Array<{ bytes: string; first_expiry: Date | null; now: Date }>;
    if (held && Number(held.bytes) >= share.quotaBytes) {
      const wait = held.first_expiry ? (held.first_expiry.getTime() - held.now.getTime()) / 1000 : 1;
      throw ImportUploadException.quotaReached(share.quotaBytes, wait);
    }
  }

  /** The upload, while it has not expired and only in its own workspace. */
  findLive(workspaceId: number, path: string, now: Date): Promise<ImportUploadEntity | null> {
    return this.dataSource
      .getRepository(ImportUploadEntity)
      .findOneBy({ path, workspaceId, expiresAt: MoreThan(now) });
  }

  /**
   * Removes up to `batchSize` rows of one expired upload, and the upload itself with its last rows, in
   * one transaction; answers whether there may be more to remove. An upload that a queued or running
   * import job still reads is kept until the job is done. Uploads another process is removing at the
   * same time are skipped.
   */
  async removeExpired(batchSize: number): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const expired = (await manager.query(
        `SELECT u.path FROM import_uploads u
          WHERE u.expires_at <= now()
            AND NOT EXISTS (
              SELECT 1 FROM import_jobs j WHERE j.path = u.path AND j.status IN ('queued', 'running')
            )
          ORDER BY u.expires_at
          LIMIT 1
          FOR UPDATE OF u SKIP LOCKED`,
      )) as Array<{ path: string }>;
      const path = expired[0]?.path;
      if (path === undefined) return false;
      const [, removed] = (await manager.query(
        `DELETE FROM import_upload_rows
          WHERE path = $1
            AND "row" IN (SELECT "row" FROM import_upload_rows WHERE path = $1 ORDER BY "row" LIMIT $2)`,
        [path, batchSize],
      )) as [unknown, number];
      if (removed < batchSize) await manager.query('DELETE FROM import_uploads WHERE path = $1', [path]);
      return true;
    });
  }
}
