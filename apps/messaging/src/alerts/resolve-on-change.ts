import type { Decision } from '@cms/kafka';

import type { AlertEntity } from './alert.entity';
import { upsertAlerts } from './alert-monitor.repository';
import type { AlertRuleRepository } from './alert-rule.repository';
import { publishAlert } from './alert.resource';

/**
 * A rule redefined, switched off or deleted while it fires: its alert was about the rule as it was,
 * so it resolves now (the value and sample of its start kept) and its second notification is sent.
 */
export async function resolveFiringAlert(
  decision: Decision<unknown>,
  rules: AlertRuleRepository,
  ruleId: number,
): Promise<void> {
  const alert = await rules.firingAlertOf(decision.workspaceId, ruleId);
  if (alert === null) return;
  const resolved: AlertEntity = {
    ...alert,
    status: 'resolved',
    resolvedAt: decision.atDate,
    updatedAt: decision.atDate,
  };
  await upsertAlerts(decision.manager, [resolved]);
  publishAlert(decision, resolved, 2);
}
