import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Runs, their messages and the events they read, outcomes, run ids, timers, and the view of contacts. */
export class AutomationsRuns1795900000000 implements MigrationInterface {
  name = 'AutomationsRuns1795900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE workflow_runs (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        workflow_id bigint NOT NULL,
        version integer NOT NULL,
        contact_id bigint NOT NULL,
        status text NOT NULL,
        current_step text,
        trigger_event_id bigint NOT NULL,
        trigger_event jsonb NOT NULL,
        waited_event jsonb,
        started_at timestamptz NOT NULL,
        ended_at timestamptz,
        history jsonb NOT NULL,
        waiting_for jsonb,
        goal_deadline timestamptz,
        CONSTRAINT "PK_workflow_runs" PRIMARY KEY (id)
      )`);
    await runner.query(
      'CREATE INDEX workflow_runs_workflow_started ON workflow_runs (workflow_id, started_at, id)',
    );
    await runner.query(
      'CREATE INDEX workflow_runs_contact_workflow ON workflow_runs (contact_id, workflow_id)',
    );
    await runner.query(
      'CREATE UNIQUE INDEX workflow_runs_trigger ON workflow_runs (workflow_id, trigger_event_id)',
    );
    await runner.query(`
      CREATE TABLE run_messages (
        message_id text NOT NULL,
        run_id bigint NOT NULL,
        step text NOT NULL,
        made_at timestamptz NOT NULL,
        status text NOT NULL,
        clicked boolean NOT NULL,
        channel text,
        CONSTRAINT "PK_run_messages" PRIMARY KEY (message_id)
      )`);
    await runner.query('CREATE INDEX run_messages_run ON run_messages (run_id)');
    await runner.query(`
      CREATE TABLE run_contact_events (
        event_id bigint NOT NULL,
        contact_id bigint NOT NULL,
        name text NOT NULL,
        occurred_at timestamptz NOT NULL,
        CONSTRAINT "PK_run_contact_events" PRIMARY KEY (event_id)
      )`);
    await runner.query(
      'CREATE INDEX run_contact_events_contact_name ON run_contact_events (contact_id, name)',
    );
    await runner.query(`
      CREATE TABLE run_id_counters (
        partition integer NOT NULL,
        next bigint NOT NULL,
        CONSTRAINT "PK_run_id_counters" PRIMARY KEY (partition)
      )`);
    await runner.query(`
      CREATE TABLE outcomes (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        workflow_id bigint NOT NULL,
        contact_id bigint NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT "PK_outcomes" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX outcomes_workspace_created ON outcomes (workspace_id, created_at, id)');
    await runner.query(`
      CREATE TABLE run_timers (
        id text NOT NULL,
        workspace_id bigint NOT NULL,
        run_id bigint NOT NULL,
        contact_id bigint NOT NULL,
        due_at timestamptz NOT NULL,
        CONSTRAINT "PK_run_timers" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX run_timers_due ON run_timers (due_at)');
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
        CONSTRAINT "PK_contacts" PRIMARY KEY (id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'contacts',
      'run_timers',
      'outcomes',
      'run_id_counters',
      'run_contact_events',
      'run_messages',
      'workflow_runs',
    ]) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
