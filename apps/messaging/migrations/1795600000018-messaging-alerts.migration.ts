import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Delivery monitoring: alert rules, the workspaces' rule ids, alerts, and per-minute outcome counts. */
export class MessagingAlerts1795600000018 implements MigrationInterface {
  name = 'MessagingAlerts1795600000018';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE alert_rules (
        workspace_id bigint NOT NULL,
        id bigint NOT NULL,
        name text NOT NULL,
        metric text NOT NULL,
        comparator text NOT NULL,
        threshold double precision NOT NULL,
        window_minutes integer NOT NULL,
        min_volume integer NOT NULL,
        scope jsonb NOT NULL,
        enabled boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_alert_rules" PRIMARY KEY (workspace_id, id)
      )`);
    await runner.query(`
      CREATE TABLE alert_workspaces (
        workspace_id bigint NOT NULL,
        next_rule_id bigint NOT NULL,
        CONSTRAINT "PK_alert_workspaces" PRIMARY KEY (workspace_id)
      )`);
    await runner.query(`
      CREATE TABLE alerts (
        id text NOT NULL,
        workspace_id bigint NOT NULL,
        rule_id bigint NOT NULL,
        status text NOT NULL,
        metric text NOT NULL,
        comparator text NOT NULL,
        value double precision NOT NULL,
        threshold double precision NOT NULL,
        window_minutes integer NOT NULL,
        sample_size integer NOT NULL,
        scope jsonb NOT NULL,
        top_failure_codes jsonb NOT NULL,
        started_at timestamptz NOT NULL,
        resolved_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_alerts" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX alerts_workspace_started ON alerts (workspace_id, started_at, id)');
    await runner.query(
      `CREATE UNIQUE INDEX alerts_firing_per_rule ON alerts (workspace_id, rule_id) WHERE status = 'firing'`,
    );
    await runner.query(`
      CREATE TABLE alert_outcome_buckets (
        workspace_id bigint NOT NULL,
        minute timestamptz NOT NULL,
        channel_id bigint NOT NULL,
        workflow_id bigint NOT NULL,
        campaign_id bigint NOT NULL,
        delivered integer NOT NULL,
        failed integer NOT NULL,
        suppressed integer NOT NULL,
        failure_codes jsonb NOT NULL,
        CONSTRAINT "PK_alert_outcome_buckets" PRIMARY KEY (workspace_id, minute, channel_id, workflow_id, campaign_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE alert_outcome_buckets');
    await runner.query('DROP TABLE alerts');
    await runner.query('DROP TABLE alert_workspaces');
    await runner.query('DROP TABLE alert_rules');
  }
}
