import type { MigrationInterface, QueryRunner } from 'typeorm';

import { KafkaReplay1763900000000 } from './1763900000000-kafka-replay.migration';

export class KafkaPlumbing1763770000000 implements MigrationInterface {
  name = 'KafkaPlumbing1763770000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE consumer_checkpoints (
        consumer text NOT NULL,
        topic text NOT NULL,
        partition integer NOT NULL,
        next_offset bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_consumer_checkpoints" PRIMARY KEY (consumer, topic, partition)
      )`);
    await runner.query(`
      CREATE TABLE outbox (
        id bigserial NOT NULL,
        topic text NOT NULL,
        key text,
        value text NOT NULL,
        headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_outbox" PRIMARY KEY (id)
      )`);
    await runner.query(`
      CREATE TABLE dead_letters (
        id bigserial NOT NULL,
        consumer text NOT NULL,
        topic text NOT NULL,
        partition integer NOT NULL,
        "offset" bigint NOT NULL,
        key text,
        value bytea,
        reason text NOT NULL,
        detail text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_dead_letters" PRIMARY KEY (id)
      )`);
    await runner.query(
      `CREATE UNIQUE INDEX dead_letters_position ON dead_letters (consumer, topic, partition, "offset")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE dead_letters');
    await runner.query('DROP TABLE outbox');
    await runner.query('DROP TABLE consumer_checkpoints');
  }
}

export const KAFKA_PLUMBING_MIGRATIONS = [KafkaPlumbing1763770000000, KafkaReplay1763900000000];
