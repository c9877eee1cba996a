import type { Envelope } from '@cms/contracts';
import type { EntityManager } from 'typeorm';

import { traceHeaders } from '../telemetry/trace-headers';

export interface OutboxRecord {
  topic: string;
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

/** The channel the relay listens on; one per schema, so a service's relay wakes only for its own rows. */
export function outboxChannel(schema: string): string {
  return `outbox_${schema}`;
}

/**
 * An envelope as an outbox row. Its headers carry the trace context active when it is made: in a
 * consumer, the span of the record being applied, so the fact continues that record's trace.
 */
export function envelopeRecord(
  topic: string,
  envelope: Envelope,
  key: string | null = envelope.workspaceid,
): OutboxRecord {
  return {
    topic,
    key,
    value: JSON.stringify(envelope),
    headers: {
      ce_type: envelope.type,
      ce_id: envelope.id,
      correlation_id: envelope.correlationid,
      ...traceHeaders(),
    },
  };
}

/**
 * Appends records to the outbox inside the caller's transaction.
 *
 * A bigserial id is handed out when a row is inserted, not when its transaction commits, so two
 * concurrent writers could commit ids 8 then 7 and a relay that already moved past 8 would never see 7.
 * Taking a transaction-scoped advisory lock before the insert makes id order equal commit order:
 * the relay can then publish strictly by id. The lock is held only from the insert to the commit.
 */
export async function appendToOutbox(manager: EntityManager, records: OutboxRecord[]): Promise<void> {
  if (records.length === 0) return;
  await manager.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':outbox'))`);
  const params: unknown[] = [];
  const rows = records.map((record, index) => {
    params.push(record.topic, record.key, record.value, JSON.stringify(record.headers));
    const at = index * 4;
    return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}::jsonb)`;
  });
  await manager.query(`INSERT INTO outbox (topic, key, value, headers) VALUES ${rows.join(', ')}`, params);
  await manager.query(`SELECT pg_notify('outbox_' || current_schema(), '')`);
}
