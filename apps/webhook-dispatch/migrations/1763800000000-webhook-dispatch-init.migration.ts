import type { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookDispatchInit1763800000000 implements MigrationInterface {
  name = 'WebhookDispatchInit1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE webhook_endpoints (
        id uuid NOT NULL,
        workspace_id integer NOT NULL,
        url text NOT NULL,
        description text,
        event_types text[] NOT NULL,
        enabled boolean NOT NULL,
        disabled_reason text,
        consecutive_failures integer NOT NULL DEFAULT 0,
        secret_sealed text NOT NULL,
        previous_secret_sealed text,
        previous_secret_expires_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_webhook_endpoints" PRIMARY KEY (id)
      )`);
    await runner.query(
      'CREATE INDEX webhook_endpoints_workspace ON webhook_endpoints (workspace_id, created_at)',
    );

    await runner.query(`
      CREATE TABLE webhook_deliveries (
        id uuid NOT NULL,
        endpoint_id uuid NOT NULL,
        workspace_id integer NOT NULL,
        event_type text NOT NULL,
        body text NOT NULL,
        counts_toward_switch_off boolean NOT NULL,
        status text NOT NULL,
        attempt_count integer NOT NULL DEFAULT 0,
        round_start integer NOT NULL DEFAULT 0,
        attempt_open boolean NOT NULL DEFAULT false,
        next_attempt_at timestamptz,
        leased_until timestamptz,
        lease_token uuid,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_webhook_deliveries" PRIMARY KEY (id),
        CONSTRAINT "FK_webhook_deliveries_endpoint" FOREIGN KEY (endpoint_id)
          REFERENCES webhook_endpoints (id) ON DELETE CASCADE
      )`);
    await runner.query(
      'CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at, id)',
    );
    // What the worker scans: the due deliveries of one endpoint, oldest first.
    await runner.query(
      `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'pending'`,
    );

    await runner.query(`
      CREATE TABLE webhook_attempts (
        delivery_id uuid NOT NULL,
        attempt integer NOT NULL,
        at timestamptz NOT NULL,
        response_status integer,
        response_body text,
        duration_ms integer,
        error text,
        CONSTRAINT "PK_webhook_attempts" PRIMARY KEY (delivery_id, attempt),
        CONSTRAINT "FK_webhook_attempts_delivery" FOREIGN KEY (delivery_id)
          REFERENCES webhook_deliveries (id) ON DELETE CASCADE
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE webhook_attempts');
    await runner.query('DROP TABLE webhook_deliveries');
    await runner.query('DROP TABLE webhook_endpoints');
  }
}

export const WEBHOOK_DISPATCH_MIGRATIONS = [WebhookDispatchInit1763800000000];
