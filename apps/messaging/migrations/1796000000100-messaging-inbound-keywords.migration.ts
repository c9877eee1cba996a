import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An inbound message keeps the keyword its text was (extensions §9: `opt_out`, `opt_in`), as its
 * decision found it, for the message.received its contact match publishes. The messages recorded
 * before were published already; a rebuild decides each of them again and fills it in.
 */
export class MessagingInboundKeywords1796000000100 implements MigrationInterface {
  name = 'MessagingInboundKeywords1796000000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE messages ADD COLUMN keyword text');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE messages DROP COLUMN keyword');
  }
}
