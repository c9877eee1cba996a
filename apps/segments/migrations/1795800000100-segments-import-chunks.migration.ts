import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A decided chunk keeps its record's time (a job's started and finished times are the first and last
 * of them, whatever order they were applied in) and, while its job is not known yet, its decided rows.
 */
export class SegmentsImportChunks1795800000100 implements MigrationInterface {
  name = 'SegmentsImportChunks1795800000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE import_job_chunks ADD COLUMN at timestamptz NOT NULL, ADD COLUMN pending jsonb',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE import_job_chunks DROP COLUMN pending, DROP COLUMN at');
  }
}
