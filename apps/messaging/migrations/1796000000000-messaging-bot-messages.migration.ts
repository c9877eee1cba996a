import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A bot's message carries its bot and conversation (extensions §12, "What bots send"); every message
 * made before came from no bot, so null is right for each of them.
 */
export class MessagingBotMessages1796000000000 implements MigrationInterface {
  name = 'MessagingBotMessages1796000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE messages ADD COLUMN bot jsonb');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE messages DROP COLUMN bot');
  }
}
