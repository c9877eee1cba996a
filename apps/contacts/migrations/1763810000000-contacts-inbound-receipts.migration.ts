import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The retry ids of requests that came through an integration's inbound webhook. */
export class ContactsInboundReceipts1763810000000 implements MigrationInterface {
  name = 'ContactsInboundReceipts1763810000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE inbound_receipts (
        workspace_id integer NOT NULL,
        key text NOT NULL,
        integration_id integer NOT NULL,
        event_id integer,
        contact_id integer NOT NULL,
        recorded_at timestamptz NOT NULL,
        CONSTRAINT "PK_inbound_receipts" PRIMARY KEY (workspace_id, key)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE inbound_receipts');
  }
}
