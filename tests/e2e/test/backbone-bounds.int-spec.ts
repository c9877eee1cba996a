import { CONTACT_REQUEST_TYPES, EVENT_REQUEST_TYPES } from '@cms/contracts';
import { createKafka, MAX_RECORD_BYTES, recordBytes, TOPIC_MAX_MESSAGE_BYTES } from '@cms/kafka';
import { createTestTopics, eventually, uniqueName } from '@cms/testing';
import type { EachMessagePayload } from 'kafkajs';
import { Client } from 'pg';

import { System } from '../src';
import { DATA_LIMIT, MIB, send } from '../src/hostile';

/**
 * Extensions §6 through the real gateway and contacts: the largest bodies the edge accepts, built to
 * grow the most when written back as JSON, cause records that all fit the topics; and a service whose
 * outbox stops moving while rows wait turns not-ready, then ready again once it moves.
 */

/** `1e20` is written back as `100000000000000000000`: 5 bytes with its comma become 22. */
const GROWING = '1e20';
/** Numbers in one `data` whose JSON, once written back, stays within the data limit. */
const NUMBERS_PER_DATA = Math.floor((DATA_LIMIT - '{"n":[]}'.length + 1) / 22);

function growingData(): string {
  return `{"n":[${new Array<string>(NUMBERS_PER_DATA).fill(GROWING).join(',')}]}`;
}

/** A batch of as many contacts with growing data as fit in a 1 MiB body. */
function largestBatch(): string {
  const contacts: string[] = [];
  const data = growingData();
  const contact = (index: number) =>
    `{"name":"Contact ${index}","phone":"+1415555${String(index).padStart(4, '0')}","data":${data}}`;
  let bytes = '{"contacts":[]}'.length;
  for (let index = 0; index < 1000; index += 1) {
    const next = contact(index);
    if (bytes + next.length + 1 > MIB) break;
    contacts.push(next);
    bytes += next.length + 1;
  }
  return `{"contacts":[${contacts.join(',')}]}`;
}

interface Seen {
  topic: string;
  bytes: number;
  type: string;
}

/** Every record on `topics` from the beginning, until `done` says enough came. */
async function readRecords(
  system: System,
  topics: string[],
  done: (seen: Seen[]) => boolean,
): Promise<Seen[]> {
  const kafka = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-bounds' });
  const consumer = kafka.consumer({ groupId: uniqueName('bounds-reader'), maxWaitTimeInMs: 100 });
  const seen = new Map<string, Seen>();
  await consumer.connect();
  for (const topic of topics) await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ topic, partition, message }: EachMessagePayload) => {
      const bytes = recordBytes({
        key: message.key,
        value: message.value,
        headers: Object.fromEntries(
          Object.entries(message.headers ?? {}).map(([name, value]) => [name, value ?? undefined]),
        ),
      });
      const type = message.headers?.ce_type?.toString() ?? 'unknown';
      seen.set(`${topic}/${partition}/${message.offset}`, { topic, bytes, type });
    },
  });
  try {
    await eventually('the records of the requests', async () => done([...seen.values()]), 60000);
  } finally {
    await consumer.disconnect();
  }
  return [...seen.values()];
}

