import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ContactsInit1763790000000 implements MigrationInterface {
  name = 'ContactsInit1763790000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE contacts (
        id integer NOT NULL,
        workspace_id integer NOT NULL,
        name text,
        phone text,
        email text,
        external_id text,
        source text,
        data jsonb NOT NULL,
        marketing_consent jsonb NOT NULL,
        value_times jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_contacts" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX contacts_workspace_id ON contacts (workspace_id, id)');
    await runner.query('CREATE UNIQUE INDEX contacts_workspace_phone ON contacts (workspace_id, phone)');
    await runner.query('CREATE INDEX contacts_workspace_external_id ON contacts (workspace_id, external_id)');
    await runner.query('CREATE INDEX contacts_workspace_email ON contacts (workspace_id, lower(email))');

    await runner.query(`
      CREATE TABLE contact_channels (
        contact_id integer NOT NULL,
        channel text NOT NULL,
        workspace_id integer NOT NULL,
        external_id text NOT NULL,
        linked_at timestamptz NOT NULL,
        CONSTRAINT "PK_contact_channels" PRIMARY KEY (contact_id, channel)
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX contact_channels_holder ON contact_channels (workspace_id, channel, external_id)',
    );

    await runner.query(`
      CREATE TABLE consent_changes (
        id uuid NOT NULL,
        workspace_id integer NOT NULL,
        contact_id integer NOT NULL,
        channel text NOT NULL,
        granted boolean NOT NULL,
        previous boolean,
        source text NOT NULL,
        occurred_at timestamptz NOT NULL,
        recorded_at timestamptz NOT NULL,
        CONSTRAINT "PK_consent_changes" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX consent_changes_contact ON consent_changes (contact_id, occurred_at)');

    await runner.query(`
      CREATE TABLE workspace_usage (
        workspace_id integer NOT NULL,
        contacts integer NOT NULL,
        CONSTRAINT "PK_workspace_usage" PRIMARY KEY (workspace_id)
      )`);

    await runner.query(`
      CREATE TABLE tags (
        id integer NOT NULL,
        workspace_id integer NOT NULL,
        name text NOT NULL,
        color text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_tags" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE UNIQUE INDEX tags_workspace_name ON tags (workspace_id, name)');

    await runner.query(`
      CREATE TABLE contact_tags (
        contact_id integer NOT NULL,
        tag_id integer NOT NULL,
        workspace_id integer NOT NULL,
        attached_at timestamptz NOT NULL,
        CONSTRAINT "PK_contact_tags" PRIMARY KEY (contact_id, tag_id)
      )`);
    await runner.query('CREATE INDEX contact_tags_tag ON contact_tags (tag_id)');

    await runner.query(`
      CREATE TABLE events (
        id integer NOT NULL,
        workspace_id integer NOT NULL,
        name text NOT NULL,
        contact_id integer NOT NULL,
        data jsonb NOT NULL,
        occurred_at timestamptz NOT NULL,
        received_at timestamptz NOT NULL,
        idempotency_key text,
        CONSTRAINT "PK_events" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX events_workspace_received ON events (workspace_id, received_at, id)');
    await runner.query('CREATE INDEX events_workspace_name ON events (workspace_id, name, received_at)');
    await runner.query(
      'CREATE UNIQUE INDEX events_workspace_idempotency_key ON events (workspace_id, idempotency_key)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'events',
      'contact_tags',
      'tags',
      'workspace_usage',
      'consent_changes',
      'contact_channels',
      'contacts',
    ]) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}

export const CONTACTS_MIGRATIONS = [ContactsInit1763790000000];
