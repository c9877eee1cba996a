import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Send jobs of a notification send's messages (`bulk`) are claimed after every other job that is due
 * (extensions §13: one send of a million messages does not hold back another workspace's messages or
 * transactional ones). Every job made before came from no send.
 */
export class MessagingBulkLane1795900000100 implements MigrationInterface {
  name = 'MessagingBulkLane1795900000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE messaging_send_jobs ADD COLUMN bulk boolean NOT NULL DEFAULT false');
    await runner.query('CREATE INDEX messaging_send_jobs_lane ON messaging_send_jobs (bulk, due_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX messaging_send_jobs_lane');
    await runner.query('ALTER TABLE messaging_send_jobs DROP COLUMN bulk');
  }
}
