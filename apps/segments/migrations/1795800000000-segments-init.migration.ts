import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The segments service's tables: its audiences and their imported members, its own view of contacts
 * (with their events and the addresses messaging suppressed), the per-workspace revision that orders
 * every change of that view, and imports (uploads, jobs, the chunks decided, the worker's progress).
 */
export class SegmentsInit1795800000000 implements MigrationInterface {
  name = 'SegmentsInit1795800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE audiences (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        name text NOT NULL,
        source text NOT NULL,
        filter_criteria jsonb NOT NULL,
        include_contact_ids bigint[] NOT NULL,
        exclude_contact_ids bigint[] NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_audiences" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE UNIQUE INDEX audiences_workspace_name ON audiences (workspace_id, name)');
    await runner.query(`
      CREATE TABLE audience_members (
        audience_id bigint NOT NULL,
        contact_id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        CONSTRAINT "PK_audience_members" PRIMARY KEY (audience_id, contact_id)
      )`);
    await runner.query(`
      CREATE TABLE contacts (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        name text,
        phone text,
        email text,
        external_id text,
        source text,
        data jsonb NOT NULL,
        marketing_consent jsonb NOT NULL,
        channels jsonb NOT NULL,
        tag_ids bigint[] NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        revision bigint NOT NULL,
        CONSTRAINT "PK_contacts" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX contacts_workspace_revision ON contacts (workspace_id, revision)');
    await runner.query(`
      CREATE TABLE contact_events (
        event_id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        contact_id bigint NOT NULL,
        name text NOT NULL,
        occurred_at timestamptz NOT NULL,
        revision bigint NOT NULL,
        CONSTRAINT "PK_contact_events" PRIMARY KEY (event_id)
      )`);
    await runner.query(
      'CREATE INDEX contact_events_workspace_revision ON contact_events (workspace_id, revision)',
    );
    await runner.query(`
      CREATE TABLE suppressions (
        id text NOT NULL,
        workspace_id bigint NOT NULL,
        channel text NOT NULL,
        address text NOT NULL,
        active boolean NOT NULL,
        revision bigint NOT NULL,
        CONSTRAINT "PK_suppressions" PRIMARY KEY (id)
      )`);
    await runner.query(
      'CREATE INDEX suppressions_workspace_revision ON suppressions (workspace_id, revision)',
    );
    await runner.query(`
      CREATE TABLE tags (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        name text NOT NULL,
        color text,
        CONSTRAINT "PK_tags" PRIMARY KEY (id)
      )`);
    await runner.query(`
      CREATE TABLE workspace_revisions (
        workspace_id bigint NOT NULL,
        contacts_revision bigint NOT NULL,
        suppressions_revision bigint NOT NULL,
        CONSTRAINT "PK_workspace_revisions" PRIMARY KEY (workspace_id)
      )`);
    await runner.query(`
      CREATE TABLE import_jobs (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        audience_id bigint NOT NULL,
        path text NOT NULL,
        mapping jsonb NOT NULL,
        create_new_entities boolean NOT NULL,
        contact_limit bigint NOT NULL,
        id_blocks bigint[] NOT NULL,
        status text NOT NULL,
        rows_total integer NOT NULL,
        rows_processed integer NOT NULL,
        contacts_created integer NOT NULL,
        contacts_matched integer NOT NULL,
        rows_skipped integer NOT NULL,
        errors jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        started_at timestamptz,
        finished_at timestamptz,
        CONSTRAINT "PK_import_jobs" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX import_jobs_workspace ON import_jobs (workspace_id, id)');
    await runner.query(`
      CREATE TABLE import_job_chunks (
        job_id bigint NOT NULL,
        chunk integer NOT NULL,
        CONSTRAINT "PK_import_job_chunks" PRIMARY KEY (job_id, chunk)
      )`);
    // Uploads (not from the log: a rebuild keeps them), their rows, and the import worker's progress.
    await runner.query(`
      CREATE TABLE import_uploads (
        path text NOT NULL,
        workspace_id bigint NOT NULL,
        columns text[] NOT NULL,
        delimiter text NOT NULL,
        row_count integer NOT NULL,
        sample_rows jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        CONSTRAINT "PK_import_uploads" PRIMARY KEY (path)
      )`);
    await runner.query('CREATE INDEX import_uploads_expires ON import_uploads (expires_at)');
    await runner.query(`
      CREATE TABLE import_upload_rows (
        path text NOT NULL,
        row integer NOT NULL,
        cells text[] NOT NULL,
        CONSTRAINT "PK_import_upload_rows" PRIMARY KEY (path, row)
      )`);
    await runner.query(`
      CREATE TABLE import_emissions (
        job_id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        next_chunk integer NOT NULL,
        chunks integer NOT NULL,
        leased_until timestamptz,
        CONSTRAINT "PK_import_emissions" PRIMARY KEY (job_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'import_emissions',
      'import_upload_rows',
      'import_uploads',
      'import_job_chunks',
      'import_jobs',
      'workspace_revisions',
      'tags',
      'suppressions',
      'contact_events',
      'contacts',
      'audience_members',
      'audiences',
    ]) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
