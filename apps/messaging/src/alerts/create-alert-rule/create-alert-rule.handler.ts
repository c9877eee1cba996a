import { DEFAULT_ALERT_MIN_VOLUME, type AlertRuleCreateRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import type { AlertRuleEntity } from '../alert.entity';
import { AlertRuleRepository } from '../alert-rule.repository';
import { ruleProblems, scopeOf } from '../alert-rule-rules';
import { alertRuleResource } from '../alert.resource';
import { AlertsException } from '../alerts.exception';
import { scopeProblems } from '../scope-rules';

/** POST /api/v1/alert-rules: `min_volume` defaults to 20, `scope` to the whole workspace, `enabled` to true. */
@Injectable()
export class CreateAlertRuleHandler {
  async handle(decision: Decision<AlertRuleCreateRequestedV1>): Promise<Answer> {
    const data = decision.data;
    const rule: Omit<AlertRuleEntity, 'id'> = {
      workspaceId: decision.workspaceId,
      name: data.name,
      metric: data.metric,
      comparator: data.comparator,
      threshold: data.threshold,
      windowMinutes: data.window_minutes,
      minVolume: data.min_volume ?? DEFAULT_ALERT_MIN_VOLUME,
      scope: scopeOf(data.scope),
      enabled: data.enabled ?? true,
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    };
    const problems = [
      ...ruleProblems(rule, { threshold: true }),
      ...(await scopeProblems(decision, rule.scope)),
    ];
    if (problems.length > 0) throw AlertsException.invalidFields(problems);
    const rules = new AlertRuleRepository(decision.manager);
    const stored: AlertRuleEntity = { ...rule, id: await rules.nextRuleId(decision.workspaceId) };
    await rules.insert(stored);
    return { status: 201, resource: { ...alertRuleResource(stored) } };
  }
}
