import type { MigrationInterface, QueryRunner } from 'typeorm';

import { ID_BLOCK_SIZE, ID_KINDS } from '../src/ids/id-kinds';

export class GatewayInit1763780000000 implements MigrationInterface {
  name = 'GatewayInit1763780000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE workspaces (
        id integer NOT NULL,
        name text NOT NULL,
        plan text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_workspaces" PRIMARY KEY (id)
      )`);
    await runner.query(`
      CREATE TABLE api_keys (
        id integer NOT NULL,
        workspace_id integer NOT NULL,
        name text NOT NULL,
        permissions text[] NOT NULL,
        key_hash text NOT NULL,
        key_prefix text NOT NULL,
        created_at timestamptz NOT NULL,
        deleted_at timestamptz,
        CONSTRAINT "PK_api_keys" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX api_keys_workspace ON api_keys (workspace_id)');
    await runner.query('CREATE UNIQUE INDEX api_keys_key_hash ON api_keys (key_hash)');
    for (const kind of ID_KINDS) {
      // Each nextval reserves a block of ids for one gateway replica.
      await runner.query(`CREATE SEQUENCE ${kind}_ids INCREMENT BY ${ID_BLOCK_SIZE} START WITH 1 MINVALUE 1`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const kind of ID_KINDS) await runner.query(`DROP SEQUENCE ${kind}_ids`);
    await runner.query('DROP TABLE api_keys');
    await runner.query('DROP TABLE workspaces');
  }
}
