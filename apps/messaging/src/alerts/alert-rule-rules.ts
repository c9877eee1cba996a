import { DEFAULT_ALERT_MIN_VOLUME, type AlertMetric } from '@cms/contracts';

import type { AlertRuleEntity } from './alert.entity';
import type { AlertFieldProblem } from './alerts.exception';

/** The rule every workspace starts with (extensions §10): failure rate above 20 % over 15 minutes. */
export const DEFAULT_ALERT_RULE = {
  id: 1,
  name: 'Failure rate above 20%',
  metric: 'failure_rate',
  comparator: 'gt',
  threshold: 0.2,
  windowMinutes: 15,
  minVolume: DEFAULT_ALERT_MIN_VOLUME,
  scope: {},
  enabled: true,
} as const satisfies Omit<AlertRuleEntity, 'workspaceId' | 'createdAt' | 'updatedAt'>;

const POINTER = '/data/attributes';

export function isRateMetric(metric: AlertMetric): boolean {
  return metric !== 'failure_count';
}

/**
 * What the body's types cannot say about a rule as it would be stored: a rate's threshold lies in
 * 0–1, a count's is a whole number ≥ 0. The problem points at the threshold when it was sent, else
 * at the metric that made it wrong.
 */
export function ruleProblems(
  rule: Pick<AlertRuleEntity, 'metric' | 'threshold'>,
  sent: { threshold: boolean },
): AlertFieldProblem[] {
  const pointer = sent.threshold ? `${POINTER}/threshold` : `${POINTER}/metric`;
  if (isRateMetric(rule.metric)) {
    if (rule.threshold < 0 || rule.threshold > 1) {
      return [{ pointer, detail: `The threshold of ${rule.metric} is a rate between 0 and 1.` }];
    }
    return [];
  }
  if (rule.threshold < 0 || !Number.isInteger(rule.threshold)) {
    return [{ pointer, detail: 'The threshold of failure_count is a whole number of messages, 0 or more.' }];
  }
  return [];
}

/** Fields whose change makes the rule another rule: its firing alert, about the old one, resolves. */
export function redefines(before: AlertRuleEntity, after: AlertRuleEntity): boolean {
  return (
    before.metric !== after.metric ||
    before.comparator !== after.comparator ||
    before.threshold !== after.threshold ||
    before.windowMinutes !== after.windowMinutes ||
    before.minVolume !== after.minVolume ||
    before.scope.channel_id !== after.scope.channel_id ||
    before.scope.workflow_id !== after.scope.workflow_id ||
    before.scope.campaign_id !== after.scope.campaign_id ||
    (before.enabled && !after.enabled)
  );
}

/** A scope as stored: only the keys given, in one order. */
export function scopeOf(
  scope:
    | {
        channel_id?: number;
        workflow_id?: number;
        campaign_id?: number;
      }
    | undefined,
): AlertRuleEntity['scope'] {
  const result: AlertRuleEntity['scope'] = {};
  if (scope?.campaign_id !== undefined) result.campaign_id = scope.campaign_id;
  if (scope?.channel_id !== undefined) result.channel_id = scope.channel_id;
  if (scope?.workflow_id !== undefined) result.workflow_id = scope.workflow_id;
  return result;
}
