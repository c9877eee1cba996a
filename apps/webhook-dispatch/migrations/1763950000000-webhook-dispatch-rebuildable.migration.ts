import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Makes webhook_endpoints a projection a rebuild can empty and fill again from the log: the failure
 * count moves to a table of its own, and the deliveries (jobs a rebuild keeps) no longer reference the
 * endpoints by a foreign key.
 */
export class WebhookDispatchRebuildable1763950000000 implements MigrationInterface {
  name = 'WebhookDispatchRebuildable1763950000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE webhook_endpoint_failures (
        endpoint_id uuid NOT NULL,
        consecutive_failures integer NOT NULL,
        CONSTRAINT "PK_webhook_endpoint_failures" PRIMARY KEY (endpoint_id)
      )`);
    await runner.query(
      `INSERT INTO webhook_endpoint_failures (endpoint_id, consecutive_failures)
       SELECT id, consecutive_failures FROM webhook_endpoints WHERE consecutive_failures > 0`,
    );
    await runner.query('ALTER TABLE webhook_endpoints DROP COLUMN consecutive_failures');
    await runner.query('ALTER TABLE webhook_deliveries DROP CONSTRAINT "FK_webhook_deliveries_endpoint"');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(
      'DELETE FROM webhook_deliveries d WHERE NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id)',
    );
    await runner.query(`
      ALTER TABLE webhook_deliveries ADD CONSTRAINT "FK_webhook_deliveries_endpoint" FOREIGN KEY (endpoint_id)
        REFERENCES webhook_endpoints (id) ON DELETE CASCADE`);
    await runner.query(
      'ALTER TABLE webhook_endpoints ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0',
    );
    await runner.query(
      `UPDATE webhook_endpoints e SET consecutive_failures = f.consecutive_failures
         FROM webhook_endpoint_failures f WHERE f.endpoint_id = e.id`,
    );
    await runner.query('DROP TABLE webhook_endpoint_failures');
  }
}
