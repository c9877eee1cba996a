import {
  INBOUND_SENDER_REQUEST_TYPE,
  SUPPRESSION_REQUEST_TYPES,
  type ChannelType,
  type ContactInboundSenderRequestedV1,
  type MessageInboundMatchRecordedV1,
} from '@cms/contracts';
import type { EntityManager } from 'typeorm';

import type { ChannelEntity } from '../channels/channel.entity';
import { ContactEntity } from '../contacts/contact.entity';
import type { MessageEntity } from './message.entity';
import type { MessagingDecision } from '../decisions/messaging-decision';
import { applyKeyword } from '../suppressions/inbound-keyword';
import { keywordOf } from '../suppressions/inbound-keywords';
import { isPhoneChannel, phoneE164 } from '../suppressions/suppression-address';
import type { MessageStore } from './message.repository';

/** The contact a sender is on a channel: by phone, by email, or by the id linked for the channel. */
export function findSender(
  manager: EntityManager,
  workspaceId: number,
  type: ChannelType,
  from: string,
): Promise<ContactEntity | null> {
  if (isPhoneChannel(type)) {
    // Contacts hold phones in E.164; a sender's number may come in another form.
    return manager.findOneBy(ContactEntity, { workspaceId, phone: phoneE164(from) ?? from });
  }
  if (type === 'email') return manager.findOneBy(ContactEntity, { workspaceId, email: from });
  return manager
    .createQueryBuilder(ContactEntity, 'contact')
    .where('contact.workspace_id = :workspaceId', { workspaceId })
    .andWhere('contact.channels ->> :type = :from', { type, from })
    .orderBy('contact.id')
    .getOne();
}

/** A message a contact sent on a channel, as it arrived. */
export interface Inbound {
  /** The message id, derived from what records it. */
  id: string;
  from: string;
  text: string;
  providerMessageId: string | null;
  /** When it was received. */
  at: string;
  /** Who reported it: `sandbox` or `provider`. */
  source: string;
  /**
   * The provider itself reported this message as an opt-out (Twilio's OptOutType): its opt-out path
   * (source `provider`) applies, not the keyword's, so the contact is not revoked twice.
   */
  providerOptOut?: boolean;
  /**
   * The id the gateway minted for the contact an unknown sender on a phone channel becomes, and the
   * plan's stored-contacts limit it saw; without it an unknown sender stays unmatched.
   */
  newContact?: { id: number; limit: number };
}

/**
 * Records an inbound message (status `received`), matched to the contact it comes from (null when none
 * matches), and applies it when it is an opt-out or opt-in keyword; the keyword is kept on the message
 * for its message.received (one the provider reported as an opt-out is `opt_out`, whose own path
 * applies instead). The match is also appended to the log (`message.inbound-match.recorded`): its
 * decision links the message to that contact and publishes message.received (with the keyword, from
 * this decision), so a rebuild, whose contact view may hold another state than it did live, links
 * every inbound message to the contact it was matched to live. An unknown sender on a phone channel is
 * asked of the contacts service instead (`contact.inbound-sender.requested`), which finds or creates
 * the contact and appends the match.
 */
export async function recordInbound(
  decision: MessagingDecision<unknown>,
  messages: MessageStore,
  channel: Pick<ChannelEntity, 'id' | 'type' | 'metadata'>,
  inbound: Inbound,
): Promise<{ message: MessageEntity; contact: ContactEntity | null }> {
  const { workspaceId } = decision;
  const contact = await findSender(decision.manager, workspaceId, channel.type, inbound.from);
  // A message the provider reported as an opt-out is one whatever its text (its opt-out path applies).
  const keyword = inbound.providerOptOut === true ? 'opt_out' : keywordOf(inbound.text, channel.metadata);
  const at = decision.atDate;
  const message: MessageEntity = {
    id: inbound.id,
    workspaceId,
    direction: 'inbound',
    status: 'received',
    channelType: channel.type,
    channelId: channel.id,
    templateId: null,
    templateName: null,
    contactId: contact === null ? null : Number(contact.id),
    recipient: inbound.from,
    body: inbound.text,
    subject: null,
    html: null,
    providerMessageId: inbound.providerMessageId,
    workflow: null,
    campaignId: null,
    test: false,
    bot: null,
    fallbackFrom: null,
    keyword,
    failure: null,
    suppression: null,
    sentAt: null,
    deliveredAt: null,
    readAt: null,
    failedAt: null,
    history: [{ status: 'received', at: inbound.at, source: inbound.source }],
    route: null,
    idempotencyKey: null,
    createdAt: at,
    updatedAt: at,
  };
  await messages.insert(message);
  if (contact === null && isPhoneChannel(channel.type) && inbound.newContact !== undefined) {
    // The contacts service finds or creates the sender and answers with the match itself.
    const sender: ContactInboundSenderRequestedV1 = {
      message_id: message.id,
      channel: channel.type as ContactInboundSenderRequestedV1['channel'],
      phone: inbound.from,
      contact_id: inbound.newContact.id,
      contact_limit: inbound.newContact.limit,
    };
    decision.request(INBOUND_SENDER_REQUEST_TYPE, message.id, ['inbound-sender', message.id], sender);
  } else {
    const match: MessageInboundMatchRecordedV1 = { message_id: message.id, contact_id: message.contactId };
    decision.request(
      SUPPRESSION_REQUEST_TYPES.inboundMatch,
      message.id,
      ['inbound-match', message.id],
      match,
    );
  }
  if (keyword !== null && inbound.providerOptOut !== true) {
    await applyKeyword(decision, messages, channel, message, keyword, inbound.at);
  }
  return { message, contact };
}
