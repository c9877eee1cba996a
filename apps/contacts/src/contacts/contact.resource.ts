import {
  CONSENT_CHANNELS,
  LINK_CHANNELS,
  type ConsentContactV1,
  type ContactChannels,
  type ContactSnapshotV1,
  type MarketingConsent,
} from '@cms/contracts';

import type { ContactEntity } from './contact.entity';
import type { ContactView } from './contact.repository';

function everyChannelConsent(contact: ContactEntity): MarketingConsent {
  return Object.fromEntries(
    CONSENT_CHANNELS.map((channel) => [channel, contact.marketingConsent[channel] ?? null]),
  ) as MarketingConsent;
}

function everyChannelLink(view: ContactView): ContactChannels {
  return Object.fromEntries(
    LINK_CHANNELS.map((channel) => [
      channel,
      view.channels.find((link) => link.channel === channel)?.externalId ?? null,
    ]),
  ) as ContactChannels;
}

/** The contact as the API answers it (extensions §2). */
export function contactResource(view: ContactView): Record<string, unknown> {
  const { contact } = view;
  return {
    id: contact.id,
    name: contact.name,
    phone: contact.phone,
    email: contact.email,
    external_id: contact.externalId,
    source: contact.source,
    data: contact.data,
    marketing_consent: everyChannelConsent(contact),
    tags: view.tags.map(({ id, name, color }) => ({ id, name, color })),
    channels: everyChannelLink(view),
    created_at: contact.createdAt.toISOString(),
    updated_at: contact.updatedAt.toISOString(),
  };
}

/**
 * A contact as an element of a batch answer: without `data` and `tags`, the parts that grow with the
 * contact. A batch holds up to 1,000 contacts, each with up to 64 KiB of data and 1,000 tags, and its
 * answer travels as one outcome record, which must stay within the record bound (extensions §6).
 */
export function batchContactResource(view: ContactView): Record<string, unknown> {
  const { data: _data, tags: _tags, ...summary } = contactResource(view);
  return summary;
}

/** The data of contact.created and contact.updated. */
export function contactSnapshot(view: ContactView, changedFields?: string[]): ContactSnapshotV1 {
  const { contact } = view;
  return {
    contact_id: contact.id,
    name: contact.name,
    phone: contact.phone,
    email: contact.email,
    external_id: contact.externalId,
    source: contact.source,
    data: contact.data,
    marketing_consent: everyChannelConsent(contact),
    tag_ids: view.tags.map((tag) => tag.id),
    channels: everyChannelLink(view),
    created_at: contact.createdAt.toISOString(),
    updated_at: contact.updatedAt.toISOString(),
    ...(changedFields !== undefined ? { changed_fields: changedFields } : {}),
  };
}

/** The contact as webhook payloads show it. */
export function webhookContact(contact: ContactEntity): ConsentContactV1 {
  return {
    id: contact.id,
    external_id: contact.externalId,
    name: contact.name,
    phone: contact.phone,
    email: contact.email,
  };
}
