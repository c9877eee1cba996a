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

export const KAFKA_PLUMBING_ENTITIES = [ConsumerCheckpointEntity, OutboxEntity, DeadLetterEntity];
