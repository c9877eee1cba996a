import type { ChannelEntity } from '../channels/channel.entity';
import { requestConsentChange } from '../contacts/consent-change';
import type { MessagingDecision } from '../decisions/messaging-decision';
import type { MessageEntity } from '../messages/message.entity';
import type { MessageStore } from '../messages/message.repository';
import { replyTo, type Keyword } from './inbound-keywords';
import { queueKeywordReply } from './keyword-reply';
import { senderAddress, suppressionId } from './suppression-address';
import { SuppressionList } from './suppression-list';

/**
 * What an inbound message that is a keyword does (extensions §9; `keyword` is keywordOf's, as the
 * message's decision found it): an opt-out puts the sender's address on the suppression list for the
 * channel type (reason `opted_out`, source `keyword`; an address there already keeps its entry) and
 * asks the contacts service to revoke the contact's marketing consent on the channel; an opt-in removes
 * the address's `opted_out` entry and asks for the consent to be granted. Both with source `keyword`, as of when the message was received. The list changes whether
 * or not the sender is a known contact (each entry added or removed is published as a suppression
 * fact); the consent only for one. When the channel sets a confirmation for the keyword
 * (`opt_out_reply` / `opt_in_reply`), it is queued to the sender.
 */
export async function applyKeyword(
  decision: MessagingDecision<unknown>,
  messages: MessageStore,
  channel: Pick<ChannelEntity, 'id' | 'type' | 'metadata'>,
  message: Pick<MessageEntity, 'id' | 'workspaceId' | 'recipient' | 'contactId'>,
  keyword: Keyword,
  receivedAt: string,
): Promise<void> {
  const { contactId } = message;
  if (message.recipient === null) return;
  const address = senderAddress(channel.type, message.recipient);
  const list = new SuppressionList(decision);
  if (keyword === 'opt_out') {
    await list.add({
      id: suppressionId(message.id, 'keyword'),
      workspaceId: decision.workspaceId,
      channel: channel.type,
      address,
      reason: 'opted_out',
      source: 'keyword',
      createdAt: decision.atDate,
    });
  } else {
    await list.removeOptOut(decision.workspaceId, channel.type, address);
  }
  if (contactId !== null) {
    requestConsentChange(
      decision,
      {
        contactId,
        channel: channel.type,
        granted: keyword === 'opt_in',
        source: 'keyword',
        at: receivedAt,
      },
      ['keyword', message.id, contactId, channel.type],
    );
  }
  const reply = replyTo(keyword, channel.metadata);
  if (reply !== null) await queueKeywordReply(decision, messages, channel, message, reply);
}
