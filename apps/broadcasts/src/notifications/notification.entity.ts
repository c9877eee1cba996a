import type { NotificationRouteStep } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A notification (extensions §13): the projection of the requests in the log, so a rebuild makes the same rows. */
@Entity({ name: 'notifications' })
@Index('notifications_workspace_created', ['workspaceId', 'createdAt', 'id'])
// What keeps a template or an audience from being deleted is looked up by these.
@Index('notifications_template', ['workspaceId', 'templateId'])
@Index('notifications_audience', ['workspaceId', 'targetGroupId'])
export class NotificationEntity {
  /** Minted by the gateway. */
  @PrimaryColumn(idColumn())
  id!: number;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column(idColumn({ name: 'template_id' }))
  templateId!: number;

  /** The template's name and channel type as the gateway read them from messaging when it was named. */
  @Column({ name: 'template_name', type: 'text' })
  templateName!: string;

  @Column({ name: 'template_channel', type: 'text' })
  templateChannel!: string;

  @Column(idColumn({ name: 'target_group_id' }))
  targetGroupId!: number;

  @Column({ name: 'target_group_name', type: 'text' })
  targetGroupName!: string;

  @Column({ type: 'jsonb' })
  variables!: Record<string, unknown>;

  @Column({ type: 'jsonb', nullable: true })
  route!: NotificationRouteStep[] | null;

  @Column({ type: 'text', nullable: true })
  schedule!: string | null;

  @Column({ name: 'schedule_timezone', type: 'text' })
  scheduleTimezone!: string;

  /** The next scheduled start; null without a schedule, once it has passed, or while disabled. */
  @Column({ name: 'next_run_at', type: 'timestamptz', nullable: true })
  nextRunAt!: Date | null;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ type: 'text' })
  purpose!: string;

  @Column({ name: 'throttle_per_minute', type: 'integer', nullable: true })
  throttlePerMinute!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * The timer of a scheduled notification's next start (a job: a rebuild keeps it). One per
 * notification; its id is the notification's.
 */
@Entity({ name: 'schedule_timers' })
@Index('schedule_timers_due', ['dueAt'])
export class ScheduleTimerEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'notification_id' }))
  notificationId!: number;

  /** The schedule the due time was computed from. */
  @Column({ type: 'text' })
  schedule!: string;

  @Column({ name: 'due_at', type: 'timestamptz' })
  dueAt!: Date;
}
