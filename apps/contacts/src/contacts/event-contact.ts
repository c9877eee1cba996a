import type { EventContactBody } from '@cms/contracts';

import type { ContactChanges } from './contact-changes';
import type { ContactEntity } from './contact.entity';
import type { ContactStore } from './contact-store';
import { eventPhone } from './phone-number';

/** On events (and inbound webhook payloads), null and blank mean "not sent": they never clear a value. */
function given(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** What the contact of an event (or of an inbound webhook payload) writes. */
export function eventContactChanges(contact: EventContactBody): ContactChanges {
  const changes: ContactChanges = {};
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

/** The contact an event is about: by phone first, then external_id, then email. */
export async function matchEventContact(
  contacts: ContactStore,
  workspaceId: number,
  changes: ContactChanges,
): Promise<ContactEntity | null> {
  if (changes.phone) {
    const byPhone = await contacts.contactByPhone(workspaceId, changes.phone);
    if (byPhone) return byPhone;
  }
  if (changes.external_id) {
    const byExternalId = await contacts.contactByExternalId(workspaceId, changes.external_id);
    if (byExternalId) return byExternalId;
  }
  if (changes.email) return contacts.contactByEmail(workspaceId, changes.email);
  return null;
}
