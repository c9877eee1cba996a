import type { EventRecordedV1 } from '@cms/contracts';

import type { EventEntity } from './event.entity';

/** The event as POST and GET /api/v1/events answer it (extensions §2). */
export function eventResource(event: EventEntity): Record<string, unknown> {
  return {
    id: event.id,
    name: event.name,
    contact_id: event.contactId,
    data: event.data,
    occurred_at: event.occurredAt.toISOString(),
    received_at: event.receivedAt.toISOString(),
    idempotency_key: event.idempotencyKey,
  };
}

export function eventRecordedFact(event: EventEntity): EventRecordedV1 {
  return {
    event_id: event.id,
    name: event.name,
    contact_id: event.contactId,
    data: event.data,
    occurred_at: event.occurredAt.toISOString(),
    received_at: event.receivedAt.toISOString(),
    idempotency_key: event.idempotencyKey,
  };
}