describe('the largest bodies the edge accepts', () => {
  let system: System;

  beforeAll(async () => {
    system = await System.start(['gateway', 'contacts']);
  });

  afterAll(async () => {
    await system?.stop();
  });

  it('cause requests, facts and outcomes that all fit under max.message.bytes, and are applied', async () => {
    const { key } = await system.tenant();
    const batch = largestBatch();
    expect(Buffer.byteLength(batch)).toBeLessThanOrEqual(MIB);
    const contacts = (batch.match(/"name"/g) ?? []).length;
    expect(contacts).toBeGreaterThan(50);

    const batchAnswer = await send<{ data: { summary: { created: number; failed: number } } }>(
      system,
      'POST',
      '/api/v1/contacts/batch',
      { key, body: batch, timeoutMs: 60000 },
    );
    expect(batchAnswer.status).toBe(200);
    expect(batchAnswer.body.data.summary).toMatchObject({ created: contacts, failed: 0 });

    const grown = growingData();
    const event = `{"name":"grown","contact":{"phone":"+14155559999","data":${grown}},"data":${grown}}`;
    const eventAnswer = await send(system, 'POST', '/api/v1/events', { key, body: event });
    expect(eventAnswer.status).toBe(202);

    const { topics } = system;
    const records = await readRecords(
      system,
      [topics.requests, topics.contacts, topics.outcomes, topics.deadLetters],
      // Partitions are read in no set order: wait for the two requests themselves, their outcomes and
      // every contact's fact, not merely for two outcomes.
      (seen) =>
        seen.some((record) => record.type === CONTACT_REQUEST_TYPES.batchUpsert) &&
        seen.some((record) => record.type === EVENT_REQUEST_TYPES.record) &&
        seen.filter((record) => record.topic === topics.outcomes).length >= 2 &&
        seen.filter((record) => record.topic === topics.contacts).length >= contacts,
    );
    const largest = Math.max(...records.map((record) => record.bytes));
    // The batch's request record is the one that grew: several times its 1 MiB body.
    expect(largest).toBeGreaterThan(3 * MIB);
    expect(largest).toBeLessThanOrEqual(MAX_RECORD_BYTES);
    expect(records.every((record) => record.bytes < TOPIC_MAX_MESSAGE_BYTES)).toBe(true);
    expect(records.filter((record) => record.topic === topics.deadLetters)).toEqual([]);
    expect(records.filter((record) => record.topic === topics.contacts).length).toBeGreaterThanOrEqual(
      contacts,
    );
  });
});

describe('a service whose outbox does not move while rows wait', () => {
  let system: System;
  const missingTopic = uniqueName('missing-topic').replace(/_/g, '-');

  beforeAll(async () => {
    system = await System.start(['gateway', 'contacts'], { READY_STALL_MS: '2000' });
  });

  afterAll(async () => {
    if (!system) return;
    const admin = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-bounds' }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [missingTopic] }).catch(() => undefined);
    await admin.disconnect();
    await system?.stop();
  });

  async function ready(): Promise<{ status: number; failing: string[]; stalled: number }> {
    const base = system.baseUrl('contacts');
    const answer = await fetch(`${base}/ready`);
    const body = (await answer.json()) as { failing: string[] };
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const stalled = Number(/^cms_outbox_stalled_seconds\{[^}]*\} ([0-9.e+-]+)$/m.exec(metrics)?.[1] ?? NaN);
    return { status: answer.status, failing: body.failing, stalled };
  }

  it('turns /ready to 503 with the outbox named, shows the age in /metrics, and is ready again once it moves', async () => {
    expect((await ready()).status).toBe(200);
    // A row for a topic that does not exist: the relay's producer waits for the topic, and every row
    // behind it waits too.
    const client = new Client({ connectionString: system.stack.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO "${system.schema('contacts')}".outbox (topic, key, value, headers) VALUES ($1, 'w', '{}', '{}')`,
        [missingTopic],
      );
      await client.query(`NOTIFY "outbox_${system.schema('contacts')}"`);
    } finally {
      await client.end();
    }

    await eventually('contacts not ready', async () => (await ready()).status === 503, 15000);
    const stuck = await ready();
    expect(stuck.failing).toEqual(['outbox-moving']);
    expect(stuck.stalled).toBeGreaterThanOrEqual(2);

    const admin = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-bounds' }).admin();
    await admin.connect();
    await createTestTopics(admin, [{ topic: missingTopic, partitions: 1 }]);
    await admin.disconnect();

    await eventually('contacts ready again', async () => (await ready()).status === 200, 30000);
    expect((await ready()).stalled).toBe(0);
  });
});
