import { createHmac } from 'node:crypto';

import type { Client } from 'pg';

import { CONSENT_CHANNELS, createEnvelope, LINK_CHANNELS, type ContactSnapshotV1 } from '@cms/contracts';
import { createKafka, envelopeRecord } from '@cms/kafka';
import { Partitioners, type PartitionMetadata } from 'kafkajs';

import { ADMIN_TOKEN, type Answer, type System } from './system';

/**
 * What the hostile-tenant and fuzz suites need beyond `System.call`: bodies sent as exact bytes (invalid
 * UTF-8, a Content-Type of their own, no body at all), timed; the partition of cms.requests.v1 a
 * workspace's requests land on; bodies built to the byte.
 */

export const MIB = 1024 * 1024;
/** The largest `data` (and `contact.data`) extensions §1 accepts, as JSON bytes. */
export const DATA_LIMIT = 64 * 1024;

export interface RawOptions {
  key?: string;
  admin?: boolean;
  /** Sent as these exact bytes; a string is sent as UTF-8. */
  body?: Buffer | string;
  /** Defaults to application/json when there is a body. */
  contentType?: string | null;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export type TimedAnswer<T = unknown> = Answer<T> & { ms: number; text: string };

/** One HTTP call to the system's gateway with the body as given, and how long its answer took. */
export async function send<T = unknown>(
  system: System,
  method: string,
  path: string,
  options: RawOptions = {},
): Promise<TimedAnswer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.admin) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined && options.contentType !== null)
    headers['content-type'] = options.contentType ?? 'application/json';
  const started = performance.now();
  const response = await fetch(`${system.url}${path}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: options.body } : {}),
    signal: AbortSignal.timeout(options.timeoutMs ?? 20000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, headers: response.headers, body: body as T, ms, text };
}

/** The hex HMAC-SHA256 of the raw bytes, as the inbound webhook's X-Webhook-Signature wants it. */
export function webhookSignature(body: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** The number of partitions of the system's request topic, as the broker reports it. */
export async function requestPartitionCount(system: System): Promise<number> {
  const admin = createKafka({ brokers: system.stack.kafkaBrokers, clientId: 'e2e-hostile' }).admin();
  await admin.connect();
  try {
    const metadata = await admin.fetchTopicMetadata({ topics: [system.topics.requests] });
    return metadata.topics[0]!.partitions.length;
  } finally {
    await admin.disconnect();
  }
}

/**
 * The partition of cms.requests.v1 that a workspace's requests go to: the gateway keys them by the
 * workspace id as a string and produces with kafkajs' default (murmur2) partitioner.
 */
export function requestPartitionOf(workspaceId: number, partitions: number): number {
  const partitionMetadata: PartitionMetadata[] = Array.from({ length: partitions }, (_, partitionId) => ({
    partitionErrorCode: 0,
    partitionId,
    leader: 0,
    replicas: [0],
    isr: [0],
  }));
  return Partitioners.DefaultPartitioner()({
    topic: 'requests',
    partitionMetadata,
    message: { key: String(workspaceId), value: null },
  });
}

/** `depth` levels of objects around `leaf`, as JSON text (no recursion, so any depth can be built). */
export function nestedObjects(depth: number, leaf = '1'): string {
  return '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
}

/** `depth` levels of arrays around `leaf`, as JSON text. */
export function nestedArrays(depth: number, leaf = '1'): string {
  return '['.repeat(depth) + leaf + ']'.repeat(depth);
}

/**
 * A string whose JSON form is exactly `bytes` bytes (quotes included) and doubles again each time it is
 * embedded as a JSON string in another record: alternating `"` and `\`, each written as two bytes
 * (one plain `a` first when `bytes` is odd).
 */
export function escapingString(bytes: number): string {
  if (bytes < 2) throw new Error(`a JSON string takes at least 2 bytes, not ${bytes}`);
  const escaped = Math.floor((bytes - 2) / 2);
  return ((bytes - 2) % 2 === 1 ? 'a' : '') + '"\\'.repeat(Math.ceil(escaped / 2)).slice(0, escaped);
}

/** An object `{"<key>": <string>}` whose JSON form is exactly `bytes` bytes. */
export function dataOfSize(bytes: number, key = 'k'): Record<string, string> {
  const overhead = JSON.stringify({ [key]: '' }).length - 2;
  return { [key]: escapingString(bytes - overhead) };
}

/** `json` padded with spaces after its last member to exactly `bytes` bytes (whitespace is valid JSON). */
export function padTo(json: string, bytes: number): Buffer {
  const length = Buffer.byteLength(json);
  if (length > bytes) throw new Error(`the body is ${length} bytes, over ${bytes}`);
  return Buffer.from(json.slice(0, -1) + ' '.repeat(bytes - length) + json.slice(-1));
}

/** The value below which `share` of the samples lie (nearest rank). */
export function percentile(samples: number[], share: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

/** POST a create with a workspace's key; answers the new resource's id (anything but 201 throws). */
export async function createAs(
  system: System,
  key: string,
  path: string,
  body: Record<string, unknown>,
): Promise<number> {
  const answer = await system.call<{ data: { id: number } }>('POST', path, { key, body });
  if (answer.status !== 201)
    throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data.id;
}

/** A sandbox SMS channel (the workspace's default) and an SMS template greeting the contact: its id. */
export async function sandboxSmsAs(system: System, key: string): Promise<number> {
  await createAs(system, key, '/api/v1/channels', { type: 'sms', name: 'Sandbox SMS', provider: 'sandbox' });
  return createAs(system, key, '/api/v1/templates', {
    name: 'hello',
    channel: 'sms',
    body: 'Hi {{ contact.name }}',
  });
}

/** The `n` of a query counting rows (`SELECT count(*)::int AS n …`). */
export async function countOf(db: Client, sql: string, values: unknown[] = []): Promise<number> {
  const rows = await db.query<{ n: number }>(sql, values);
  return rows.rows[0]!.n;
}

/** A contact as the contacts service's snapshot says it: no consent and no linked channel unless `fields` say. */
export function contactSnapshot(
  contactId: number,
  phone: string,
  now: string,
  fields: Partial<ContactSnapshotV1> = {},
): ContactSnapshotV1 {
  return {
    contact_id: contactId,
    name: 'Flood',
    phone,
    email: null,
    external_id: null,
    source: null,
    data: {},
    marketing_consent: Object.fromEntries(
      CONSENT_CHANNELS.map((channel) => [channel, null]),
    ) as ContactSnapshotV1['marketing_consent'],
    tag_ids: [],
    channels: Object.fromEntries(
      LINK_CHANNELS.map((channel) => [channel, null]),
    ) as ContactSnapshotV1['channels'],
    created_at: now,
    updated_at: now,
    ...fields,
  };
}

/** A fact of cms.contacts.v1 as a test publishes it in the contacts service's place. */
export interface ContactFact {
  type: string;
  subject: string;
  data: object;
}

/**
 * Facts of a workspace published on cms.contacts.v1 as the contacts service's relay publishes them
 * (the API's per-workspace budget would take minutes to make as many): `factsOf(index, now)` for
 * `count` indexes from `first`, `perBatch` indexes a produce request, `gapMs` after each.
 */
export async function publishContactFacts(
  system: System,
  workspaceId: number,
  range: { first: number; count: number; perBatch?: number; gapMs?: number },
  factsOf: (index: number, now: string) => ContactFact[],
): Promise<void> {
  const { first, count, perBatch = 1000, gapMs = 0 } = range;
  const producer = createKafka({
    brokers: system.stack.kafkaBrokers,
    clientId: 'e2e-contact-facts',
  }).producer();
  await producer.connect();
  try {
    for (let start = first; start < first + count; start += perBatch) {
      const now = new Date().toISOString();
      const messages = [];
      for (let index = start; index < Math.min(first + count, start + perBatch); index += 1) {
        for (const fact of factsOf(index, now)) {
          const { key, value, headers } = envelopeRecord(
            system.topics.contacts,
            createEnvelope({ ...fact, source: 'contacts', workspaceid: String(workspaceId) }),
          );
          messages.push({ key, value, headers });
        }
      }
      await producer.send({ topic: system.topics.contacts, messages });
      if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    }
  } finally {
    await producer.disconnect();
  }
}
