import type { MessageFactV1, MessagePurpose } from '@cms/contracts';

import type { ContactEntity } from '../contacts/contact.entity';
import type { LinkResource } from '../links/link-rows';
import type { MessageEntity, MessageHistoryEntry } from './message.entity';

/** A message as the API answers it (extensions §9, Messages). */
export interface MessageResource {
  id: string;
  direction: 'outbound' | 'inbound';
  status: string;
  channel: string;
  channel_id: number;
  recipient: string | null;
  template: string | null;
  contact_id: number | null;
  workflow: MessageEntity['workflow'];
  campaign_id: number | null;
  /** Made by a notification's test send (extensions §13). */
  test: boolean;
  /** The bot conversation that made it (extensions §12); null otherwise. */
  bot: MessageEntity['bot'];
  /** As its sender gave it (extensions §12: every message answers it); null for an inbound message. */
  purpose: MessagePurpose | null;
  fallback_from: string | null;
  failure: MessageEntity['failure'];
  suppression: MessageEntity['suppression'];
  body: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  failed_at: string | null;
  history: MessageHistoryEntry[];
  /** Tracked links with their click counts (§10), in link order. */
  links: LinkResource[];
  created_at: string;
  updated_at: string;
}

function iso(value: Date | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

export function messageResource(message: MessageEntity, links: LinkResource[] = []): MessageResource {
  return {
    id: message.id,
    direction: message.direction,
    status: message.status,
    channel: message.channelType,
    channel_id: Number(message.channelId),
    recipient: message.recipient,
    template: message.templateName,
    contact_id: message.contactId === null ? null : Number(message.contactId),
    workflow: message.workflow,
    campaign_id: message.campaignId === null ? null : Number(message.campaignId),
    test: message.test,
    bot: message.bot ?? null,
    // A keyword's confirmation has no route: it is transactional, as every reply to a contact is.
    purpose: message.direction === 'inbound' ? null : (message.route?.purpose ?? 'transactional'),
    fallback_from: message.fallbackFrom,
    failure: message.failure,
    suppression: message.suppression,
    body: message.body,
    sent_at: iso(message.sentAt),
    delivered_at: iso(message.deliveredAt),
    read_at: iso(message.readAt),
    failed_at: iso(message.failedAt),
    history: message.history,
    links,
    created_at: iso(message.createdAt)!,
    updated_at: iso(message.updatedAt)!,
  };
}

/** The contact block of message.* webhooks: what the messaging service knows of the contact now. */
export function contactBlock(
  contactId: number | null,
  contact: ContactEntity | null,
): MessageFactV1['contact'] {
  return {
    id: contact !== null ? Number(contact.id) : contactId,
    external_id: contact?.externalId ?? null,
    name: contact?.name ?? null,
    phone: contact?.phone ?? null,
    email: contact?.email ?? null,
  };
}

/**
 * The data of a message.* fact: the message after the change, reporting `status`; an inbound message's
 * also says which keyword its text was, if any.
 */
export function messageFact(
  message: MessageEntity,
  status: string,
  contact: ContactEntity | null,
  at: string,
): MessageFactV1 {
  const resource = messageResource(message);
  return {
    id: resource.id,
    direction: resource.direction,
    status,
    channel: message.channelType,
    channel_id: resource.channel_id,
    recipient: resource.recipient,
    template: resource.template,
    workflow: resource.workflow,
    campaign_id: resource.campaign_id,
    test: resource.test,
    bot: resource.bot,
    fallback_from: resource.fallback_from,
    failure: resource.failure,
    suppression: resource.suppression,
    contact: contactBlock(resource.contact_id, contact),
    sent_at: resource.sent_at,
    delivered_at: resource.delivered_at,
    read_at: resource.read_at,
    failed_at: resource.failed_at,
    body: resource.body,
    // What the inbound text was to the channel (for bots: an opt-out or opt-in is never theirs).
    ...(message.direction === 'inbound' ? { keyword: message.keyword ?? null } : {}),
    at,
  };
}
