import { ALERT_FACT_TYPES, type AlertTriggeredV1 } from '@cms/contracts';
import type { Decision } from '@cms/kafka';

import type { AlertEntity, AlertRuleEntity } from './alert.entity';

export interface AlertRuleResource {
  id: number;
  name: string;
  metric: string;
  comparator: string;
  threshold: number;
  window_minutes: number;
  min_volume: number;
  scope: AlertRuleEntity['scope'];
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export type AlertResource = Omit<AlertTriggeredV1, 'notification_seq'>;

export function alertRuleResource(rule: AlertRuleEntity): AlertRuleResource {
  return {
    id: Number(rule.id),
    name: rule.name,
    metric: rule.metric,
    comparator: rule.comparator,
    threshold: Number(rule.threshold),
    window_minutes: rule.windowMinutes,
    min_volume: rule.minVolume,
    scope: rule.scope,
    enabled: rule.enabled,
    created_at: rule.createdAt.toISOString(),
    updated_at: rule.updatedAt.toISOString(),
  };
}

export function alertResource(alert: AlertEntity): AlertResource {
  return {
    id: alert.id,
    rule_id: Number(alert.ruleId),
    status: alert.status,
    metric: alert.metric,
    comparator: alert.comparator,
    value: Number(alert.value),
    threshold: Number(alert.threshold),
    window_minutes: alert.windowMinutes,
    sample_size: alert.sampleSize,
    scope: alert.scope,
    top_failure_codes: alert.topFailureCodes,
    started_at: alert.startedAt.toISOString(),
    resolved_at: alert.resolvedAt?.toISOString() ?? null,
    created_at: alert.createdAt.toISOString(),
    updated_at: alert.updatedAt.toISOString(),
  };
}

/** alert.triggered: the alert as it reads now, and which notification of it this is (1 started, 2 resolved). */
export function publishAlert(decision: Decision<unknown>, alert: AlertEntity, notificationSeq: number): void {
  decision.fact(ALERT_FACT_TYPES.alertTriggered, alert.id, (): AlertTriggeredV1 => ({
    ...alertResource(alert),
    notification_seq: notificationSeq,
  }));
}
