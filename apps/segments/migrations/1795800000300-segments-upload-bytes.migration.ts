import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An upload keeps the size of its file: a workspace's uploads not expired yet are held to a quota of
 * bytes (IMPORT_UPLOAD_QUOTA_BYTES). Uploads made before count as 0 until they expire (24 hours).
 */
export class SegmentsUploadBytes1795800000300 implements MigrationInterface {
  name = 'SegmentsUploadBytes1795800000300';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE import_uploads ADD COLUMN bytes bigint NOT NULL DEFAULT 0');
    await runner.query(
      'CREATE INDEX import_uploads_workspace_expires ON import_uploads (workspace_id, expires_at)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX import_uploads_workspace_expires');
    await runner.query('ALTER TABLE import_uploads DROP COLUMN bytes');
  }
}
