import { MESSAGING_FACT_TYPES, type ChannelType } from '@cms/contracts';
import type { Decision } from '@cms/kafka';
import type { EntityManager } from 'typeorm';

import type { ChannelEntity } from '../channels/channel.entity';
import { ContactEntity } from '../contacts/contact.entity';
import type { MessageEntity } from './message.entity';
import type { MessageStore } from './message.repository';
import { messageFact } from './message.resource';

const PHONE_CHANNELS: readonly ChannelType[] = ['whatsapp', 'sms', 'rcs'];

/** The contact a sender is on a channel: by phone, by email, or by the id linked for the channel. */
export function findSender(
  manager: EntityManager,
  workspaceId: number,
  type: ChannelType,
  from: string,
): Promise<ContactEntity | null> {
  if (PHONE_CHANNELS.includes(type)) return manager.findOneBy(ContactEntity, { workspaceId, phone: from });
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
}

/**
 * Records an inbound message (status `received`), matched to the contact it comes from (null when none
 * matches), and publishes message.received.
 */
export async function recordInbound(
  decision: Decision<unknown>,
  messages: MessageStore,
  channel: Pick<ChannelEntity, 'id' | 'type'>,
  inbound: Inbound,
): Promise<{ message: MessageEntity; contact: ContactEntity | null }> {
  const { workspaceId } = decision;
  const contact = await findSender(decision.manager, workspaceId, channel.type, inbound.from);
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
    fallbackFrom: null,
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
  decision.fact(MESSAGING_FACT_TYPES.messageReceived, message.id, () =>
    messageFact(message, 'received', contact, decision.at),
  );
  return { message, contact };
}
