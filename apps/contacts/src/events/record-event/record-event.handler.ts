import { EVENT_FACT_TYPES, type EventContactBody, type EventRecordRequestedV1 } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import type { ContactChanges } from '../../contacts/contact-changes';
import { ContactRepository } from '../../contacts/contact.repository';
import { ContactWriter } from '../../contacts/contact-writer';
import type { ContactEntity } from '../../contacts/contact.entity';
import { eventPhone } from '../../contacts/phone-number';
import { ContactsException } from '../../decisions/contacts.exception';
import type { Answer, Decision } from '../../decisions/decision';
import type { EventEntity } from '../event.entity';
import { EventRepository } from '../event.repository';
import { eventRecordedFact, eventResource } from '../event.resource';

/** On events, null and blank mean "not sent": an event never clears a contact's values. */
function given(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function eventContactChanges(contact: EventContactBody): ContactChanges {
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

function occurredAt(decision: Decision<EventRecordRequestedV1>): string {
  const sent = decision.data.occurred_at;
  if (sent === undefined || sent === null) return decision.at;
  const time = new Date(sent);
  if (Number.isNaN(time.getTime())) {
    throw ContactsException.invalid('/data/attributes/occurred_at', 'occurred_at is not a valid time.');
  }
  return time.toISOString();
}

/**
 * POST /api/v1/events: records the event for the contact it names (matched by phone, then
 * external_id, then email; created when none matches), writing the contact's values as of the time
 * the event occurred. A repeated Idempotency-Key answers the original event and records nothing.
 */
@Injectable()
export class RecordEventHandler {
  constructor(@Inject(ContactWriter) private readonly writer: ContactWriter) {}

  async handle(decision: Decision<EventRecordRequestedV1>): Promise<Answer> {
    const { data, workspaceId } = decision;
    const events = new EventRepository(decision.manager);
    const key = data.idempotency_key;
    if (key !== undefined) {
      const original = await events.findByIdempotencyKey(workspaceId, key);
      if (original) return { status: 200, resource: eventResource(original) };
    }
    const at = occurredAt(decision);
    if (await events.idTaken(data.event_id)) throw ContactsException.idInUse('Event', data.event_id);
    const changes = eventContactChanges(data.contact);
    const contacts = new ContactRepository(decision.manager);
    const match = await this.match(contacts, workspaceId, changes);
    const view = match
      ? await this.writer.change(decision, match, changes, at)
      : await this.writer.create(decision, data.contact_id, data.contact_limit, changes, at);
    const event: EventEntity = {
      id: data.event_id,
      workspaceId,
      name: data.name,
      contactId: view.contact.id,
      data: data.data ?? {},
      occurredAt: new Date(at),
      receivedAt: decision.atDate,
      idempotencyKey: key ?? null,
    };
    await events.insert(event);
    decision.fact(EVENT_FACT_TYPES.recorded, String(event.id), eventRecordedFact(event));
    return { status: 202, resource: eventResource(event) };
  }

  private async match(
    contacts: ContactRepository,
    workspaceId: number,
    changes: ContactChanges,
  ): Promise<ContactEntity | null> {
    if (changes.phone) {
      const byPhone = await contacts.findByPhone(workspaceId, changes.phone);
      if (byPhone) return byPhone;
    }
    if (changes.external_id) {
      const byExternalId = await contacts.findByExternalId(workspaceId, changes.external_id);
      if (byExternalId) return byExternalId;
    }
    if (changes.email) return contacts.findByEmail(workspaceId, changes.email);
    return null;
  }
}
