import {
  CONSENT_FACT_TYPES,
  CONTACT_FACT_TYPES,
  jsonBytes,
  MAX_DATA_BYTES,
  type ConsentSource,
} from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import { ContactsException } from '../decisions/contacts.exception';
import type { ContactsDecision } from '../decisions/decision';
import type { ConsentChangeEntity } from './consent-change.entity';
import {
  consentFlip,
  EMPTY_CONTACT,
  mergeContact,
  type ConsentChange,
  type ContactChanges,
  type ContactValues,
  type MergeResult,
} from './contact-changes';
import { ContactEntity } from './contact.entity';
import {
  claimedIdentifiers,
  holderOf,
  releaseIdentifiers,
  type ClaimedIdentifier,
  type IdentifierField,
} from './contact-identity';
import type { ContactView } from './contact.repository';
import { contactSnapshot, webhookContact } from './contact.resource';
import type { ContactStore } from './contact-store';

function valuesOf(contact: ContactEntity): ContactValues {
  return {
    name: contact.name,
    phone: contact.phone,
    email: contact.email,
    external_id: contact.externalId,
    source: contact.source,
    data: contact.data,
    marketing_consent: contact.marketingConsent,
    value_times: contact.valueTimes,
  };
}

function assign(contact: ContactEntity, values: ContactValues): void {
  contact.name = values.name;
  contact.phone = values.phone;
  contact.email = values.email;
  contact.externalId = values.external_id;
  contact.source = values.source;
  contact.data = values.data;
  contact.marketingConsent = values.marketing_consent;
  contact.valueTimes = values.value_times;
}

/**
 * A contact's `data` is at most 64 KiB as JSON (extensions §1). The edge checks what one request sends;
 * merged key by key into what the contact holds, it could grow past that, and so would every fact that
 * carries the contact.
 */
function refuseOversizedData(merged: MergeResult, changes: ContactChanges): void {
  if (!merged.changed.some((field) => field.startsWith('data.'))) return;
  const bytes = jsonBytes(merged.values.data);
  if (bytes <= MAX_DATA_BYTES) return;
  throw ContactsException.invalid(
    `${changes.pointer ?? '/data/attributes'}/data`,
    `data would hold ${bytes} bytes as JSON once merged into the contact's; a contact's data is at most ${MAX_DATA_BYTES} bytes (64 KiB).`,
  );
}

/**
 * Creating a contact and writing values to one, shared by every use case that does either: the plan
 * limit, newer-values-win, identity (an identifier the write gives the contact moves from whichever
 * contact held it), the consent history and the facts.
 */
@Injectable()
export class ContactWriter {
  /**
   * Creates the contact `id` with `changes` written as of `at`, when no contact holds its phone,
   * external_id or email. Refused when the workspace already stores as many contacts as its plan allows
   * (`fallbackLimit` when no plan record set a limit).
   */
  async create(
    decision: ContactsDecision,
    id: number,
    fallbackLimit: number,
    changes: ContactChanges,
    at: string,
  ): Promise<ContactView> {
    const store = decision.store;
    const merged = mergeContact(EMPTY_CONTACT, changes, at);
    const contact = Object.assign(new ContactEntity(), {
      id,
      workspaceId: decision.workspaceId,
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    });
    assign(contact, merged.values);
    // Nothing to take from anyone: a contact is created only when no contact holds any of the
    // identifiers written (matchContact found none), and the unique indexes refuse anything else.
    await store.insertContact(contact, fallbackLimit);
    await this.recordConsent(decision, store, contact, merged.consent, at);
    // A contact made a moment ago has no tags and no channel links yet.
    const view: ContactView = { contact, tags: [], channels: [] };
    decision.fact(CONTACT_FACT_TYPES.created, String(id), () => contactSnapshot(view));
    this.publishConsentFlips(decision, contact, merged.consent, at);
    return view;
  }

