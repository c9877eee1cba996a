import type { Envelope } from '@cms/contracts';
import type { EntityManager } from 'typeorm';

import { assertRecordFits, storableText } from '../records/record-bounds';
import { traceHeaders } from '../telemetry/trace-headers';

export interface OutboxRecord {
  topic: string;
  key: string | null;
  value: string;
  headers: Record<string, string>;
}

/**
 * The Postgres channel a transaction's commit signal `signal` goes out on in `schema` (a NOTIFY on
 * `<signal>_<current schema>`, delivered on commit): one per schema, so each service, and each bench or
 * test schema, hears only its own.
 */
export function commitSignalChannel(signal: string, schema: string): string {
  return `${signal}_${schema}`;
}

/** The channel the relay listens on: the commit signal `outbox` that appendToOutbox sends. */
export function outboxChannel(schema: string): string {
  return commitSignalChannel('outbox', schema);
}

/**
 * An envelope as an outbox row. Its headers carry the trace context active when it is made: in a
 * consumer, the span of the record being applied, so the fact continues that record's trace.
 * Throws RecordTooLargeError for a record over MAX_RECORD_BYTES: where it is made, so a consumer
 * knows the record whose handler made it and dead-letters that one.
 */
export function envelopeRecord(
  topic: string,
  envelope: Envelope,
  key: string | null = envelope.workspaceid,
): OutboxRecord {
  const record: OutboxRecord = {
    topic,
    key,
    value: JSON.stringify(envelope),
    // Stored as jsonb, which refuses U+0000 and lone surrogates: a correlation id a record brought
    // must not make the outbox write fail (or a dead letter's, which carries the same id).
    headers: {
      ce_type: storableText(envelope.type),
      ce_id: storableText(envelope.id),
      correlation_id: storableText(envelope.correlationid),
      ...traceHeaders(),
    },
  };
  assertRecordFits(topic, record);
  return record;
}

/**
 * Rows one INSERT takes at most: four parameters each, under Postgres' 65,535 parameters a statement.
 */
const ROWS_PER_STATEMENT = 10000;

/**
 * Appends records to the outbox inside the caller's transaction.
 *
 * A bigserial id is handed out when a row is inserted, not when its transaction commits, so two
 * concurrent writers could commit ids 8 then 7 and a relay that already moved past 8 would never see 7.
 * Taking a transaction-scoped advisory lock before the insert makes id order equal commit order:
 * the relay can then publish strictly by id. The lock is held only from the insert to the commit.
 *
 * A record over MAX_RECORD_BYTES is refused (RecordTooLargeError) before anything is written: the
 * broker would refuse it forever and the relay, which publishes strictly in order, would stop there.
 *
 * Every value goes as a parameter of its own, which the driver sends as it is: in an array literal
 * (`$1::text[]`) each `"` and `\` of it is escaped again, and a fact that carries text full of them
 * (a contact's data) doubles in size, for the driver to build and Postgres to parse: 1,000 such facts
 * took 400 ms that way, 50 ms this way.
 */
export async function appendToOutbox(manager: EntityManager, records: OutboxRecord[]): Promise<void> {
  if (records.length === 0) return;
  for (const record of records) assertRecordFits(record.topic, record);
  for (let start = 0; start < records.length; start += ROWS_PER_STATEMENT) {
    const rows = records.slice(start, start + ROWS_PER_STATEMENT);
    const parameters: Array<string | null> = [];
    const tuples = rows.map((record, position) => {
      const at = parameters.length;
      parameters.push(record.topic, record.key, record.value, JSON.stringify(record.headers));
      return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}::jsonb, ${position})`;
    });
    // One statement: the rows are made from the lock's row, so the lock is held before any id is
    // drawn (taken again by a later statement of the transaction, it is already held); the
    // notification goes out with the commit, once however many statements sent it.
    await manager.query(
      `WITH locked AS (SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':outbox'))),
            notified AS (SELECT pg_notify('outbox_' || current_schema(), ''))
       INSERT INTO outbox (topic, key, value, headers)
       SELECT r.topic, r.key, r.value, r.headers
         FROM locked, notified, (VALUES ${tuples.join(', ')}) AS r(topic, key, value, headers, position)
        ORDER BY r.position`,
      parameters,
    );
  }
}
