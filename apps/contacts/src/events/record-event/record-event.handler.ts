import { EVENT_FACT_TYPES, type EventRecordRequestedV1 } from '@cms/contracts';
import { Inject, Injectable } from '@nestjs/common';

import { ContactWriter } from '../../contacts/contact-writer';
import { matchContact } from '../../contacts/contact-identity';
import { eventContactChanges } from '../../contacts/event-contact';
import { InboundReceiptRepository, inboundResource } from '../../contacts/inbound-receipt.repository';
import { ContactsException } from '../../decisions/contacts.exception';
import type { Answer, ContactsDecision } from '../../decisions/decision';
import type { EventEntity } from '../event.entity';
import { eventRecordedFact, eventResource } from '../event.resource';

function occurredAt(decision: ContactsDecision<EventRecordRequestedV1>): string {
  const sent = decision.data.occurred_at;
  if (sent === undefined || sent === null) return decision.at;
  const time = new Date(sent);
  if (Number.isNaN(time.getTime())) {
    throw ContactsException.invalid('/data/attributes/occurred_at', 'occurred_at is not a valid time.');
  }
  return time.toISOString();
}

/**
 * POST /api/v1/events (and an inbound webhook payload with an event): records the event for the contact
 * it names (matched by phone, then external_id, then email; created when none matches), writing the
 * contact's values as of the time the event occurred. A repeated Idempotency-Key, or a repeated retry id
 * of the inbound webhook, answers the original event and records nothing.
 */
@Injectable()
export class RecordEventHandler {
  constructor(@Inject(ContactWriter) private readonly writer: ContactWriter) {}

  async handle(decision: ContactsDecision<EventRecordRequestedV1>): Promise<Answer> {
    const { data, workspaceId } = decision;
    const store = decision.store;
    const receipts = new InboundReceiptRepository(decision.manager);
    const retryKeys = data.retry_keys ?? [];
    const key = data.idempotency_key;
    if (key !== undefined) {
      const original = await store.eventByIdempotencyKey(workspaceId, key);
      if (original) return { status: 200, resource: eventResource(original) };
    }
    const repeated = await receipts.original(workspaceId, retryKeys);
    if (repeated) return { status: 200, resource: inboundResource(repeated) };
    const at = occurredAt(decision);
    if (await store.eventIdTaken(data.event_id)) throw ContactsException.idInUse('Event', data.event_id);
    const changes = eventContactChanges(data.contact);
    const match = await matchContact(store, workspaceId, changes);
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
    await store.insertEvent(event);
    decision.fact(EVENT_FACT_TYPES.recorded, String(event.id), () => eventRecordedFact(event));
    if (data.integration_id === undefined) return { status: 202, resource: eventResource(event) };
    const answer = { eventId: event.id, contactId: event.contactId };
    await receipts.record(workspaceId, data.integration_id, retryKeys, answer, decision.atDate);
    return { status: 202, resource: inboundResource(answer) };
  }
}
