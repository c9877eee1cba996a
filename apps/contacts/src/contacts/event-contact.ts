import type { EventContactBody } from '@cms/contracts';

import type { ContactChanges } from './contact-changes';
import { eventPhone } from './phone-number';

/** On events (and inbound webhook payloads), null and blank mean "not sent": they never clear a value. */
function given(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** What the contact of an event (or of an inbound webhook payload) writes. */
export function eventContactChanges(contact: EventContactBody): ContactChanges {
  const changes: ContactChanges = { pointer: '/data/attributes/contact' };
  const phone = given(contact.phone);
  if (phone !== undefined) changes.phone = eventPhone(phone);
  const externalId = given(contact.external_id);
  if (externalId !== undefined) changes.external_id = externalId;
  const email = given(contact.email);
  if (email !== undefined) changes.email = email;
  const name = given(contact.name);
  if (name !== undefined) changes.name = name;
  if (contact.data) changes.data = contact.data;
  if (contact.marketing_consent) changes.marketing_consent = contact.marketing_consent;
  return changes;
}
