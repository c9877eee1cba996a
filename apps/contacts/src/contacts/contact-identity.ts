import { SCALAR_FIELDS, type ContactChanges, type ContactValues } from './contact-changes';
import type { ContactEntity } from './contact.entity';
import type { ContactStore } from './contact-store';

/**
 * The values that identify a contact within its workspace, in the order a write is matched by them.
 * At most one contact of a workspace holds each (extensions §2; emails whatever their case).
 */
export const IDENTIFIER_FIELDS = ['phone', 'external_id', 'email'] as const;
export type IdentifierField = (typeof IDENTIFIER_FIELDS)[number];

function isIdentifier(field: string): field is IdentifierField {
  return (IDENTIFIER_FIELDS as readonly string[]).includes(field);
}

/** The contact of the workspace that holds `value` as its `field`, if any. */
export function holderOf(
  contacts: ContactStore,
  workspaceId: number,
  field: IdentifierField,
  value: string,
): Promise<ContactEntity | null> {
  switch (field) {
    case 'phone':
      return contacts.contactByPhone(workspaceId, value);
    case 'external_id':
      return contacts.contactByExternalId(workspaceId, value);
    case 'email':
      return contacts.contactByEmail(workspaceId, value);
  }
}

/** The contact a write is about: the holder of its phone, else of its external_id, else of its email. */
export async function matchContact(
  contacts: ContactStore,
  workspaceId: number,
  changes: ContactChanges,
): Promise<ContactEntity | null> {
  for (const field of IDENTIFIER_FIELDS) {
    const value = changes[field];
    if (!value) continue;
    const holder = await holderOf(contacts, workspaceId, field, value);
    if (holder) return holder;
  }
  return null;
}

export interface ClaimedIdentifier {
  field: IdentifierField;
  value: string;
}

/**
 * The identifiers a write gave a contact (`before` → `after`): another contact holding one of them must
 * give it up. A value the write did not take (an older write loses to a newer value) claims nothing.
 */
export function claimedIdentifiers(before: ContactValues, after: ContactValues): ClaimedIdentifier[] {
  const claimed: ClaimedIdentifier[] = [];
  for (const field of IDENTIFIER_FIELDS) {
    const value = after[field];
    if (value !== null && value !== before[field]) claimed.push({ field, value });
  }
  return claimed;
}

/**
 * A contact's values once it gave `fields` up to the contact a write at `at` named them for. The loss
 * wins whatever time the value was written at (two holders are never allowed); the value's time moves
 * to `at` unless it was later, so an older write cannot hand the value back over the move.
 */
export function releaseIdentifiers(
  current: ContactValues,
  fields: readonly IdentifierField[],
  at: string,
): { values: ContactValues; changed: IdentifierField[] } {
  const values: ContactValues = { ...current, value_times: { ...current.value_times } };
  const changed: IdentifierField[] = [];
  // In the order mergeContact names changed fields, so that every contact.updated lists them alike.
  for (const field of SCALAR_FIELDS) {
    if (!isIdentifier(field) || !fields.includes(field) || values[field] === null) continue;
    values[field] = null;
    const last = values.value_times[field];
    if (last === undefined || last < at) values.value_times[field] = at;
    changed.push(field);
  }
  return { values, changed };
}
