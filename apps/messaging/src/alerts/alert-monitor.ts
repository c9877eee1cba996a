import { deterministicId } from '@cms/contracts';

import type { AlertEntity, AlertRuleEntity } from './alert.entity';
import {
  inScope,
  judge,
  metricValue,
  minuteOf,
  topFailureCodes,
  windowEmptiesAt,
  windowStats,
  type OutcomeBucket,
  type OutcomeKey,
  type OutcomeKind,
  type WindowStats,
} from './alert-metrics';

/** An outbound message's outcome, as a status change gives it. */
export interface MessageOutcome extends OutcomeKey {
  kind: OutcomeKind;
  failureCode: string | null;
}

/** An alert that started (notification 1) or resolved (2), and when its window empties if it fires on. */
export interface AlertChange {
  alert: AlertEntity;
  notificationSeq: number;
  /** A check due when the window of the still-firing alert would hold no outcome. */
  checkAt: Date | null;
}

export function alertIdOf(recordId: string, ruleId: number): string {
  return `alert_${deterministicId(recordId, 'alert', ruleId).replace(/-/g, '')}`;
}

function bucketKey(minute: number, key: OutcomeKey): string {
  return `${minute}:${key.channelId}:${key.workflowId}:${key.campaignId}`;
}

/**
 * The delivery monitoring of one workspace in memory: its enabled rules, their firing alerts and the
 * outcome buckets their windows can reach. Outcomes are counted and the rules judged change by change
 * without a statement; what changed is kept (`changedBuckets`, `changedAlerts`) for one write, and each
 * change pushes its undoing onto `undo` (a refused part of a decision leaves nothing behind).
 */
export class AlertMonitor {
  readonly rules: readonly AlertRuleEntity[];
  private readonly buckets = new Map<string, OutcomeBucket>();
  private readonly firing = new Map<number, AlertEntity>();
  readonly changedBuckets = new Set<string>();
  readonly changedAlerts = new Map<string, AlertEntity>();
  /** The latest time an outcome was counted at: older buckets than its reach are dropped at the write. */
  latestAt: number | null = null;

  constructor(
    readonly workspaceId: number,
    rules: AlertRuleEntity[],
    firing: AlertEntity[],
    buckets: OutcomeBucket[],
    private readonly undo: Array<() => void>,
  ) {
    this.rules = [...rules].sort((a, b) => a.id - b.id);
    for (const alert of firing) this.firing.set(alert.ruleId, alert);
    for (const bucket of buckets) this.buckets.set(bucketKey(bucket.minute, bucket), bucket);
  }

  bucket(key: string): OutcomeBucket {
    return this.buckets.get(key)!;
  }

  firingAlert(ruleId: number): AlertEntity | undefined {
    return this.firing.get(ruleId);
  }

  /**
   * Counts an outcome at `at` and judges every enabled rule whose scope it falls in, over its window
   * at `at`: a rule without a firing alert may start one, a firing one may resolve.
   */
  record(outcome: MessageOutcome, at: Date, recordId: string): AlertChange[] {
    const atMs = at.getTime();
    this.count(outcome, atMs);
    const changes: AlertChange[] = [];
    for (const rule of this.rules) {
      if (!inScope(rule.scope, outcome)) continue;
      const change = this.judgeRule(rule, atMs, recordId);
      if (change !== null) changes.push(change);
    }
    return changes;
  }

  /**
   * A firing alert's check came due (no outcome may have come since): resolves it when its window is
   * back within the threshold or empty; otherwise answers when to check again.
   */
  check(
    ruleId: number,
    alertId: string,
    at: Date,
    recordId: string,
  ): { resolved: AlertChange | null; checkAgainAt: Date | null } {
    const rule = this.rules.find((candidate) => candidate.id === ruleId);
    const alert = this.firing.get(ruleId);
    if (rule === undefined || alert === undefined || alert.id !== alertId) {
      return { resolved: null, checkAgainAt: null };
    }
    const atMs = at.getTime();
    const change = this.judgeRule(rule, atMs, recordId);
    if (change !== null) return { resolved: change, checkAgainAt: null };
    const stats = windowStats(this.buckets.values(), rule, atMs);
    return { resolved: null, checkAgainAt: new Date(windowEmptiesAt(rule, stats, atMs)) };
  }

