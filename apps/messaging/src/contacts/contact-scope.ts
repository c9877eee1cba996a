import type { ContactEntity } from './contact.entity';

/** What a template reads as `contact`: the contact's fields under their API names. */
export interface ContactScope {
  [field: string]: unknown;
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  external_id: string | null;
  data: Record<string, unknown>;
  marketing_consent: ContactEntity['marketingConsent'];
  channels: ContactEntity['channels'];
}

/** `{{ contact.name }}`, `{{ contact.data.plan }}`: the projection row as templates see it. */
export function contactScope(contact: ContactEntity): ContactScope {
  return {
    id: contact.id,
    name: contact.name,
    phone: contact.phone,
    email: contact.email,
    external_id: contact.externalId,
    data: contact.data,
    marketing_consent: contact.marketingConsent,
    channels: contact.channels,
  };
}
