import type { AlertRuleDeleteRequestedV1 } from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import { AlertRuleRepository } from '../alert-rule.repository';
import { AlertsException } from '../alerts.exception';
import { resolveFiringAlert } from '../resolve-on-change';

/** DELETE /api/v1/alert-rules/{id}: its alerts stay readable; a firing one resolves. */
@Injectable()
export class DeleteAlertRuleHandler {
  async handle(decision: Decision<AlertRuleDeleteRequestedV1>): Promise<Answer> {
    const { rule_id: ruleId } = decision.data;
    const rules = new AlertRuleRepository(decision.manager);
    if ((await rules.findInWorkspace(decision.workspaceId, ruleId)) === null) {
      throw AlertsException.ruleNotFound(ruleId);
    }
    await resolveFiringAlert(decision, rules, ruleId);
    await rules.delete(decision.workspaceId, ruleId);
    return { status: 204 };
  }
}
