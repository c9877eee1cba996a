import {
  MESSAGING_FACT_TYPES,
  type ChannelType,
  type MessagingChannelSandboxInboundRequestedV1,
} from '@cms/contracts';
import type { Answer, Decision } from '@cms/kafka';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { ContactEntity } from '../../contacts/contact.entity';
import { MessagingException } from '../../decisions/messaging.exception';
import type { MessageEntity } from '../message.entity';
import { messageIdOfRecord } from '../message-ids';
import { MessageRepository } from '../message.repository';
import { messageFact, messageResource } from '../message.resource';

const PHONE_CHANNELS: readonly ChannelType[] = ['whatsapp', 'sms', 'rcs'];

/** The contact a sender is on a channel: by phone, by email, or by the id linked for the channel. */
function findSender(
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

/**
 * `POST /api/v1/channels/{id}/sandbox/inbound` (§9.5): an inbound message from `from` on a sandbox
 * channel, recorded and matched to the contact it comes from (null when none matches). Opt-out and
 * opt-in keywords, and creating unknown senders as contacts, are decided with inbound messages from
 * providers, a later part of the service.
 */
@Injectable()
export class SandboxInboundHandler {
  async handle(decision: Decision<MessagingChannelSandboxInboundRequestedV1>): Promise<Answer> {
    const { data, workspaceId } = decision;
    const messages = new MessageRepository(decision.manager);
    const channel = await messages.channel(workspaceId, data.channel_id);
    if (channel === null || channel.provider !== 'sandbox') {
      throw MessagingException.notASandboxChannel(data.channel_id);
    }
    const contact = await findSender(decision.manager, workspaceId, channel.type, data.from);
    const at = decision.atDate;
    const message: MessageEntity = {
      id: messageIdOfRecord(decision.record.id),
      workspaceId,
      direction: 'inbound',
      status: 'received',
      channelType: channel.type,
      channelId: channel.id,
      templateId: null,
      templateName: null,
      contactId: contact === null ? null : Number(contact.id),
      recipient: data.from,
      body: data.text,
      subject: null,
      html: null,
      providerMessageId: null,
      workflow: null,
      campaignId: null,
      fallbackFrom: null,
      failure: null,
      suppression: null,
      sentAt: null,
      deliveredAt: null,
      readAt: null,
      failedAt: null,
      history: [{ status: 'received', at: decision.at, source: 'sandbox' }],
      route: null,
      idempotencyKey: null,
      createdAt: at,
      updatedAt: at,
    };
    await messages.insert(message);
    decision.fact(MESSAGING_FACT_TYPES.messageReceived, message.id, () =>
      messageFact(message, 'received', contact, decision.at),
    );
    return { status: 202, resource: { ...messageResource(message) } };
  }
}
