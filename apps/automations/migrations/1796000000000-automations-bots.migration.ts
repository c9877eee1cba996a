import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Bots, their conversations and conversation ids; the jobs of their timers, model calls and audience walks. */
export class AutomationsBots1796000000000 implements MigrationInterface {
  name = 'AutomationsBots1796000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE bots (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        name text NOT NULL,
        description text,
        mode text NOT NULL,
        trigger_type text NOT NULL,
        trigger_value text,
        target_group_id bigint,
        ai_instructions text,
        ai_temperature double precision,
        ai_max_tokens integer,
        flow_definition jsonb,
        settings jsonb NOT NULL,
        enabled boolean NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_bots" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX bots_workspace ON bots (workspace_id, id)');
    await runner.query(`
      CREATE TABLE bot_conversations (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        bot_id bigint NOT NULL,
        contact_id bigint NOT NULL,
        channel_id bigint NOT NULL,
        status text NOT NULL,
        end_reason text,
        current_step text,
        messages jsonb NOT NULL,
        started_at timestamptz NOT NULL,
        ended_at timestamptz,
        last_activity_at timestamptz NOT NULL,
        failed_answers integer NOT NULL,
        answer text,
        data jsonb NOT NULL,
        awaiting jsonb NOT NULL,
        sent integer NOT NULL,
        CONSTRAINT "PK_bot_conversations" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX bot_conversations_bot ON bot_conversations (bot_id, id)');
    await runner.query(
      'CREATE INDEX bot_conversations_contact_channel ON bot_conversations (contact_id, channel_id, status)',
    );
    await runner.query(`
      CREATE TABLE bot_conversation_counters (
        partition integer NOT NULL,
        next integer NOT NULL,
        CONSTRAINT "PK_bot_conversation_counters" PRIMARY KEY (partition)
      )`);
    await runner.query(`
      CREATE TABLE bot_timers (
        id text NOT NULL,
        workspace_id bigint NOT NULL,
        kind text NOT NULL,
        conversation_id bigint,
        bot_id bigint,
        due_at timestamptz NOT NULL,
        CONSTRAINT "PK_bot_timers" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX bot_timers_due ON bot_timers (due_at)');
    await runner.query(`
      CREATE TABLE bot_model_calls (
        inbound_message_id text NOT NULL,
        workspace_id bigint NOT NULL,
        conversation_id bigint NOT NULL,
        created_at timestamptz NOT NULL,
        leased_until timestamptz,
        CONSTRAINT "PK_bot_model_calls" PRIMARY KEY (inbound_message_id)
      )`);
    await runner.query(
      'CREATE INDEX bot_model_calls_workspace ON bot_model_calls (workspace_id, created_at)',
    );
    await runner.query(`
      CREATE TABLE bot_audience_walks (
        tick_id text NOT NULL,
        workspace_id bigint NOT NULL,
        bot_id bigint NOT NULL,
        audience_id bigint NOT NULL,
        contact_id bigint,
        after_contact_id bigint NOT NULL,
        pages integer NOT NULL,
        CONSTRAINT "PK_bot_audience_walks" PRIMARY KEY (tick_id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'bot_audience_walks',
      'bot_model_calls',
      'bot_timers',
      'bot_conversation_counters',
      'bot_conversations',
      'bots',
    ])
      await runner.query(`DROP TABLE ${table}`);
  }
}
