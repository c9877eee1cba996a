import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The durable job that sends one message (DESIGN §4): made by the decision that queued the message
 * (`ON CONFLICT DO NOTHING`: a rebuild never makes it twice), claimed by the send worker with FOR UPDATE
 * SKIP LOCKED and a lease, removed in the transaction that records what the send did.
 */
@Entity({ name: 'messaging_send_jobs' })
@Index('messaging_send_jobs_due', ['dueAt'])
// The worker claims the due jobs of its lane in due order, every job of other messages before a send's.
@Index('messaging_send_jobs_lane', ['bulk', 'dueAt'])
export class SendJobEntity {
  @PrimaryColumn({ name: 'message_id', type: 'text' })
  messageId!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt!: Date;

  /** A notification send's message (extensions §13): claimed after every other job that is due. */
  @Column({ type: 'boolean', default: false })
  bulk!: boolean;

  /** `pending`, or `sending` while a provider is being asked (never asked again if the worker dies). */
  @Column({ type: 'text' })
  state!: 'pending' | 'sending';

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'first_attempt_at', type: 'timestamptz', nullable: true })
  firstAttemptAt!: Date | null;

  @Column({ name: 'leased_until', type: 'timestamptz', nullable: true })
  leasedUntil!: Date | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;
}

/**
 * A durable timer (DESIGN §5): a sandbox receipt to report, or a route step's wait to end. Its id is
 * derived from the decision that set it; the timer worker turns a due one into a request record.
 */
@Entity({ name: 'messaging_timers' })
@Index('messaging_timers_due', ['dueAt'])
export class TimerEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ name: 'message_id', type: 'text' })
  messageId!: string;

  /** `alert`: a firing alert's check (delivery monitoring); its `message_id` is the alert's id. */
  @Column({ type: 'text' })
  kind!: 'receipt' | 'timeout' | 'alert';

  /** The data of the record it becomes (without `at`, which is the time it fires). */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt!: Date;

  @Column({ name: 'leased_until', type: 'timestamptz', nullable: true })
  leasedUntil!: Date | null;
}
