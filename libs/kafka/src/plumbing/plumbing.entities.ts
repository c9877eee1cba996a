import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** Where a consumer is in a partition: the first offset it has not applied yet. */
@Entity({ name: 'consumer_checkpoints' })
export class ConsumerCheckpointEntity {
  @PrimaryColumn({ type: 'text' })
  consumer!: string;

  @PrimaryColumn({ type: 'text' })
  topic!: string;

  @PrimaryColumn({ type: 'integer' })
  partition!: number;

  @Column({ name: 'next_offset', type: 'bigint' })
  nextOffset!: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

/** Records waiting to be published, in commit order (see outbox.ts). */
@Entity({ name: 'outbox' })
export class OutboxEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  topic!: string;

  @Column({ type: 'text', nullable: true })
  key!: string | null;

  @Column({ type: 'text' })
  value!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  headers!: Record<string, string>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

/** A record a consumer could not apply, kept for an operator with the reason. */
@Entity({ name: 'dead_letters' })
@Index('dead_letters_position', ['consumer', 'topic', 'partition', 'offset'], { unique: true })
export class DeadLetterEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  consumer!: string;

  @Column({ type: 'text' })
  topic!: string;

  @Column({ type: 'integer' })
  partition!: number;

  @Column({ type: 'bigint' })
  offset!: string;

  @Column({ type: 'text', nullable: true })
  key!: string | null;

  @Column({ type: 'bytea', nullable: true })
  value!: Buffer | null;

  @Column({ type: 'text' })
  reason!: string;

  @Column({ type: 'text' })
  detail!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

/**
 * Where an earlier life of this projection stopped: its facts, outcomes and side effects for records
 * below `until_offset` were already published. A rebuild applies those records again but emits nothing.
 */
@Entity({ name: 'replay_horizons' })
export class ReplayHorizonEntity {
  @PrimaryColumn({ type: 'text' })
  consumer!: string;

  @PrimaryColumn({ type: 'text' })
  topic!: string;

  @PrimaryColumn({ type: 'integer' })
  partition!: number;

  @Column({ name: 'until_offset', type: 'bigint' })
  untilOffset!: string;
}

/** An operator's rebuild of this schema (`ops replay`), so an interrupted one resumes where it was. */
@Entity({ name: 'replays' })
export class ReplayEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  mode!: string;

  /** in place: preparing → rebuilding → done; blue/green: building → switching → done. */
  @Column({ type: 'text' })
  phase!: string;

  @Column({ name: 'target_schema', type: 'text' })
  targetSchema!: string;

  @Column({ name: 'started_at', type: 'timestamptz', default: () => 'now()' })
  startedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Column({ type: 'bigint', nullable: true })
  records!: string | null;
}

export const KAFKA_PLUMBING_ENTITIES = [
  ConsumerCheckpointEntity,
  OutboxEntity,
  DeadLetterEntity,
  ReplayHorizonEntity,
  ReplayEntity,
];

/** Tables of the plumbing, never part of a service's projection. */
export const KAFKA_PLUMBING_TABLES = [
  'consumer_checkpoints',
  'outbox',
  'dead_letters',
  'replay_horizons',
  'replays',
];
