import type { AlertComparator, AlertFailureCodeV1, AlertMetric, AlertStatus } from '@cms/contracts';
import { idColumn } from '@cms/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** What a rule watches: every message of the workspace, or those of a channel, workflow or campaign. */
export interface AlertScope {
  channel_id?: number;
  workflow_id?: number;
  campaign_id?: number;
}

/** A delivery-monitoring rule (extensions §10); ids are per workspace, the default rule is 1. */
@Entity({ name: 'alert_rules' })
export class AlertRuleEntity {
  @PrimaryColumn(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @PrimaryColumn(idColumn())
  id!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  metric!: AlertMetric;

  @Column({ type: 'text' })
  comparator!: AlertComparator;

  @Column({ type: 'double precision' })
  threshold!: number;

  @Column({ name: 'window_minutes', type: 'integer' })
  windowMinutes!: number;

  @Column({ name: 'min_volume', type: 'integer' })
  minVolume!: number;

  @Column({ type: 'jsonb' })
  scope!: AlertScope;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A workspace delivery monitoring knows: the id its next rule gets (ids are never reused). */
@Entity({ name: 'alert_workspaces' })
export class AlertWorkspaceEntity {
  @PrimaryColumn(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'next_rule_id' }))
  nextRuleId!: number;
}

/** An incident of a rule: firing from `started_at` until it resolved. */
@Entity({ name: 'alerts' })
@Index('alerts_workspace_started', ['workspaceId', 'startedAt', 'id'])
@Index('alerts_firing_per_rule', { synchronize: false })
export class AlertEntity {
  /** `alert_<32 hex>`, derived from the record whose decision started it. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @Column(idColumn({ name: 'rule_id' }))
  ruleId!: number;

  @Column({ type: 'text' })
  status!: AlertStatus;

  @Column({ type: 'text' })
  metric!: AlertMetric;

  @Column({ type: 'text' })
  comparator!: AlertComparator;

  /** The metric when it started, and when it resolved. */
  @Column({ type: 'double precision' })
  value!: number;

  @Column({ type: 'double precision' })
  threshold!: number;

  @Column({ name: 'window_minutes', type: 'integer' })
  windowMinutes!: number;

  /** The messages with an outcome in the window the value was computed over. */
  @Column({ name: 'sample_size', type: 'integer' })
  sampleSize!: number;

  @Column({ type: 'jsonb' })
  scope!: AlertScope;

  @Column({ name: 'top_failure_codes', type: 'jsonb' })
  topFailureCodes!: AlertFailureCodeV1[];

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt!: Date;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * The outcomes of a workspace's outbound messages per minute (the minute of the decision that gave
 * the outcome) and per channel, workflow and campaign (0: none): what rules' windows are summed from.
 */
@Entity({ name: 'alert_outcome_buckets' })
export class AlertOutcomeBucketEntity {
  @PrimaryColumn(idColumn({ name: 'workspace_id' }))
  workspaceId!: number;

  @PrimaryColumn({ type: 'timestamptz' })
  minute!: Date;

  @PrimaryColumn(idColumn({ name: 'channel_id' }))
  channelId!: number;

  @PrimaryColumn(idColumn({ name: 'workflow_id' }))
  workflowId!: number;

  @PrimaryColumn(idColumn({ name: 'campaign_id' }))
  campaignId!: number;

  @Column({ type: 'integer' })
  delivered!: number;

  @Column({ type: 'integer' })
  failed!: number;

  @Column({ type: 'integer' })
  suppressed!: number;

  /** Failed messages by failure code. */
  @Column({ name: 'failure_codes', type: 'jsonb' })
  failureCodes!: Record<string, number>;
}
