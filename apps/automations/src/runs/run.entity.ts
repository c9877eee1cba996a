import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { RunEvent, RunHistoryEntry, RunStatus, RunWait } from '../engine/run-engine';

/**
 * A run of a workflow for a contact (extensions §12, Runs): the state the run engine moves, decided
 * in log order from the requests topic, so a rebuild makes the same rows.
 */
@Entity({ name: 'workflow_runs' })
@Index('workflow_runs_workflow_started', ['workflowId', 'startedAt', 'id'])
@Index('workflow_runs_contact_workflow', ['contactId', 'workflowId'])
@Index('workflow_runs_trigger', ['workflowId', 'triggerEventId'], { unique: true })
export class WorkflowRunEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'workflow_id' }))
  workflowId!: number;

  @Column({ type: 'integer' })
  version!: number;

  @Column(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @Column({ type: 'text' })
  status!: RunStatus;

  @Column({ name: 'current_step', type: 'text', nullable: true })
  currentStep!: string | null;

  @Column(idColumn({ name: 'trigger_event_id' }))
  triggerEventId!: number;

  /** The trigger event as templates and branches read it: `{id, name, data}`. */
  @Column({ name: 'trigger_event', type: 'jsonb' })
  triggerEvent!: RunEvent;

  @Column({ name: 'waited_event', type: 'jsonb', nullable: true })
  waitedEvent!: RunEvent | null;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt!: Date | null;

  @Column({ type: 'jsonb' })
  history!: RunHistoryEntry[];

  @Column({ name: 'waiting_for', type: 'jsonb', nullable: true })
  waitingFor!: RunWait | null;

  @Column({ name: 'goal_deadline', type: 'timestamptz', nullable: true })
  goalDeadline!: Date | null;
}

/** A message a run's `send` step made (after a fallback, each message of its route), as its facts left it. */
@Entity({ name: 'run_messages' })
@Index('run_messages_run', ['runId'])
export class RunMessageEntity {
  @PrimaryColumn({ name: 'message_id', type: 'text' })
  messageId!: string;

  @Column(idColumn({ name: 'run_id' }))
  runId!: number;

  @Column({ type: 'text' })
  step!: string;

  @Column({ name: 'made_at', type: 'timestamptz' })
  madeAt!: Date;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'boolean' })
  clicked!: boolean;

  @Column({ type: 'text', nullable: true })
  channel!: string | null;
}

/** An event of a contact as runs read it (`performed` criteria): from the event inputs, in log order. */
@Entity({ name: 'run_contact_events' })
@Index('run_contact_events_contact_name', ['contactId', 'name'])
export class RunContactEventEntity {
  @PrimaryColumn(idColumn({ name: 'event_id' }))
  eventId!: number;

  @Column(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt!: Date;
}

/**
 * The next run id of a partition of the requests topic: runs start in that partition's order, so a
 * rebuild numbers them the same; a run id is `next × RUN_ID_PARTITIONS + partition + 1`.
 */
@Entity({ name: 'run_id_counters' })
export class RunIdCounterEntity {
  @PrimaryColumn({ type: 'integer' })
  partition!: number;

  @Column(idColumn())
  next!: number;
}

/** An outcome (extensions §12): the data of its outcome.recorded webhook, whole. Its id is its run's. */
@Entity({ name: 'outcomes' })
@Index('outcomes_workspace_created', ['workspaceId', 'createdAt', 'id'])
export class OutcomeEntity {
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'workflow_id' }))
  workflowId!: number;

  @Column(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/**
 * A run's durable timer (DESIGN §5): a job, not a projection (a rebuild keeps it). The timer worker
 * claims due rows with FOR UPDATE SKIP LOCKED and, in the same transaction, deletes them and appends
 * their automation.timer.fired records: the transaction is the lease, so a timer fires once.
 */
@Entity({ name: 'run_timers' })
@Index('run_timers_due', ['dueAt'])
export class RunTimerEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'run_id' }))
  runId!: number;

  @Column(idColumn({ name: 'contact_id' }))
  contactId!: number;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt!: Date;

  /** Whether the run's version reads the contact (readsRunContact): only then does it fire with it. */
  @Column({ name: 'reads_contact', type: 'boolean', default: true })
  readsContact!: boolean;
}
