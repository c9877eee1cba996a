import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The channels, each name once per workspace. */
export class MessagingInit1795551847908 implements MigrationInterface {
  name = 'MessagingInit1795551847908';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE channels (
        id uuid NOT NULL,
        workspace_id bigint NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT "PK_channels" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE UNIQUE INDEX channels_workspace_name ON channels (workspace_id, name)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE channels');
  }
}
