import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Provider statuses held for the attempt that names their message (a callback decided before it). */
export class MessagingEarlyStatuses1795600000000 implements MigrationInterface {
  name = 'MessagingEarlyStatuses1795600000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE early_statuses (
        channel_id bigint NOT NULL,
        provider_message_id text NOT NULL,
        status text NOT NULL,
        workspace_id bigint NOT NULL,
        at text NOT NULL,
        failure jsonb,
        CONSTRAINT "PK_early_statuses" PRIMARY KEY (channel_id, provider_message_id, status)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE early_statuses');
  }
}
