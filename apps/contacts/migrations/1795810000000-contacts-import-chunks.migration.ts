import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The chunks of import jobs decided (extensions §11): a chunk the log holds twice is decided once.
 * Written by the decision, so a rebuild from the log makes the same rows.
 */
export class ContactsImportChunks1795810000000 implements MigrationInterface {
  name = 'ContactsImportChunks1795810000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE import_chunks (
        workspace_id bigint NOT NULL,
        job_id bigint NOT NULL,
        chunk integer NOT NULL,
        rows integer NOT NULL,
        decided_at timestamptz NOT NULL,
        CONSTRAINT "PK_import_chunks" PRIMARY KEY (workspace_id, job_id, chunk)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE import_chunks');
  }
}