  /**
   * Writes `changes` as of `at` to an existing contact; values written later than `at` stay. Consent
   * changes are recorded with `consentSource` (a channel's own reports say `keyword` or `provider`).
   */
  async change(
    decision: ContactsDecision,
    contact: ContactEntity,
    changes: ContactChanges,
    at: string,
    consentSource: ConsentSource = 'api',
  ): Promise<ContactView> {
    const store = decision.store;
    const before = valuesOf(contact);
    const merged = mergeContact(before, changes, at);
    refuseOversizedData(merged, changes);
    await this.takeIdentifiers(decision, store, contact.id, claimedIdentifiers(before, merged.values), at);
    const timesMoved = JSON.stringify(merged.values.value_times) !== JSON.stringify(contact.valueTimes);
    assign(contact, merged.values);
    if (merged.changed.length > 0) contact.updatedAt = decision.atDate;
    if (merged.changed.length > 0 || timesMoved) await store.updateContact(contact);
    await this.recordConsent(decision, store, contact, merged.consent, at, consentSource);
    const view = await store.view(contact);
    if (merged.changed.length > 0) {
      decision.fact(CONTACT_FACT_TYPES.updated, String(contact.id), () =>
        contactSnapshot(view, merged.changed),
      );
    }
    this.publishConsentFlips(decision, contact, merged.consent, at, consentSource);
    return view;
  }

  /**
   * Takes the identifiers `claimed` for the contact `id` from the contacts that held them: each of those
   * loses them as of the write (its `updated_at` moves, a contact.updated fact says so). Written before
   * the contact itself, so that no statement ever shows two holders (the unique indexes would refuse it).
   */
  private async takeIdentifiers(
    decision: ContactsDecision,
    store: ContactStore,
    id: number,
    claimed: ClaimedIdentifier[],
    at: string,
  ): Promise<void> {
    const losers = new Map<number, { contact: ContactEntity; fields: IdentifierField[] }>();
    for (const { field, value } of claimed) {
      const holder = await holderOf(store, decision.workspaceId, field, value);
      if (!holder || holder.id === id) continue;
      const loser = losers.get(holder.id) ?? { contact: holder, fields: [] };
      loser.fields.push(field);
      losers.set(holder.id, loser);
    }
    for (const { contact, fields } of losers.values()) {
      const released = releaseIdentifiers(valuesOf(contact), fields, at);
      assign(contact, released.values);
      contact.updatedAt = decision.atDate;
      await store.updateContact(contact);
      const view = await store.view(contact);
      decision.fact(CONTACT_FACT_TYPES.updated, String(contact.id), () =>
        contactSnapshot(view, released.changed),
      );
    }
  }

  private async recordConsent(
    decision: ContactsDecision,
    store: ContactStore,
    contact: ContactEntity,
    changes: ConsentChange[],
    at: string,
    source: ConsentSource = 'api',
  ): Promise<void> {
    const rows: ConsentChangeEntity[] = changes.map((change) => ({
      id: decision.derivedId('consent-change', contact.id, change.channel),
      workspaceId: contact.workspaceId,
      contactId: contact.id,
      channel: change.channel,
      granted: change.granted,
      previous: change.previous,
      source,
      occurredAt: new Date(at),
      recordedAt: decision.atDate,
    }));
    await store.recordConsentChanges(rows);
  }

  private publishConsentFlips(
    decision: ContactsDecision,
    contact: ContactEntity,
    changes: ConsentChange[],
    at: string,
    source: ConsentSource = 'api',
  ): void {
    for (const change of changes) {
      const flip = consentFlip(change);
      if (flip === undefined) continue;
      decision.fact(
        flip === 'granted' ? CONSENT_FACT_TYPES.granted : CONSENT_FACT_TYPES.revoked,
        String(contact.id),
        {
          channel: change.channel,
          status: flip,
          source,
          contact: webhookContact(contact),
          occurred_at: at,
        },
      );
    }
  }
}
