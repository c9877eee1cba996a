import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The events of one message reach an endpoint in the order of their facts (extensions §9, Statuses): a
 * delivery names its subject and its fact's offset, and the worker holds it back while an earlier
 * delivery of the same subject is pending for the same endpoint. Deliveries made before have neither
 * and keep going out as they did.
 */
export class WebhookDispatchOrderedSubjects1764100000000 implements MigrationInterface {
  name = 'WebhookDispatchOrderedSubjects1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE webhook_deliveries ADD COLUMN subject text');
    await runner.query('ALTER TABLE webhook_deliveries ADD COLUMN fact_offset bigint');
    // What the claim asks of each due delivery with a subject: is an earlier one of it still pending here?
    await runner.query(
      `CREATE INDEX webhook_deliveries_subject_order ON webhook_deliveries (endpoint_id, subject, fact_offset)
        WHERE status = 'pending' AND subject IS NOT NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX webhook_deliveries_subject_order');
    await runner.query('ALTER TABLE webhook_deliveries DROP COLUMN fact_offset');
    await runner.query('ALTER TABLE webhook_deliveries DROP COLUMN subject');
  }
}
