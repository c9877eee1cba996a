import { deterministicId } from '@cms/contracts';
import type { Decision } from '@cms/kafka';

import type { MessageEntity } from '../messages/message.entity';
import type { MessageStore, NewTimer } from '../messages/message.repository';
import type { OutcomeKind } from './alert-metrics';
import type { AlertChange } from './alert-monitor';
import type { AlertEntity } from './alert.entity';
import { publishAlert } from './alert.resource';

/** The timer kind of a firing alert's check (the timer's `message_id` holds the alert id). */
export const ALERT_CHECK_TIMER = 'alert';

/**
 * The outcome a move from `previous` gives an outbound message, if it is its first: delivered (or
 * read without delivered before it), failed, suppressed. Sent is no outcome; each message has at most one.
 */
export function outcomeOfMove(previous: string, next: string): OutcomeKind | null {
  switch (next) {
    case 'failed':
    case 'suppressed':
    case 'delivered':
      return next;
    case 'read':
      return previous === 'delivered' ? null : 'delivered';
    default:
      return null;
  }
}

/** The check of a firing alert at `dueAt`: fires as an alert.check.recorded record. */
export function alertCheckTimer(workspaceId: number, alert: AlertEntity, dueAt: Date): NewTimer {
  return {
    id: deterministicId(alert.id, 'check', dueAt.toISOString()),
    workspaceId,
    messageId: alert.id,
    kind: ALERT_CHECK_TIMER,
    payload: { alert_id: alert.id, rule_id: Number(alert.ruleId) },
    dueAt,
  };
}

/** Publishes each alert that started or resolved and sets the check of each that fires on. */
export async function announceAlertChanges(
  decision: Decision<unknown>,
  messages: MessageStore,
  changes: AlertChange[],
): Promise<void> {
  const timers: NewTimer[] = [];
  for (const change of changes) {
    publishAlert(decision, change.alert, change.notificationSeq);
    if (change.checkAt !== null)
      timers.push(alertCheckTimer(decision.workspaceId, change.alert, change.checkAt));
  }
  if (timers.length > 0) await messages.addTimers(timers);
}

/**
 * Delivery monitoring of a status change (extensions §10): the message's outcome, if the move gave it
 * one, is counted at the decision's time and the workspace's rules are judged there. A workspace with
 * no enabled rule costs the first look of its chunk (or of its record) and nothing more.
 */
export async function monitorStatusChange(
  decision: Decision<unknown>,
  messages: MessageStore,
  message: MessageEntity,
  previous: string,
): Promise<void> {
  if (message.direction !== 'outbound') return;
  const kind = outcomeOfMove(previous, message.status);
  if (kind === null) return;
  const monitor = await messages.alertMonitor(decision.workspaceId, decision.atDate);
  if (monitor === null) return;
  const changes = monitor.record(
    {
      kind,
      failureCode: kind === 'failed' ? (message.failure?.code ?? null) : null,
      channelId: Number(message.channelId),
      workflowId: message.workflow?.id ?? 0,
      campaignId: message.campaignId === null ? 0 : Number(message.campaignId),
    },
    decision.atDate,
    decision.record.id,
  );
  await messages.saveAlertMonitor(monitor);
  await announceAlertChanges(decision, messages, changes);
}
