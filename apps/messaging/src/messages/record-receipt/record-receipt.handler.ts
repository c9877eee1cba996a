import type { MessageReceiptRecordedV1, MessageTimeoutRecordedV1 } from '@cms/contracts';
import type { Answer } from '@cms/kafka';
import { Injectable } from '@nestjs/common';

import type { MessagingDecision } from '../../decisions/messaging-decision';
import { receiptTimerId, timeoutTimerId } from '../message-ids';
import { reached } from '../message-lifecycle';
import { fallBack, reportStatus } from '../status-change';

const RECORDED: Answer = { status: 202 };

/** Receipts (sandbox timers, provider callbacks) and the ends of route steps' waits, in log order. */
@Injectable()
export class RecordReceiptHandler {
  /** A later status of a sent message: a forward move and its fact, or history only when late. */
  async receipt(decision: MessagingDecision<MessageReceiptRecordedV1>): Promise<Answer> {
    const { data, workspaceId, store: messages } = decision;
    const taken = await messages.take(workspaceId, data.message_id, {
      sendJob: false,
      timers: [receiptTimerId(data.message_id, data.status)],
    });
    if (taken === null) return RECORDED;
    const report = { status: data.status, at: data.at, source: data.source, failure: data.failure ?? null };
    await reportStatus(decision, messages, taken.message, report, taken.contact);
    return RECORDED;
  }

  /** The step waited for a status that did not come in time: the route moves on. */
  async timeout(decision: MessagingDecision<MessageTimeoutRecordedV1>): Promise<Answer> {
    const { data, workspaceId, store: messages } = decision;
    await messages.removeTimers([timeoutTimerId(data.message_id, data.step)]);
    const message = await messages.find(workspaceId, data.message_id);
    const route = message?.route;
    if (!message || !route || route.step !== data.step) return RECORDED;
    const waitFor = route.steps[route.step]?.wait_for ?? null;
    if (waitFor === null || reached(message.status, waitFor)) return RECORDED;
    // A message that failed or was suppressed ended its route already, or moved it on itself.
    if (message.status === 'failed' || message.status === 'suppressed') return RECORDED;
    await fallBack(decision, messages, message);
    return RECORDED;
  }
}
