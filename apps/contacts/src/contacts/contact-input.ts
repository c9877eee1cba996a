import type { MarketingConsentInput, UpdateContactBody } from '@cms/contracts';

import { ContactsException } from '../decisions/contacts.exception';
import type { ContactChanges } from './contact-changes';
import { toE164 } from './phone-number';

/** The writable fields of the contact endpoints (upsert, batch element, PUT). */
type ContactFields = Omit<UpdateContactBody, 'marketing_consent'> & {
  marketing_consent?: MarketingConsentInput;
};

/** Blank text clears a nullable field, like null. */
function text(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * What a contact endpoint's body writes. The phone must be readable as a number with its country code
 * and is stored in E.164, so the same number written differently is the same contact.
 */
export function contactEndpointChanges(body: ContactFields, pointerPrefix: string): ContactChanges {
  const changes: ContactChanges = { pointer: pointerPrefix };
  if (body.name !== undefined) changes.name = body.name.trim();
  const phone = text(body.phone);
  if (phone !== undefined) {
    if (phone === null) {
      changes.phone = null;
    } else {
      const e164 = toE164(phone);
      if (e164 === undefined) {
        throw ContactsException.invalid(
          `${pointerPrefix}/phone`,
          'phone must be a phone number with its country code, e.g. +14155550123.',
        );
      }
      changes.phone = e164;
    }
  }
  const email = text(body.email);
  if (email !== undefined) changes.email = email;
  const externalId = text(body.external_id);
  if (externalId !== undefined) changes.external_id = externalId;
  const source = text(body.source);
  if (source !== undefined) changes.source = source;
  if (body.data !== undefined) changes.data = body.data;
  if (body.marketing_consent !== undefined) changes.marketing_consent = body.marketing_consent;
  return changes;
}
