import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A chunk the contacts service refused (contact.import-rows.refused) is recorded with its reason. */
export class SegmentsRefusedChunks1795800000200 implements MigrationInterface {
  name = 'SegmentsRefusedChunks1795800000200';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE import_job_chunks ADD COLUMN refused text');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE import_job_chunks DROP COLUMN refused');
  }
}
