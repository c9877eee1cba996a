import type { MigrationInterface, QueryRunner } from 'typeorm';

export class KafkaReplay1763900000000 implements MigrationInterface {
  name = 'KafkaReplay1763900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE replay_horizons (
        consumer text NOT NULL,
        topic text NOT NULL,
        partition integer NOT NULL,
        until_offset bigint NOT NULL,
        CONSTRAINT "PK_replay_horizons" PRIMARY KEY (consumer, topic, partition)
      )`);
    await runner.query(`
      CREATE TABLE replays (
        id bigserial NOT NULL,
        mode text NOT NULL,
        phase text NOT NULL,
        target_schema text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        records bigint,
        CONSTRAINT "PK_replays" PRIMARY KEY (id)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE replays');
    await runner.query('DROP TABLE replay_horizons');
  }
}