  private judgeRule(rule: AlertRuleEntity, atMs: number, recordId: string): AlertChange | null {
    const stats = windowStats(this.buckets.values(), rule, atMs);
    const current = this.firing.get(rule.id);
    switch (judge(rule, current !== undefined, stats)) {
      case 'fire':
        return this.fire(rule, stats, atMs, recordId);
      case 'resolve':
        return this.resolve(current!, rule, stats, atMs);
      case null:
        return null;
    }
  }

  private fire(rule: AlertRuleEntity, stats: WindowStats, atMs: number, recordId: string): AlertChange {
    const at = new Date(atMs);
    const alert: AlertEntity = {
      id: alertIdOf(recordId, rule.id),
      workspaceId: this.workspaceId,
      ruleId: rule.id,
      status: 'firing',
      metric: rule.metric,
      comparator: rule.comparator,
      value: metricValue(rule.metric, stats),
      threshold: rule.threshold,
      windowMinutes: rule.windowMinutes,
      sampleSize: stats.volume,
      scope: { ...rule.scope },
      topFailureCodes: topFailureCodes(stats.failureCodes),
      startedAt: at,
      resolvedAt: null,
      createdAt: at,
      updatedAt: at,
    };
    this.setAlert(rule.id, alert);
    return {
      alert: { ...alert },
      notificationSeq: 1,
      checkAt: new Date(windowEmptiesAt(rule, stats, atMs)),
    };
  }

  private resolve(alert: AlertEntity, rule: AlertRuleEntity, stats: WindowStats, atMs: number): AlertChange {
    const at = new Date(atMs);
    const resolved: AlertEntity = {
      ...alert,
      status: 'resolved',
      value: metricValue(rule.metric, stats),
      sampleSize: stats.volume,
      topFailureCodes: topFailureCodes(stats.failureCodes),
      resolvedAt: at,
      updatedAt: at,
    };
    this.setAlert(rule.id, resolved);
    return { alert: { ...resolved }, notificationSeq: 2, checkAt: null };
  }

  private setAlert(ruleId: number, alert: AlertEntity): void {
    const previous = this.firing.get(ruleId);
    const previousChange = this.changedAlerts.get(alert.id);
    if (alert.status === 'firing') this.firing.set(ruleId, alert);
    else this.firing.delete(ruleId);
    // Re-inserted last: a resolved alert is written before the next one of its rule starts.
    this.changedAlerts.delete(alert.id);
    this.changedAlerts.set(alert.id, alert);
    this.undo.push(() => {
      if (previous === undefined) this.firing.delete(ruleId);
      else this.firing.set(ruleId, previous);
      this.changedAlerts.delete(alert.id);
      if (previousChange !== undefined) this.changedAlerts.set(alert.id, previousChange);
    });
  }

  private count(outcome: MessageOutcome, atMs: number): void {
    const minute = minuteOf(atMs);
    const key = bucketKey(minute, outcome);
    const previous = this.buckets.get(key);
    const wasChanged = this.changedBuckets.has(key);
    const latest = this.latestAt;
    const bucket: OutcomeBucket = previous
      ? { ...previous, failureCodes: { ...previous.failureCodes } }
      : {
          minute,
          channelId: outcome.channelId,
          workflowId: outcome.workflowId,
          campaignId: outcome.campaignId,
          delivered: 0,
          failed: 0,
          suppressed: 0,
          failureCodes: {},
        };
    bucket[outcome.kind] += 1;
    if (outcome.kind === 'failed') {
      const code = outcome.failureCode ?? 'provider_error';
      bucket.failureCodes[code] = (bucket.failureCodes[code] ?? 0) + 1;
    }
    this.buckets.set(key, bucket);
    this.changedBuckets.add(key);
    this.latestAt = latest === null ? atMs : Math.max(latest, atMs);
    this.undo.push(() => {
      if (previous === undefined) this.buckets.delete(key);
      else this.buckets.set(key, previous);
      if (!wasChanged) this.changedBuckets.delete(key);
      this.latestAt = latest;
    });
  }
}
