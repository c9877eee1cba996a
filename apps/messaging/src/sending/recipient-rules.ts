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
  /** The template rendered for the contact, or a bot's text sent as written (extensions §12). */
  content: { template: TemplateEntity } | { text: string };
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
  if ('text' in message.content)
    return { kind: 'send', recipient, rendered: asWritten(channelType, message.content.text) };
  const rendered = renderTemplate(message.content.template, {
    contact: contactScope(contact),
    event: message.event as Record<string, unknown> | null,
    waited_event: message.waitedEvent as Record<string, unknown> | null,
    vars: message.variables,
  });
  if (!rendered.ok) return { kind: 'suppress', recipient, reason: 'render_error', detail: rendered.detail };
  return { kind: 'send', recipient, rendered };
}

/** Longest subject (an email's, a push notification's title) a text gets: its first line, cut here. */
export const TEXT_SUBJECT_LENGTH = 78;
/** The subject of a text with no line that is not blank. */
export const DEFAULT_TEXT_SUBJECT = 'Message';

/** The channel types whose messages have a subject besides their body: an email's, a push's title. */
const SUBJECT_CHANNELS: readonly ChannelType[] = ['email', 'browser_push'];

/**
 * A text sent as written (a bot's, extensions §12): the body on every channel, unchanged; an email's
 * subject and a push notification's title are its first line that is not blank, trimmed and cut to
 * TEXT_SUBJECT_LENGTH characters (DEFAULT_TEXT_SUBJECT when it has none); no HTML (email sends the text
 * part) and no provider template (WhatsApp sends a text message, which only goes within its window).
 */
export function asWritten(type: ChannelType, text: string): RenderedTemplate {
  const firstLine =
    text
      .split(/\r?\n/)
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  return {
    ok: true,
    subject: SUBJECT_CHANNELS.includes(type)
      ? firstLine.slice(0, TEXT_SUBJECT_LENGTH) || DEFAULT_TEXT_SUBJECT
      : null,
    body: text,
    html: null,
    parameters: [],
  };
}

function addressName(type: ChannelType): string {
  if (PHONE_CHANNELS.includes(type)) return 'phone number';
  if (type === 'email') return 'email address';
  return `linked ${type} id`;
}
