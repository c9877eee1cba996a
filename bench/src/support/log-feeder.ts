import { randomUUID } from 'node:crypto';

import {
  CONSENT_FACT_TYPES,
  createEnvelope,
  EVENT_REQUEST_TYPES,
  type ConsentChangedV1,
  type Envelope,
  type Topics,
} from '@cms/contracts';
import { BatchingProducer } from '@cms/kafka';
import type { Admin, Kafka } from 'kafkajs';
import { Client } from 'pg';

import type { Tenant } from './bench-system';

/**
 * Ids the feeder mints for events and contacts: far above what the bench gateway's sequences reach in a
 * run, so fed requests and requests through the API never ask for the same id.
 */
let nextFedId = 1_000_000_000;

export interface FedEvent {
  name: string;
  contact: Record<string, unknown>;
}

/** Writes envelopes to `topic` keyed by workspace, as a service's producer does, a thousand at a time. */
async function publish(kafka: Kafka, topic: string, envelopes: () => Iterable<Envelope>): Promise<void> {
  const producer = new BatchingProducer(kafka);
  await producer.connect();
  try {
    let messages: Array<{ key: string; value: string; headers: Record<string, string> }> = [];
    const flush = async (): Promise<void> => {
      if (messages.length > 0) await producer.sendBatch([{ topic, messages }]);
      messages = [];
    };
    for (const envelope of envelopes()) {
      messages.push({
        key: envelope.workspaceid,
        value: JSON.stringify(envelope),
        headers: { ce_type: envelope.type, ce_id: envelope.id, correlation_id: envelope.correlationid },
      });
      if (messages.length === 1000) await flush();
    }
    await flush();
  } finally {
    await producer.disconnect();
  }
}

/**
 * Writes `event.record.requested` records straight into the requests topic, as the gateway would after
 * authenticating, validating and minting ids. Used only to prepare a log to replay: that figure
 * measures what happens after the log, not the API.
 */
export async function feedEventRequests(
  kafka: Kafka,
  topics: Topics,
  tenants: Tenant[],
  count: number,
  event: (index: number) => FedEvent,
  contactLimit: number,
): Promise<void> {
  await publish(kafka, topics.requests, function* () {
    for (let index = 0; index < count; index += 1) {
      const tenant = tenants[index % tenants.length]!;
      const { name, contact } = event(index);
      const id = nextFedId++;
      const correlationid = randomUUID();
      yield createEnvelope({
        id: correlationid,
        type: EVENT_REQUEST_TYPES.record,
        source: 'gateway',
        workspaceid: String(tenant.workspaceId),
        correlationid,
        data: { name, contact, event_id: id, contact_id: id, contact_limit: contactLimit },
      });
    }
  });
}

/**
 * Writes `consent.granted` facts straight into the contacts topic, exactly as the contacts service
 * publishes them (the webhook-dispatch harness does the same): a backlog for webhook-dispatch that does
 * not wait on contacts, so the webhook figure measures webhook-dispatch alone.
 */
export async function feedConsentFacts(
  kafka: Kafka,
  topics: Topics,
  tenants: Tenant[],
  count: number,
): Promise<void> {
  const time = new Date().toISOString();
  await publish(kafka, topics.contacts, function* () {
    for (let index = 0; index < count; index += 1) {
      const tenant = tenants[index % tenants.length]!;
      const id = nextFedId++;
      const data: ConsentChangedV1 = {
        channel: 'email',
        status: 'granted',
        source: 'api',
        contact: {
          id,
          external_id: null,
          name: `Reader ${index}`,
          phone: null,
          email: `reader-${id}@example.com`,
        },
        occurred_at: time,
      };
      yield createEnvelope({
        type: CONSENT_FACT_TYPES.granted,
        source: 'contacts',
        workspaceid: String(tenant.workspaceId),
        subject: String(id),
        time,
        data,
      });
    }
  });
}

/** Records in a topic now: the sum of its partitions' high watermarks. */
export async function topicSize(admin: Admin, topic: string): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(topic);
  return offsets.reduce((sum, partition) => sum + Number(partition.high), 0);
}

/**
 * Waits until a service has applied every record of `topic` (its Postgres checkpoints reach the high
 * watermarks) and published everything in its outbox.
 */
export async function waitApplied(
  admin: Admin,
  databaseUrl: string,
  schema: string,
  topic: string,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const deadline = Date.now() + timeoutMs;
  let lastReport = 0;
  try {
    for (;;) {
      const high = await admin.fetchTopicOffsets(topic);
      const rows = await client.query<{ partition: number; next_offset: string }>(
        `SELECT partition, max(next_offset) AS next_offset FROM "${schema}".consumer_checkpoints
          WHERE topic = $1 GROUP BY partition`,
        [topic],
      );
      const applied = new Map(rows.rows.map((row) => [row.partition, Number(row.next_offset)]));
      const behind = high.reduce(
        (sum, p) => sum + Math.max(0, Number(p.high) - (applied.get(p.partition) ?? 0)),
        0,
      );
      const outbox = Number(
        (await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".outbox`)).rows[0]!.n,
      );
      if (behind === 0 && outbox === 0) return;
      if (Date.now() > deadline) {
        throw new Error(`${schema} still has ${behind} records to apply and ${outbox} to publish`);
      }
      if (Date.now() - lastReport > 10000) {
        log(`waiting for ${schema}: ${behind} records to apply, ${outbox} in the outbox`);
        lastReport = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await client.end();
  }
}
