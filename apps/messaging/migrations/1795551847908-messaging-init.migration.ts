import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The messaging projection (channels, push subscriptions, templates, the contact view, messages,
 * suppressions) and its jobs (send jobs, timers).
 */
export class MessagingInit1795551847908 implements MigrationInterface {
  name = 'MessagingInit1795551847908';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE channels (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        type text NOT NULL,
        provider text NOT NULL,
        name text NOT NULL,
        status text NOT NULL,
        is_default boolean NOT NULL,
        credentials_sealed text,
        metadata jsonb NOT NULL,
        callback_token_hash text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_channels" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX channels_workspace ON channels (workspace_id, id)');
    await runner.query('CREATE UNIQUE INDEX channels_callback_token ON channels (callback_token_hash)');
    await runner.query(
      'CREATE UNIQUE INDEX channels_default_per_type ON channels (workspace_id, type) WHERE is_default',
    );
    await runner.query(`
      CREATE TABLE push_subscriptions (
        subscriber_id text NOT NULL,
        workspace_id bigint NOT NULL,
        channel_id bigint NOT NULL,
        endpoint text NOT NULL,
        p256dh text NOT NULL,
        auth text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT "PK_push_subscriptions" PRIMARY KEY (subscriber_id)
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX push_subscriptions_channel_endpoint ON push_subscriptions (channel_id, endpoint)',
    );
    await runner.query(`
      CREATE TABLE templates (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        name text NOT NULL,
        channel text NOT NULL,
        language text NOT NULL,
        body text,
        subject text,
        html text,
        provider_template jsonb,
        track_links boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_templates" PRIMARY KEY (id)
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX templates_workspace_channel_name ON templates (workspace_id, channel, name)',
    );
    await runner.query(`
      CREATE TABLE contacts (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        name text,
        phone text,
        email text,
        external_id text,
        data jsonb NOT NULL,
        marketing_consent jsonb NOT NULL,
        channels jsonb NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_contacts" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX contacts_workspace_phone ON contacts (workspace_id, phone)');
    await runner.query('CREATE INDEX contacts_workspace_email ON contacts (workspace_id, email)');
    await runner.query(`
      CREATE TABLE messages (
        id text NOT NULL,
        workspace_id bigint NOT NULL,
        direction text NOT NULL,
        status text NOT NULL,
        channel_type text NOT NULL,
        channel_id bigint NOT NULL,
        template_id bigint,
        template_name text,
        contact_id bigint,
        recipient text,
        body text,
        subject text,
        html text,
        provider_message_id text,
        workflow jsonb,
        campaign_id bigint,
        fallback_from text,
        failure jsonb,
        suppression jsonb,
        sent_at timestamptz,
        delivered_at timestamptz,
        read_at timestamptz,
        failed_at timestamptz,
        history jsonb NOT NULL,
        route jsonb,
        idempotency_key text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_messages" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX messages_workspace_created ON messages (workspace_id, created_at, id)');
    await runner.query('CREATE INDEX messages_provider_id ON messages (channel_id, provider_message_id)');
    await runner.query(
      'CREATE UNIQUE INDEX messages_idempotency ON messages (workspace_id, idempotency_key) ' +
        'WHERE idempotency_key IS NOT NULL',
    );
    await runner.query(`
      CREATE TABLE suppressions (
        id text NOT NULL,
        workspace_id bigint NOT NULL,
        channel text NOT NULL,
        address text NOT NULL,
        reason text NOT NULL,
        source text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT "PK_suppressions" PRIMARY KEY (id)
      )`);
    await runner.query(
      'CREATE UNIQUE INDEX suppressions_address ON suppressions (workspace_id, channel, address)',
    );
    await runner.query(`
      CREATE TABLE messaging_send_jobs (
        message_id text NOT NULL,
        workspace_id bigint NOT NULL,
        due_at timestamptz NOT NULL,
        state text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        first_attempt_at timestamptz,
        leased_until timestamptz,
        last_error text,
        CONSTRAINT "PK_messaging_send_jobs" PRIMARY KEY (message_id)
      )`);
    await runner.query('CREATE INDEX messaging_send_jobs_due ON messaging_send_jobs (due_at)');
    await runner.query(`
      CREATE TABLE messaging_timers (
        id text NOT NULL,
        workspace_id bigint NOT NULL,
        message_id text NOT NULL,
        kind text NOT NULL,
        payload jsonb NOT NULL,
        due_at timestamptz NOT NULL,
        leased_until timestamptz,
        CONSTRAINT "PK_messaging_timers" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX messaging_timers_due ON messaging_timers (due_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'messaging_timers',
      'messaging_send_jobs',
      'suppressions',
      'messages',
      'contacts',
      'templates',
      'push_subscriptions',
      'channels',
    ])
      await runner.query(`DROP TABLE ${table}`);
  }
}
