import type { NotificationRouteStep, NotificationSendStatus } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** What a send's messages have reached, by §13's rules (see send-counts.ts). */
export interface SendCounts {
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  suppressed: number;
}

/**
 * A notification's send (extensions §13), decided from the requests topic alone. Its counts are in
 * send_counts, moved by the messaging facts of its messages, and its members in send_members, from
 * the snapshot's facts: each table has one consumer, so a rebuild that reads the three topics at
 * other paces than live makes the same rows.
 */
@Entity({ name: 'sends' })
@Index('sends_notification_created', ['notificationId', 'createdAt', 'id'])
export class SendEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'notification_id' }))
  notificationId!: number;

  @Column({ type: 'text' })
  status!: NotificationSendStatus;

  @Column({ name: 'test_mode', type: 'boolean' })
  testMode!: boolean;

  /** The audience the snapshot was asked of (null for a test send). */
  @Column(idColumn({ name: 'audience_id', nullable: true }))
  audienceId!: number | null;

  @Column({ name: 'audience_size', type: 'integer', nullable: true })
  audienceSize!: number | null;

  @Column({ type: 'integer' })
  deduplicated!: number;

  /** The notification as the send started: later changes to it do not change a send under way. */
  @Column({ type: 'jsonb' })
  route!: NotificationRouteStep[];

  @Column({ type: 'jsonb' })
  variables!: Record<string, unknown>;

  @Column({ type: 'text' })
  purpose!: string;

  @Column({ name: 'throttle_per_minute', type: 'integer', nullable: true })
  throttlePerMinute!: number | null;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** What a send's messages have reached (send-counts.ts), moved by their facts on cms.messaging.v1. */
@Entity({ name: 'send_counts' })
export class SendCountsEntity implements SendCounts {
  @PrimaryColumn(idColumn({ name: 'send_id' }))
  sendId!: number;

  /** Messages made (queued + sent + failed + suppressed). */
  @Column({ type: 'integer' })
  made!: number;

  @Column({ type: 'integer' })
  queued!: number;

  @Column({ type: 'integer' })
  sent!: number;

  @Column({ type: 'integer' })
  delivered!: number;

  @Column({ type: 'integer' })
  read!: number;

  @Column({ type: 'integer' })
  failed!: number;

  @Column({ type: 'integer' })
  suppressed!: number;

  @Column({ name: 'failures_by_code', type: 'jsonb' })
  failuresByCode!: Record<string, number>;

  /** The latest time of the facts applied (their maximum, whatever order they came in). */
  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A member of a send, as the audience snapshot in the log names it (a test send: its one contact). */
@Entity({ name: 'send_members' })
export class SendMemberEntity {
  @PrimaryColumn(idColumn({ name: 'send_id' }))
  sendId!: number;

  /** Its place in the snapshot: part × SNAPSHOT_PART_SIZE + its index in the part. */
  @PrimaryColumn({ type: 'integer' })
  position!: number;

  @Column(idColumn({ name: 'contact_id' }))
  contactId!: number;
}

/** A message of a send as its facts left it: what it adds to the send's counts. */
@Entity({ name: 'send_messages' })
export class SendMessageEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column(idColumn({ name: 'send_id' }))
  sendId!: number;

  @Column({ type: 'text' })
  status!: string;

  @Column({ name: 'reached_sent', type: 'boolean' })
  reachedSent!: boolean;

  @Column({ name: 'reached_delivered', type: 'boolean' })
  reachedDelivered!: boolean;

  @Column({ name: 'reached_read', type: 'boolean' })
  reachedRead!: boolean;

  @Column({ name: 'failure_code', type: 'text', nullable: true })
  failureCode!: string | null;
}

/** Send ids of each partition of the requests topic, numbered in the partition's order. */
@Entity({ name: 'send_id_counters' })
export class SendIdCounterEntity {
  @PrimaryColumn({ type: 'integer' })
  partition!: number;

  @Column(idColumn())
  next!: number;
}

/**
 * A send making its messages (a job: a rebuild keeps it, so a rebuilt service goes on where the live
 * one was and asks for no message twice). Deleted once every member has been asked for.
 */
@Entity({ name: 'send_fanouts' })
@Index('send_fanouts_due', ['dueAt'])
export class SendFanoutEntity {
  @PrimaryColumn(idColumn({ name: 'send_id' }))
  sendId!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  /** The first member not asked for yet. */
  @Column({ name: 'next_position', type: 'integer' })
  nextPosition!: number;

  /** When it may make its next messages: now, or when its throttle allows. */
  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt!: Date;

  /** For `throttle_per_minute`: [ms since the epoch, messages] of each batch of the last minute. */
  @Column({ type: 'jsonb' })
  recent!: Array<[number, number]>;
}
