import type { AlertRuleUpdateRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import type { AlertRuleEntity } from '../alert.entity';
import { AlertRuleRepository } from '../alert-rule.repository';
import { redefines, ruleProblems, scopeOf } from '../alert-rule-rules';
import { alertRuleResource } from '../alert.resource';
import { AlertsException } from '../alerts.exception';
import { resolveFiringAlert } from '../resolve-on-change';
import { scopeProblems } from '../scope-rules';

/** PATCH /api/v1/alert-rules/{id}: only the fields sent change; `scope` is replaced as a whole. */
@Injectable()
export class UpdateAlertRuleHandler {
  async handle(decision: Decision<AlertRuleUpdateRequestedV1>): Promise<Answer> {
    const data = decision.data;
    const rules = new AlertRuleRepository(decision.manager);
    const before = await rules.findInWorkspace(decision.workspaceId, data.rule_id);
    if (before === null) throw AlertsException.ruleNotFound(data.rule_id);
    const after: AlertRuleEntity = {
      ...before,
      ...(data.name !== undefined ? { name: data.name } : {}),
      ...(data.metric !== undefined ? { metric: data.metric } : {}),
      ...(data.comparator !== undefined ? { comparator: data.comparator } : {}),
      ...(data.threshold !== undefined ? { threshold: data.threshold } : {}),
      ...(data.window_minutes !== undefined ? { windowMinutes: data.window_minutes } : {}),
      ...(data.min_volume !== undefined ? { minVolume: data.min_volume } : {}),
      ...(data.scope !== undefined ? { scope: scopeOf(data.scope) } : {}),
      ...(data.enabled !== undefined ? { enabled: data.enabled } : {}),
      updatedAt: decision.atDate,
    };
    const problems = [
      ...ruleProblems(after, { threshold: data.threshold !== undefined }),
      ...(data.scope !== undefined ? await scopeProblems(decision, after.scope) : []),
    ];
    if (problems.length > 0) throw AlertsException.invalidFields(problems);
    if (redefines(before, after)) await resolveFiringAlert(decision, rules, before.id);
    await rules.save(after);
    return { status: 200, resource: { ...alertRuleResource(after) } };
  }
}
