import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Tracked links of messages (extensions §10) and their click counts. */
export class MessagingLinks1795700000000 implements MigrationInterface {
  name = 'MessagingLinks1795700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE message_links (
        message_id text NOT NULL,
        link_index integer NOT NULL,
        workspace_id bigint NOT NULL,
        token_hash text NOT NULL,
        url text NOT NULL,
        clicks integer NOT NULL,
        bot_clicks integer NOT NULL,
        first_clicked_at timestamptz,
        last_clicked_at timestamptz,
        created_at timestamptz NOT NULL,
        CONSTRAINT "PK_message_links" PRIMARY KEY (message_id, link_index)
      )`);
    await runner.query('CREATE UNIQUE INDEX message_links_token ON message_links (token_hash)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE message_links');
  }
}
