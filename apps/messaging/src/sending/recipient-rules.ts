import type { ChannelType, MessagePurpose, SuppressionReason } from '@cms/contracts';

import type { ContactEntity } from '../contacts/contact.entity';
import type { TemplateEvent } from '../messages/message.entity';
import { contactScope } from '../contacts/contact-scope';
import type { TemplateEntity } from '../templates/template.entity';
import { renderTemplate, type RenderedTemplate } from '../templates/render/liquid-renderer';

const PHONE_CHANNELS: readonly ChannelType[] = ['whatsapp', 'sms', 'rcs'];

/** The address a channel type reaches a contact at: phone, email, or the id linked for the channel. */
export function recipientOf(type: ChannelType, contact: ContactEntity): string | null {
  if (PHONE_CHANNELS.includes(type)) return contact.phone;
  if (type === 'email') return contact.email;
  return contact.channels[type as keyof ContactEntity['channels']] ?? null;
}

export interface MessageToCheck {
  channelType: ChannelType;
  purpose: MessagePurpose;
  variables: Record<string, unknown>;
  /** The events a workflow's message renders with (null on a message of the messages API). */
  event: TemplateEvent | null;
  waitedEvent: TemplateEvent | null;
  contact: ContactEntity;
  template: TemplateEntity;
  /** Whether the recipient is on the workspace's suppression list for the channel type. */
  isSuppressed(address: string): boolean;
}

export type Verdict =
  | { kind: 'send'; recipient: string; rendered: RenderedTemplate }
  | { kind: 'suppress'; recipient: string | null; reason: SuppressionReason; detail: string };

/**
 * Who may be messaged (extensions §9), checked when the message is about to be sent, in this order:
 * the contact has an address on the channel, the address is not suppressed, a marketing message has
 * the contact's consent on the channel, the template renders for the contact.
 */
export function whoMayBeMessaged(message: MessageToCheck): Verdict {
  const { channelType, contact } = message;
  const recipient = recipientOf(channelType, contact);
  if (recipient === null || recipient === '') {
    return {
      kind: 'suppress',
      recipient: null,
      reason: 'no_recipient',
      detail: `Contact ${contact.id} has no ${addressName(channelType)}.`,
    };
  }
  if (message.isSuppressed(recipient)) {
    return {
      kind: 'suppress',
      recipient,
      reason: 'suppressed_address',
      detail: `${recipient} is on the workspace's suppression list for ${channelType}.`,
    };
  }
  if (message.purpose === 'marketing' && contact.marketingConsent[channelType] !== true) {
    return {
      kind: 'suppress',
      recipient,
      reason: 'no_consent',
      detail: `Contact ${contact.id} has not given marketing consent on ${channelType}.`,
    };
  }
  const rendered = renderTemplate(message.template, {
    contact: contactScope(contact),
    event: message.event as Record<string, unknown> | null,
    waited_event: message.waitedEvent as Record<string, unknown> | null,
    vars: message.variables,
  });
  if (!rendered.ok) return { kind: 'suppress', recipient, reason: 'render_error', detail: rendered.detail };
  return { kind: 'send', recipient, rendered };
}

function addressName(type: ChannelType): string {
  if (PHONE_CHANNELS.includes(type)) return 'phone number';
  if (type === 'email') return 'email address';
  return `linked ${type} id`;
}
