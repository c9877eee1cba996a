import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Integrations and their inbound webhooks (the `integration_ids` sequence exists since the first migration). */
export class GatewayIntegrations1763810000000 implements MigrationInterface {
  name = 'GatewayIntegrations1763810000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE integrations (
        id integer NOT NULL,
        workspace_id integer NOT NULL,
        type text NOT NULL,
        name text NOT NULL,
        config jsonb NOT NULL,
        credentials_sealed text,
        signing_secret_sealed text NOT NULL,
        token_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_integrations" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX integrations_workspace ON integrations (workspace_id, id)');
    await runner.query('CREATE UNIQUE INDEX integrations_token_hash ON integrations (token_hash)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE integrations');
  }
}
