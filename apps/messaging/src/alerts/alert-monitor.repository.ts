import { idFromDatabase } from '@cms/persistence';
import type { EntityManager } from 'typeorm';

import type { AlertEntity, AlertRuleEntity } from './alert.entity';
import {
  BUCKET_KEEP_MINUTES,
  BUCKET_SLACK_MINUTES,
  MINUTE_MS,
  minuteOf,
  type OutcomeBucket,
} from './alert-metrics';
import { AlertMonitor } from './alert-monitor';

type Row = Record<string, unknown>;

/**
 * The enabled rules of the workspaces, their firing alerts and the buckets their windows can reach
 * from `at` (the longest window and an hour of slack for records a little out of time order): one
 * statement for them all. A workspace without an enabled rule has no buckets read.
 */
const LOAD_SQL = `
  WITH rules AS (SELECT * FROM alert_rules WHERE workspace_id = ANY ($1::bigint[]) AND enabled),
       reach AS (SELECT workspace_id, max(window_minutes) AS minutes FROM rules GROUP BY workspace_id)
  SELECT 'rule' AS kind, row_to_json(r) AS row FROM rules r
  UNION ALL
  SELECT 'alert', row_to_json(a) FROM alerts a
   WHERE a.workspace_id IN (SELECT workspace_id FROM reach) AND a.status = 'firing'
  UNION ALL
  SELECT 'bucket', row_to_json(b) FROM alert_outcome_buckets b JOIN reach k ON k.workspace_id = b.workspace_id
   WHERE b.minute >= $2::timestamptz - make_interval(mins => k.minutes + $3)`;

function ruleOf(row: Row): AlertRuleEntity {
  return {
    workspaceId: idFromDatabase(row['workspace_id'] as string | number),
    id: idFromDatabase(row['id'] as string | number),
    name: row['name'] as string,
    metric: row['metric'] as AlertRuleEntity['metric'],
    comparator: row['comparator'] as AlertRuleEntity['comparator'],
    threshold: Number(row['threshold']),
    windowMinutes: Number(row['window_minutes']),
    minVolume: Number(row['min_volume']),
    scope: row['scope'] as AlertRuleEntity['scope'],
    enabled: row['enabled'] as boolean,
    createdAt: new Date(row['created_at'] as string),
    updatedAt: new Date(row['updated_at'] as string),
  };
}

/** An alert from its row (as a query or row_to_json reads it). */
export function alertOf(row: Row): AlertEntity {
  const date = (value: unknown): Date | null => (value === null ? null : new Date(value as string));
  return {
    id: row['id'] as string,
    workspaceId: idFromDatabase(row['workspace_id'] as string | number),
    ruleId: idFromDatabase(row['rule_id'] as string | number),
    status: row['status'] as AlertEntity['status'],
    metric: row['metric'] as AlertEntity['metric'],
    comparator: row['comparator'] as AlertEntity['comparator'],
    value: Number(row['value']),
    threshold: Number(row['threshold']),
    windowMinutes: Number(row['window_minutes']),
    sampleSize: Number(row['sample_size']),
    scope: row['scope'] as AlertEntity['scope'],
    topFailureCodes: row['top_failure_codes'] as AlertEntity['topFailureCodes'],
    startedAt: date(row['started_at'])!,
    resolvedAt: date(row['resolved_at']),
    createdAt: date(row['created_at'])!,
    updatedAt: date(row['updated_at'])!,
  };
}

function bucketOf(row: Row): OutcomeBucket {
  return {
    minute: new Date(row['minute'] as string).getTime(),
    channelId: Number(row['channel_id']),
    workflowId: Number(row['workflow_id']),
    campaignId: Number(row['campaign_id']),
    delivered: Number(row['delivered']),
    failed: Number(row['failed']),
    suppressed: Number(row['suppressed']),
    failureCodes: row['failure_codes'] as Record<string, number>,
  };
}

/** The monitors of the workspaces as of `at`: none for a workspace without an enabled rule. */
export async function loadAlertMonitors(
  manager: EntityManager,
  workspaceIds: number[],
  at: Date,
  undo: Array<() => void>,
): Promise<Map<number, AlertMonitor>> {
  const rows = (await manager.query(LOAD_SQL, [
    workspaceIds,
    new Date(minuteOf(at.getTime())).toISOString(),
    BUCKET_SLACK_MINUTES,
  ])) as Array<{ kind: 'rule' | 'alert' | 'bucket'; row: Row }>;
  const parts = new Map<
    number,
    { rules: AlertRuleEntity[]; firing: AlertEntity[]; buckets: OutcomeBucket[] }
  >();
  const partOf = (row: Row) => {
    const workspaceId = idFromDatabase(row['workspace_id'] as string | number);
    let part = parts.get(workspaceId);
    if (part === undefined) {
      part = { rules: [], firing: [], buckets: [] };
      parts.set(workspaceId, part);
    }
    return part;
  };
  for (const { kind, row } of rows) {
    if (kind === 'rule') partOf(row).rules.push(ruleOf(row));
    else if (kind === 'alert') partOf(row).firing.push(alertOf(row));
    else partOf(row).buckets.push(bucketOf(row));
  }
  const monitors = new Map<number, AlertMonitor>();
  for (const [workspaceId, part] of parts) {
    monitors.set(workspaceId, new AlertMonitor(workspaceId, part.rules, part.firing, part.buckets, undo));
  }
  return monitors;
}

