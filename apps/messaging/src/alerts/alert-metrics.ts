import { FAILURE_CODES, isFailureCode, type AlertFailureCodeV1 } from '@cms/contracts';

import type { AlertRuleEntity, AlertScope } from './alert.entity';

export const MINUTE_MS = 60_000;
/** How far back of a decision's minute the outcomes are kept and loaded beyond the longest window. */
export const BUCKET_SLACK_MINUTES = 60;
/** The longest window a rule may have: buckets older than this (and the slack) are never read. */
export const BUCKET_KEEP_MINUTES = 1440 + BUCKET_SLACK_MINUTES;

/** The outcome a message reached, as delivery monitoring counts it. */
export type OutcomeKind = 'delivered' | 'failed' | 'suppressed';

/** Where an outbound message's outcome is counted: its channel, workflow and campaign (0: none). */
export interface OutcomeKey {
  channelId: number;
  workflowId: number;
  campaignId: number;
}

/** The outcomes of one minute and one channel, workflow and campaign. */
export interface OutcomeBucket extends OutcomeKey {
  /** The start of the minute, in milliseconds since the epoch. */
  minute: number;
  delivered: number;
  failed: number;
  suppressed: number;
  failureCodes: Record<string, number>;
}

/** What a rule's window holds at a time. */
export interface WindowStats {
  /** Messages whose outcome fell in the window. */
  volume: number;
  delivered: number;
  failed: number;
  suppressed: number;
  failureCodes: Record<string, number>;
  /** The latest minute of the window that holds an outcome, or null for an empty window. */
  lastMinute: number | null;
}

export type RuleSpec = Pick<
  AlertRuleEntity,
  'metric' | 'comparator' | 'threshold' | 'windowMinutes' | 'minVolume' | 'scope'
>;

export function minuteOf(atMs: number): number {
  return Math.floor(atMs / MINUTE_MS) * MINUTE_MS;
}

/**
 * The minutes a window of `windowMinutes` covers at `atMs`: the minute `atMs` is in and the
 * `windowMinutes − 1` whole minutes before it (both ends included).
 */
export function windowRange(atMs: number, windowMinutes: number): { from: number; to: number } {
  const to = minuteOf(atMs);
  return { from: to - (windowMinutes - 1) * MINUTE_MS, to };
}

/** Whether an outcome counted under `key` is one the scope watches (an empty scope watches all). */
export function inScope(scope: AlertScope, key: OutcomeKey): boolean {
  return (
    (scope.channel_id === undefined || scope.channel_id === key.channelId) &&
    (scope.workflow_id === undefined || scope.workflow_id === key.workflowId) &&
    (scope.campaign_id === undefined || scope.campaign_id === key.campaignId)
  );
}

/** The sums of the buckets in a rule's scope and window at `atMs`. */
export function windowStats(buckets: Iterable<OutcomeBucket>, rule: RuleSpec, atMs: number): WindowStats {
  const { from, to } = windowRange(atMs, rule.windowMinutes);
  const stats: WindowStats = {
    volume: 0,
    delivered: 0,
    failed: 0,
    suppressed: 0,
    failureCodes: {},
    lastMinute: null,
  };
  for (const bucket of buckets) {
    if (bucket.minute < from || bucket.minute > to || !inScope(rule.scope, bucket)) continue;
    const count = bucket.delivered + bucket.failed + bucket.suppressed;
    if (count === 0) continue;
    stats.volume += count;
    stats.delivered += bucket.delivered;
    stats.failed += bucket.failed;
    stats.suppressed += bucket.suppressed;
    for (const [code, n] of Object.entries(bucket.failureCodes)) {
      stats.failureCodes[code] = (stats.failureCodes[code] ?? 0) + n;
    }
    if (stats.lastMinute === null || bucket.minute > stats.lastMinute) stats.lastMinute = bucket.minute;
  }
  return stats;
}

/** The rule's metric over a window: rates are 0 for an empty window. */
export function metricValue(metric: RuleSpec['metric'], stats: WindowStats): number {
  switch (metric) {
    case 'failure_count':
      return stats.failed;
    case 'failure_rate':
      return rate(stats.failed, stats.volume);
    case 'suppression_rate':
      return rate(stats.suppressed, stats.volume);
    case 'delivery_rate':
      return rate(stats.delivered, stats.volume);
  }
}

function rate(part: number, volume: number): number {
  return volume === 0 ? 0 : part / volume;
}

function beyond(rule: RuleSpec, value: number): boolean {
  return rule.comparator === 'gt' ? value > rule.threshold : value < rule.threshold;
}

/** The window has at least `min_volume` messages and the metric is beyond the threshold. */
export function breaches(rule: RuleSpec, stats: WindowStats): boolean {
  return stats.volume >= rule.minVolume && beyond(rule, metricValue(rule.metric, stats));
}

/**
 * A firing alert resolves when a whole window holds no outcome at all (traffic stopped), or when it
 * holds at least `min_volume` messages and the metric over it is back within the threshold. A window
 * with fewer messages than that does not prove the problem is gone, and keeps the alert firing.
 */
export function recovered(rule: RuleSpec, stats: WindowStats): boolean {
  if (stats.volume === 0) return true;
  return stats.volume >= rule.minVolume && !beyond(rule, metricValue(rule.metric, stats));
}

/** What a rule does at an evaluation: start an alert, resolve its alert, or nothing. */
export function judge(rule: RuleSpec, firing: boolean, stats: WindowStats): 'fire' | 'resolve' | null {
  if (!firing) return breaches(rule, stats) ? 'fire' : null;
  return recovered(rule, stats) ? 'resolve' : null;
}

/**
 * When the window of a firing rule would hold no outcome if none came: the start of the minute after
 * the latest outcome's minute has left the window.
 */
export function windowEmptiesAt(rule: RuleSpec, stats: WindowStats, atMs: number): number {
  const last = stats.lastMinute ?? minuteOf(atMs);
  return last + rule.windowMinutes * MINUTE_MS;
}

/** The five most frequent failure codes of a window (ties by code), each with its fix. */
export function topFailureCodes(failureCodes: Record<string, number>, limit = 5): AlertFailureCodeV1[] {
  return Object.entries(failureCodes)
    .filter(([, count]) => count > 0)
    .sort(([a, left], [b, right]) => right - left || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit)
    .map(([code, count]) => ({
      code,
      count,
      fix: isFailureCode(code) ? FAILURE_CODES[code].fix : FAILURE_CODES.provider_error.fix,
    }));
}
