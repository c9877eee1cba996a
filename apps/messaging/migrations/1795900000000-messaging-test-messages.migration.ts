import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A message made by a notification's test send is marked `test` (extensions §13). Every message made
 * before came from no test send, so false is right for each of them.
 */
export class MessagingTestMessages1795900000000 implements MigrationInterface {
  name = 'MessagingTestMessages1795900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE messages ADD COLUMN test boolean NOT NULL DEFAULT false');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE messages DROP COLUMN test');
  }
}