/** The monitor of a workspace as of `at`, or null when the workspace has no enabled rule. */
export async function loadAlertMonitor(
  manager: EntityManager,
  workspaceId: number,
  at: Date,
  undo: Array<() => void>,
): Promise<AlertMonitor | null> {
  return (await loadAlertMonitors(manager, [workspaceId], at, undo)).get(workspaceId) ?? null;
}

const UPSERT_BUCKETS_SQL = `
  INSERT INTO alert_outcome_buckets
    (workspace_id, minute, channel_id, workflow_id, campaign_id, delivered, failed, suppressed, failure_codes)
  SELECT workspace_id, minute, channel_id, workflow_id, campaign_id, delivered, failed, suppressed, failure_codes
    FROM jsonb_to_recordset($1::jsonb) AS v(workspace_id bigint, minute timestamptz, channel_id bigint,
      workflow_id bigint, campaign_id bigint, delivered integer, failed integer, suppressed integer,
      failure_codes jsonb)
  ON CONFLICT (workspace_id, minute, channel_id, workflow_id, campaign_id) DO UPDATE SET
    delivered = excluded.delivered, failed = excluded.failed, suppressed = excluded.suppressed,
    failure_codes = excluded.failure_codes`;

const PRUNE_BUCKETS_SQL = `
  DELETE FROM alert_outcome_buckets b USING unnest($1::bigint[], $2::timestamptz[]) AS k(workspace_id, before)
   WHERE b.workspace_id = k.workspace_id AND b.minute < k.before`;

const UPSERT_ALERTS_SQL = `
  INSERT INTO alerts (id, workspace_id, rule_id, status, metric, comparator, value, threshold, window_minutes,
                      sample_size, scope, top_failure_codes, started_at, resolved_at, created_at, updated_at)
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(id text, workspace_id bigint, rule_id bigint, status text,
    metric text, comparator text, value double precision, threshold double precision, window_minutes integer,
    sample_size integer, scope jsonb, top_failure_codes jsonb, started_at timestamptz, resolved_at timestamptz,
    created_at timestamptz, updated_at timestamptz)
  ON CONFLICT (id) DO UPDATE SET status = excluded.status, value = excluded.value,
    sample_size = excluded.sample_size, top_failure_codes = excluded.top_failure_codes,
    resolved_at = excluded.resolved_at, updated_at = excluded.updated_at`;

/** Alerts, new or changed, with one statement (in the order given: a resolved one before its rule's next). */
export async function upsertAlerts(manager: EntityManager, alerts: AlertEntity[]): Promise<void> {
  if (alerts.length === 0) return;
  await manager.query(UPSERT_ALERTS_SQL, [
    JSON.stringify(
      alerts.map((alert) => ({
        id: alert.id,
        workspace_id: alert.workspaceId,
        rule_id: alert.ruleId,
        status: alert.status,
        metric: alert.metric,
        comparator: alert.comparator,
        value: alert.value,
        threshold: alert.threshold,
        window_minutes: alert.windowMinutes,
        sample_size: alert.sampleSize,
        scope: alert.scope,
        top_failure_codes: alert.topFailureCodes,
        started_at: alert.startedAt.toISOString(),
        resolved_at: alert.resolvedAt?.toISOString() ?? null,
        created_at: alert.createdAt.toISOString(),
        updated_at: alert.updatedAt.toISOString(),
      })),
    ),
  ]);
}

/**
 * What the monitors changed: their buckets and alerts, a statement each for all of them, and the
 * buckets no window can reach any more dropped (per workspace, older than the reach of the latest
 * outcome counted, so the rows left are the same however the records were grouped).
 */
export async function saveAlertMonitors(manager: EntityManager, monitors: AlertMonitor[]): Promise<void> {
  const buckets: Row[] = [];
  const alerts: AlertEntity[] = [];
  const pruned: Array<{ workspaceId: number; before: string }> = [];
  for (const monitor of monitors) {
    for (const key of monitor.changedBuckets) {
      const bucket = monitor.bucket(key);
      buckets.push({
        workspace_id: monitor.workspaceId,
        minute: new Date(bucket.minute).toISOString(),
        channel_id: bucket.channelId,
        workflow_id: bucket.workflowId,
        campaign_id: bucket.campaignId,
        delivered: bucket.delivered,
        failed: bucket.failed,
        suppressed: bucket.suppressed,
        failure_codes: bucket.failureCodes,
      });
    }
    alerts.push(...monitor.changedAlerts.values());
    if (monitor.latestAt !== null) {
      const before = minuteOf(monitor.latestAt) - BUCKET_KEEP_MINUTES * MINUTE_MS;
      pruned.push({ workspaceId: monitor.workspaceId, before: new Date(before).toISOString() });
    }
  }
  if (buckets.length > 0) await manager.query(UPSERT_BUCKETS_SQL, [JSON.stringify(buckets)]);
  if (pruned.length > 0) {
    await manager.query(PRUNE_BUCKETS_SQL, [
      pruned.map((entry) => entry.workspaceId),
      pruned.map((entry) => entry.before),
    ]);
  }
  await upsertAlerts(manager, alerts);
}
