import { MESSAGING_FACT_TYPES } from '@cms/contracts';
import type { Decision } from '@cms/kafka';

import type { ChannelEntity } from '../channels/channel.entity';
import type { MessageEntity, MessageRoute } from './message.entity';
import { timeoutTimerId } from './message-ids';
import type { MessageStore } from './message.repository';
import { messageFact } from './message.resource';

export interface MessageToQueue {
  id: string;
  route: MessageRoute;
  channel: Pick<ChannelEntity, 'id' | 'type'>;
  /** Null for a bot's text message. */
  template: { id: number; name: string | null } | null;
  contactId: number;
  fallbackFrom: string | null;
  idempotencyKey: string | null;
  /**
   * Who asked: `api` for the customer's request, `service` for a route moving on, a workflow or a
   * notification send.
   */
  source: 'api' | 'service';
  /** The workflow step that made it (every message of its route carries it), or null. */
  workflow: MessageEntity['workflow'];
  /** The notification send that made it (every message of its route carries it), or null. */
  campaignId: number | null;
  /** Made by a notification's test send (so is every message of its route). */
  test: boolean;
  /** The bot conversation that made it, or null. */
  bot: MessageEntity['bot'];
}

/**
 * A message of a route step, queued: its row, its send job (due now), the end of its step's wait when
 * the step waits for a status, and the message.queued fact.
 */
export async function queueMessage(
  decision: Decision<unknown>,
  messages: MessageStore,
  input: MessageToQueue,
): Promise<MessageEntity> {
  const at = decision.atDate;
  const message: MessageEntity = {
    id: input.id,
    workspaceId: decision.workspaceId,
    direction: 'outbound',
    status: 'queued',
    channelType: input.channel.type,
    channelId: input.channel.id,
    templateId: input.template?.id ?? null,
    templateName: input.template?.name ?? null,
    contactId: input.contactId,
    recipient: null,
    body: null,
    subject: null,
    html: null,
    providerMessageId: null,
    workflow: input.workflow,
    campaignId: input.campaignId,
    test: input.test,
    bot: input.bot,
    fallbackFrom: input.fallbackFrom,
    keyword: null,
    failure: null,
    suppression: null,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
    failedAt: null,
    history: [{ status: 'queued', at: decision.at, source: input.source }],
    route: input.route,
    idempotencyKey: input.idempotencyKey,
    createdAt: at,
    updatedAt: at,
  };
  await messages.insert(message);
  await messages.addSendJob({
    messageId: message.id,
    workspaceId: decision.workspaceId,
    dueAt: at,
    bulk: input.campaignId !== null && !input.test,
  });
  const step = input.route.steps[input.route.step]!;
  if (step.wait_for !== null && step.timeout_ms !== null) {
    await messages.addTimers([
      {
        id: timeoutTimerId(message.id, input.route.step),
        workspaceId: decision.workspaceId,
        messageId: message.id,
        kind: 'timeout',
        payload: { message_id: message.id, step: input.route.step },
        dueAt: new Date(at.getTime() + step.timeout_ms),
      },
    ]);
  }
  const contact = await messages.contact(decision.workspaceId, input.contactId);
  decision.fact(MESSAGING_FACT_TYPES.messageQueued, message.id, () =>
    messageFact(message, 'queued', contact, decision.at),
  );
  return message;
}
