import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Notifications, their sends with members and messages, and the jobs that schedule and make them. */
export class BroadcastsInit1795870270861 implements MigrationInterface {
  name = 'BroadcastsInit1795870270861';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE notifications (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        name text NOT NULL,
        template_id bigint NOT NULL,
        template_name text NOT NULL,
        template_channel text NOT NULL,
        target_group_id bigint NOT NULL,
        target_group_name text NOT NULL,
        variables jsonb NOT NULL,
        route jsonb,
        schedule text,
        schedule_timezone text NOT NULL,
        next_run_at timestamptz,
        enabled boolean NOT NULL,
        purpose text NOT NULL,
        throttle_per_minute integer,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_notifications" PRIMARY KEY (id)
      )`);
    await runner.query(
      'CREATE INDEX notifications_workspace_created ON notifications (workspace_id, created_at, id)',
    );
    await runner.query('CREATE INDEX notifications_template ON notifications (workspace_id, template_id)');
    await runner.query(
      'CREATE INDEX notifications_audience ON notifications (workspace_id, target_group_id)',
    );
    await runner.query(`
      CREATE TABLE schedule_timers (
        id text NOT NULL,
        workspace_id bigint NOT NULL,
        notification_id bigint NOT NULL,
        schedule text NOT NULL,
        due_at timestamptz NOT NULL,
        CONSTRAINT "PK_schedule_timers" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX schedule_timers_due ON schedule_timers (due_at)');
    await runner.query(`
      CREATE TABLE sends (
        id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        notification_id bigint NOT NULL,
        status text NOT NULL,
        test_mode boolean NOT NULL,
        audience_id bigint,
        audience_size integer,
        deduplicated integer NOT NULL,
        route jsonb NOT NULL,
        variables jsonb NOT NULL,
        purpose text NOT NULL,
        throttle_per_minute integer,
        started_at timestamptz NOT NULL,
        finished_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_sends" PRIMARY KEY (id)
      )`);
    await runner.query('CREATE INDEX sends_notification_created ON sends (notification_id, created_at, id)');
    await runner.query(`
      CREATE TABLE send_counts (
        send_id bigint NOT NULL,
        made integer NOT NULL,
        queued integer NOT NULL,
        sent integer NOT NULL,
        delivered integer NOT NULL,
        read integer NOT NULL,
        failed integer NOT NULL,
        suppressed integer NOT NULL,
        failures_by_code jsonb NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT "PK_send_counts" PRIMARY KEY (send_id)
      )`);
    await runner.query(`
      CREATE TABLE send_members (
        send_id bigint NOT NULL,
        position integer NOT NULL,
        contact_id bigint NOT NULL,
        CONSTRAINT "PK_send_members" PRIMARY KEY (send_id, position)
      )`);
    await runner.query(`
      CREATE TABLE send_messages (
        id text NOT NULL,
        send_id bigint NOT NULL,
        status text NOT NULL,
        reached_sent boolean NOT NULL,
        reached_delivered boolean NOT NULL,
        reached_read boolean NOT NULL,
        failure_code text,
        CONSTRAINT "PK_send_messages" PRIMARY KEY (id)
      )`);
    await runner.query(`
      CREATE TABLE send_id_counters (
        partition integer NOT NULL,
        next bigint NOT NULL,
        CONSTRAINT "PK_send_id_counters" PRIMARY KEY (partition)
      )`);
    await runner.query(`
      CREATE TABLE send_fanouts (
        send_id bigint NOT NULL,
        workspace_id bigint NOT NULL,
        next_position integer NOT NULL,
        due_at timestamptz NOT NULL,
        recent jsonb NOT NULL,
        CONSTRAINT "PK_send_fanouts" PRIMARY KEY (send_id)
      )`);
    await runner.query('CREATE INDEX send_fanouts_due ON send_fanouts (due_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of [
      'send_fanouts',
      'send_id_counters',
      'send_messages',
      'send_members',
      'send_counts',
      'sends',
      'schedule_timers',
      'notifications',
    ]) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
