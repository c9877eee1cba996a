import { CONSENT_FACT_TYPES, CONTACT_FACT_TYPES } from '@cms/contracts';
import { Injectable } from '@nestjs/common';

import type { Decision } from '../decisions/decision';
import type { ConsentChangeEntity } from './consent-change.entity';
import {
  consentFlip,
  EMPTY_CONTACT,
  mergeContact,
  type ConsentChange,
  type ContactChanges,
  type ContactValues,
} from './contact-changes';
import { ContactEntity } from './contact.entity';
import type { ContactView } from './contact.repository';
import { contactSnapshot, webhookContact } from './contact.resource';
import { storeOf, type ContactStore } from './contact-store';

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
 * Creating a contact and writing values to one, shared by every use case that does either: the plan
 * limit, newer-values-win, the consent history and the facts.
 */
@Injectable()
export class ContactWriter {
  /**
   * Creates the contact `id` with `changes` written as of `at`. Refused when the workspace already
   * stores `limit` contacts.
   */
  async create(
    decision: Decision,
    id: number,
    limit: number,
    changes: ContactChanges,
    at: string,
  ): Promise<ContactView> {
    const store = storeOf(decision);
    const merged = mergeContact(EMPTY_CONTACT, changes, at);
    const contact = Object.assign(new ContactEntity(), {
      id,
      workspaceId: decision.workspaceId,
      createdAt: decision.atDate,
      updatedAt: decision.atDate,
    });
    assign(contact, merged.values);
    await store.insertContact(contact, limit);
    await this.recordConsent(decision, store, contact, merged.consent, at);
    // A contact made a moment ago has no tags and no channel links yet.
    const view: ContactView = { contact, tags: [], channels: [] };
    decision.fact(CONTACT_FACT_TYPES.created, String(id), () => contactSnapshot(view));
    this.publishConsentFlips(decision, contact, merged.consent, at);
    return view;
  }

  /** Writes `changes` as of `at` to an existing contact; values written later than `at` stay. */
  async change(
    decision: Decision,
    contact: ContactEntity,
    changes: ContactChanges,
    at: string,
  ): Promise<ContactView> {
    const store = storeOf(decision);
    const merged = mergeContact(valuesOf(contact), changes, at);
    const timesMoved = JSON.stringify(merged.values.value_times) !== JSON.stringify(contact.valueTimes);
    assign(contact, merged.values);
    if (merged.changed.length > 0) contact.updatedAt = decision.atDate;
    if (merged.changed.length > 0 || timesMoved) await store.updateContact(contact);
    await this.recordConsent(decision, store, contact, merged.consent, at);
    const view = await store.view(contact);
    if (merged.changed.length > 0) {
      decision.fact(CONTACT_FACT_TYPES.updated, String(contact.id), () =>
        contactSnapshot(view, merged.changed),
      );
    }
    this.publishConsentFlips(decision, contact, merged.consent, at);
    return view;
  }

  private async recordConsent(
    decision: Decision,
    store: ContactStore,
    contact: ContactEntity,
    changes: ConsentChange[],
    at: string,
  ): Promise<void> {
    const rows: ConsentChangeEntity[] = changes.map((change) => ({
      id: decision.derivedId('consent-change', contact.id, change.channel),
      workspaceId: contact.workspaceId,
      contactId: contact.id,
      channel: change.channel,
      granted: change.granted,
      previous: change.previous,
      source: 'api',
      occurredAt: new Date(at),
      recordedAt: decision.atDate,
    }));
    await store.recordConsentChanges(rows);
  }

  private publishConsentFlips(
    decision: Decision,
    contact: ContactEntity,
    changes: ConsentChange[],
    at: string,
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
          source: 'api',
          contact: webhookContact(contact),
          occurred_at: at,
        },
      );
    }
  }
}
