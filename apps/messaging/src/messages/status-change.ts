import { failureOf, isFailureCode, MESSAGING_FACT_TYPES, type MessageFailureV1 } from '@cms/contracts';
import type { Decision } from '@cms/kafka';

import { monitorStatusChange } from '../alerts/alert-outcomes';
import type { ContactEntity } from '../contacts/contact.entity';
import type { MessageEntity, MessageHistoryEntry, SuppressionEntity } from './message.entity';
import { fallbackMessageId, timeoutTimerId } from './message-ids';
import { fallsBack, movesForward, reached, stampedColumn, suppressionReasonOf } from './message-lifecycle';
import type { MessageStore } from './message.repository';
import { messageFact } from './message.resource';
import { queueMessage } from './queue-message';
import { suppressionId } from '../suppressions/suppression-address';
import { publishSuppressionChange } from '../suppressions/suppression-list';

const FACT_OF_STATUS: Readonly<Record<string, string>> = {
  sent: MESSAGING_FACT_TYPES.messageSent,
  delivered: MESSAGING_FACT_TYPES.messageDelivered,
  read: MESSAGING_FACT_TYPES.messageRead,
  failed: MESSAGING_FACT_TYPES.messageFailed,
  suppressed: MESSAGING_FACT_TYPES.messageSuppressed,
};

/** A status a message is told it reached, with what comes with it. */
export interface StatusReport {
  status: 'sent' | 'delivered' | 'read' | 'failed' | 'suppressed';
  /** When it happened (the attempt's or the receipt's time). */
  at: string;
  source: string;
  /** The other columns the change sets (recipient, body, provider id, suppression). */
  changes?: Partial<MessageEntity>;
  failure?: MessageFailureV1 | null;
}

/** A message's `failure` from a reported one: the code's reason and fix, and the provider's code. */
function failureColumn(failure: MessageFailureV1): NonNullable<MessageEntity['failure']> {
  if (isFailureCode(failure.code)) return failureOf(failure.code, failure.provider_code ?? null);
  return { ...failureOf('provider_error', failure.provider_code ?? null), code: failure.code };
}

/**
 * Applies a reported status to a message (extensions §9, Statuses): a forward move changes the
 * message, stamps its time and publishes its fact (each at most once, since a status is never
 * reached twice); a late one, or any for a message its route replaced, is kept in history only.
 * Returns whether the message moved.
 */
export async function reportStatus(
  decision: Decision<unknown>,
  messages: MessageStore,
  message: MessageEntity,
  report: StatusReport,
  /** The message's contact, when the caller read it already. */
  knownContact?: ContactEntity | null,
): Promise<boolean> {
  const entry: MessageHistoryEntry = { status: report.status, at: report.at, source: report.source };
  // The same report again (a worker's record the relay published twice after a crash, a provider
  // repeating a callback word for word): it was decided the first time, and changes nothing.
  if (message.history.some((seen) => sameReport(seen, entry))) return false;
  const replaced = await isReplaced(messages, message);
  if (replaced || !movesForward(message.status, report.status)) {
    message.history = [...message.history, { ...entry, ignored: true }];
    message.updatedAt = decision.atDate;
    await messages.update(message.id, { history: message.history, updatedAt: message.updatedAt });
    return false;
  }
  const previous = message.status;
  const changes: Partial<MessageEntity> = {
    ...report.changes,
    status: report.status,
    history: [...message.history, entry],
    updatedAt: decision.atDate,
  };
  const stamp = stampedColumn(report.status);
  if (stamp !== undefined) changes[stamp] = new Date(report.at);
  if (report.failure) changes.failure = failureColumn(report.failure);
  Object.assign(message, changes);
  await messages.update(message.id, changes);
  const contact =
    knownContact !== undefined
      ? knownContact
      : await messages.contact(decision.workspaceId, message.contactId);
  decision.fact(FACT_OF_STATUS[report.status]!, message.id, () =>
    messageFact(message, report.status, contact, decision.at),
  );
  await monitorStatusChange(decision, messages, message, previous);
  if (message.failure !== null && report.status === 'failed')
    await suppressAfter(decision, messages, message);
  await followRoute(decision, messages, message);
  return true;
}

function sameReport(seen: MessageHistoryEntry, entry: MessageHistoryEntry): boolean {
  return (
    seen.status === entry.status &&
    seen.source === entry.source &&
    new Date(seen.at).getTime() === new Date(entry.at).getTime()
  );
}

/** Whether the route already moved on from this message. */
async function isReplaced(messages: MessageStore, message: MessageEntity): Promise<boolean> {
  if (message.route === null || message.route.step + 1 >= message.route.steps.length) return false;
  return messages.exists(fallbackMessageId(message.id, message.route.step + 1));
}

/** A provider's opt-out, hard bounce or complaint puts the address on the suppression list (source provider). */
async function suppressAfter(
  decision: Decision<unknown>,
  messages: MessageStore,
  message: MessageEntity,
): Promise<void> {
  const reason = suppressionReasonOf(message.failure!.code);
  if (reason === undefined || message.recipient === null) return;
  const entry: SuppressionEntity = {
    id: suppressionId(message.id, 'suppression'),
    workspaceId: decision.workspaceId,
    channel: message.channelType,
    address: message.recipient,
    reason,
    source: 'provider',
    createdAt: decision.atDate,
  };
  if (await messages.addSuppression(entry)) publishSuppressionChange(decision, 'added', entry);
}

/**
 * What the route does after a move: the wait of the step ends once its status came or the message
 * ended, and a failure or suppression that §9 names moves the route to its next step.
 */
async function followRoute(
  decision: Decision<unknown>,
  messages: MessageStore,
  message: MessageEntity,
): Promise<void> {
  const route = message.route;
  if (route === null) return;
  const step = route.steps[route.step]!;
  const ended = message.status === 'failed' || message.status === 'suppressed';
  if (step.wait_for !== null && (ended || reached(message.status, step.wait_for))) {
    await messages.removeTimers([timeoutTimerId(message.id, route.step)]);
  }
  if (!ended) return;
  const moves = fallsBack({
    failureCode: message.failure?.code ?? null,
    suppressionReason: message.suppression?.reason ?? null,
  });
  if (moves) await fallBack(decision, messages, message);
}

/**
 * The message of the route's next step, replacing `message` (fallback_from): its own id derived from
 * the one it replaces, its own send job. Nothing when the route has no next step or moved on already.
 */
export async function fallBack(
  decision: Decision<unknown>,
  messages: MessageStore,
  message: MessageEntity,
): Promise<void> {
  const route = message.route;
  if (route === null || message.contactId === null) return;
  const next = route.step + 1;
  const step = route.steps[next];
  if (step === undefined) return;
  const id = fallbackMessageId(message.id, next);
  if (await messages.exists(id)) return;
  const { workspaceId } = decision;
  // A channel or template deleted since the route was accepted: the send worker reports it.
  const channel = (await messages.channel(workspaceId, step.channel_id!)) ?? {
    id: step.channel_id!,
    type: step.channel,
  };
  const template =
    step.template_id === null
      ? null
      : ((await messages.template(workspaceId, step.template_id)) ?? { id: step.template_id, name: null });
  await queueMessage(decision, messages, {
    id,
    route: { ...route, step: next },
    channel,
    template,
    contactId: message.contactId,
    fallbackFrom: message.id,
    idempotencyKey: null,
    source: 'service',
    workflow: message.workflow,
    campaignId: message.campaignId,
    test: message.test,
    bot: message.bot,
  });
}
