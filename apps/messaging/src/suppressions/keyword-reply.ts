import { deterministicId, MESSAGING_FACT_TYPES } from '@cms/contracts';

import type { ChannelEntity } from '../channels/channel.entity';
import type { MessagingDecision } from '../decisions/messaging-decision';
import type { MessageEntity } from '../messages/message.entity';
import type { MessageStore } from '../messages/message.repository';
import { messageFact } from '../messages/message.resource';

/** The id of the confirmation a keyword message is answered with: one, however often it is decided. */
export function keywordReplyId(inboundMessageId: string): string {
  return `msg_${deterministicId(inboundMessageId, 'keyword-reply').replace(/-/g, '')}`;
}

/**
 * Queues the channel's confirmation of a keyword (metadata `opt_out_reply` / `opt_in_reply`) to the
 * sender, on the channel the keyword came in on. Its recipient and body are fixed here, so the send
 * worker checks neither the suppression list nor the consent (a transactional confirmation: the
 * confirmation of an opt-out is never itself suppressed); otherwise it is a message like any other,
 * with its statuses, history and message.* webhooks.
 */
export async function queueKeywordReply(
  decision: MessagingDecision<unknown>,
  messages: MessageStore,
  channel: Pick<ChannelEntity, 'id' | 'type'>,
  inbound: Pick<MessageEntity, 'id' | 'recipient' | 'contactId'>,
  text: string,
): Promise<void> {
  const id = keywordReplyId(inbound.id);
  if (await messages.exists(id)) return;
  const at = decision.atDate;
  const message: MessageEntity = {
    id,
    workspaceId: decision.workspaceId,
    direction: 'outbound',
    status: 'queued',
    channelType: channel.type,
    channelId: channel.id,
    templateId: null,
    templateName: null,
    contactId: inbound.contactId,
    // The address the keyword came from, as the provider gave it: where the reply goes.
    recipient: inbound.recipient,
    body: text,
    subject: null,
    html: null,
    providerMessageId: null,
    workflow: null,
    campaignId: null,
    test: false,
    bot: null,
    fallbackFrom: null,
    keyword: null,
    failure: null,
    suppression: null,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
    failedAt: null,
    history: [{ status: 'queued', at: decision.at, source: 'service' }],
    route: null,
    idempotencyKey: null,
    createdAt: at,
    updatedAt: at,
  };
  await messages.insert(message);
  await messages.addSendJob({ messageId: id, workspaceId: decision.workspaceId, dueAt: at, bulk: false });
  const contact = await messages.contact(decision.workspaceId, inbound.contactId);
  decision.fact(MESSAGING_FACT_TYPES.messageQueued, id, () =>
    messageFact(message, 'queued', contact, decision.at),
  );
}
