import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The workflows and every version of each (runs finish on the version they started with). */
export class AutomationsInit1795838825093 implements MigrationInterface {
  name = 'AutomationsInit1795838825093';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE workflows (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        name text NOT NULL,
        enabled boolean NOT NULL,
        version integer NOT NULL,
        trigger jsonb NOT NULL,
        steps jsonb NOT NULL,
        goal jsonb,
        re_entry text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_workflows" PRIMARY KEY (id)
      )`);
    await runner.query(
      'CREATE INDEX workflows_workspace_created ON workflows (workspace_id, created_at, id)',
    );
    await runner.query(`
      CREATE TABLE workflow_versions (
        workflow_id bigint NOT NULL,
        version integer NOT NULL,
        workspace_id bigint NOT NULL,
        name text NOT NULL,
        trigger jsonb NOT NULL,
        steps jsonb NOT NULL,
        goal jsonb,
        re_entry text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT "PK_workflow_versions" PRIMARY KEY (workflow_id, version)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE workflow_versions');
    await runner.query('DROP TABLE workflows');
  }
}
