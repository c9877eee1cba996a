import type { AlertCheckRecordedV1 } from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import type { MessagingDecision } from '../../decisions/messaging-decision';
import { announceAlertChanges, alertCheckTimer } from '../alert-outcomes';

const RECORDED: Answer = { status: 202 };

/**
 * A firing alert's check, from the timer worker: with no status change in its scope since, only time
 * can resolve it (a whole window without outcomes, or one back within the threshold). Judged at the
 * record's time, like a status change, so a rebuild resolves it at the same moment.
 */
@Injectable()
export class CheckAlertHandler {
  async handle(decision: MessagingDecision<AlertCheckRecordedV1>): Promise<Answer> {
    const { store } = decision;
    const monitor = await store.alertMonitor(decision.workspaceId, decision.atDate);
    if (monitor === null) return RECORDED;
    const { alert_id: alertId, rule_id: ruleId } = decision.data;
    const { resolved, checkAgainAt } = monitor.check(ruleId, alertId, decision.atDate, decision.record.id);
    if (resolved !== null) {
      await store.saveAlertMonitor(monitor);
      await announceAlertChanges(decision, store, [resolved]);
    } else if (checkAgainAt !== null) {
      const alert = monitor.firingAlert(ruleId)!;
      await store.addTimers([alertCheckTimer(decision.workspaceId, alert, checkAgainAt)]);
    }
    return RECORDED;
  }
}
