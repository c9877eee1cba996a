import { eventually } from '@cms/testing';
import { Client } from 'pg';

import { System, type ServiceName } from '../src';
import {
  DATA_LIMIT,
  MIB,
  dataOfSize,
  nestedArrays,
  nestedObjects,
  padTo,
  percentile,
  requestPartitionCount,
  requestPartitionOf,
  send,
  webhookSignature,
  type TimedAnswer,
} from '../src/hostile';

/**
 * Issue 15 end to end (extensions §1, §2, §6): workspace A sends every kind of hostile input the
 * issue lists while workspace B, whose requests share A's partition of cms.requests.v1, and workspace
 * C, on another partition, keep writing. A gets the exact 4xx of §1 for each, with its pointer and its
 * rate-limit headers; B and C keep a p99 close to the one they had writing alone just before (what A
 * costs them is a share of the machine and at most a wait behind the largest write A may make, never a
 * wait behind A's refused ones), every one of their writes is answered 2xx and is there exactly once;
 * afterwards A's good writes work and every service is ready.
 */

const SERVICES: ServiceName[] = ['gateway', 'contacts', 'webhook-dispatch'];
/**
 * The latency B and C are promised while A is hostile, next to the calm phase on this machine as it is
 * then: at most this many times their p99 writing alone, plus the time the largest write A may make
 * takes alone (B's writes are behind A's in their partition), plus the slack. The absolute goal (a p99
 * under one second) is the benchmarks'.
 */
const P99_FACTOR = 3;
const P99_SLACK_MS = 500;
/** B's and C's writes of each kind in the calm phase, before A turns hostile. */
const CALM_WRITES: Record<Sample['kind'], number> = { event: 40, upsert: 6 };
/** Gaps between a stream's writes: under the events (1,200/min) and per-key (120/min) budgets. */
const EVENT_GAP_MS = 120;
const UPSERT_GAP_MS = 800;
/** B and C write at least this long while A is hostile, however fast A's requests are answered. */
const MIN_STREAM_MS = 12000;

type Errors = { errors: Array<{ status: string; title: string; source?: { pointer: string } }> };
type Resource = { data: { id: number } & Record<string, unknown> };
type Page<T> = { data: T[]; meta: { last_page: number; total: number } };

interface Tenant {
  workspaceId: number;
  partition: number;
  /** Full permissions: the key hostile input and the stream are sent with. */
  key: string;
  /** Read only: the checks read with it, so they spend nothing of the writing key's budget. */
  readKey: string;
}

interface Sample {
  kind: 'event' | 'upsert';
  seq: number;
  /** Sent in the calm phase (B and C alone), or once A had turned hostile. */
  phase: 'calm' | 'hostile';
  /** When it was sent (Date.now()): a slow write is shown with the cases of A it overlapped. */
  sentAt?: number;
  answer?: TimedAnswer<Resource>;
  error?: string;
}

interface Fixtures {
  contactId: number;
  tagId: number;
  endpointId: string;
  integrationToken: string;
  integrationSecret: string;
}

let system: System;
let partitions = 0;
let a: Tenant;
let b: Tenant;
let c: Tenant;
let fixtures: Fixtures;
const streams = new Map<Tenant, Sample[]>();
let streaming = false;
let streamDone: Promise<void> = Promise.resolve();
let phase: Sample['phase'] = 'calm';
/** When A turned hostile: the calm phase was over. */
let hostileFrom = 0;
/** The calm phase's time of the largest write A may make (a 1,000-contact batch just under 1 MiB), alone. */
let largestWriteMs = 0;
/** The events A was answered 2xx for (API and inbound webhook): the only events A may have. */
const acceptedEventIds: number[] = [];

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const is2xx = (status: number) => status >= 200 && status < 300;
const json = (value: unknown) => JSON.stringify(value);

async function workspace(plan: string): Promise<number> {
  const answer = await system.call<Resource>('POST', '/admin/v1/workspaces', {
    admin: true,
    body: { name: `hostile ${plan}`, plan },
  });
  if (answer.status !== 201) throw new Error(`workspace not created: ${answer.status}`);
  return answer.body.data.id;
}

async function apiKey(workspaceId: number, permissions: string[]): Promise<string> {
  const answer = await system.call<{ data: { key: string } }>(
    'POST',
    `/admin/v1/workspaces/${workspaceId}/api-keys`,
    { admin: true, body: { name: 'hostile', permissions } },
  );
  if (answer.status !== 201) throw new Error(`key not created: ${answer.status}`);
  return answer.body.data.key;
}

/** A and B on one partition of the request topic, C on another: workspaces are made until that holds. */
async function pickTenants(): Promise<[Tenant, Tenant, Tenant]> {
  const seen: Array<{ id: number; partition: number }> = [];
  for (let tries = 0; tries < 40; tries += 1) {
    const id = await workspace('business');
    seen.push({ id, partition: requestPartitionOf(id, partitions) });
    const first = seen[0]!;
    const twin = seen.slice(1).find((other) => other.partition === first.partition);
    const other = seen.find((other) => other.partition !== first.partition);
    if (twin && other) {
      const tenant = async ({ id, partition }: { id: number; partition: number }): Promise<Tenant> => ({
        workspaceId: id,
        partition,
        key: await apiKey(id, ['read', 'create', 'update', 'delete']),
        readKey: await apiKey(id, ['read']),
      });
      return [await tenant(first), await tenant(twin), await tenant(other)];
    }
  }
  throw new Error(`no two workspaces on one partition among ${JSON.stringify(seen)}`);
}

function phoneOf(tenant: Tenant, seq: number): string {
  return `+1415${700 + (tenant.workspaceId % 100)}${String(seq).padStart(4, '0')}`;
}

/** A steady, bounded stream of one kind of write; every try is kept with its answer and its time. */
async function stream(tenant: Tenant, kind: Sample['kind'], gap: number): Promise<void> {
  const samples = streams.get(tenant)!;
  for (let seq = 1; streaming && seq < 2000; seq += 1) {
    const sample: Sample = { kind, seq, phase };
    samples.push(sample);
    sample.sentAt = Date.now();
    try {
      sample.answer =
        kind === 'event'
          ? await send<Resource>(system, 'POST', '/api/v1/events', {
              key: tenant.key,
              body: json({ name: 'stream.tick', contact: { phone: phoneOf(tenant, 0) }, data: { seq } }),
              headers: { 'idempotency-key': `stream-${tenant.workspaceId}-${seq}` },
            })
          : await send<Resource>(system, 'POST', '/api/v1/contacts/upsert', {
              key: tenant.key,
              body: json({ name: `Stream ${seq}`, phone: phoneOf(tenant, seq) }),
            });
    } catch (error) {
      sample.error = String(error);
    }
    await delay(gap);
  }
}

async function allPages<T>(tenant: Tenant, path: string): Promise<T[]> {
  const rows: T[] = [];
  const separator = path.includes('?') ? '&' : '?';
  for (let page = 1; page <= 50; page += 1) {
    const answer = await system.call<Page<T>>('GET', `${path}${separator}per_page=100&page=${page}`, {
      key: tenant.readKey,
    });
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${json(answer.body)}`);
    rows.push(...answer.body.data);
    if (page >= answer.body.meta.last_page) break;
  }
  return rows;
}

beforeAll(async () => {
  system = await System.start(SERVICES, { WEBHOOK_TIMEOUT_MS: '2000' });
  partitions = await requestPartitionCount(system);
  [a, b, c] = await pickTenants();

  const contact = await system.call<Resource>('POST', '/api/v1/contacts/upsert', {
    key: a.key,
    body: { name: 'A own', phone: '+14155550199' },
  });
  const tag = await system.call<Resource>('POST', '/api/v1/tags', { key: a.key, body: { name: 'a-own' } });
  const endpoint = await system.call<{ data: { id: string } }>('POST', '/api/v1/webhook-endpoints', {
    key: a.key,
    body: { url: 'https://hooks.example.invalid/a', event_types: ['consent.granted'] },
  });
  const integration = await system.call<{ data: { webhook_url: string; signing_secret: string } }>(
    'POST',
    '/api/v1/integrations',
    { key: a.key, body: { type: 'webhook', name: 'A inbound' } },
  );
  expect([contact.status, tag.status, endpoint.status, integration.status]).toEqual([201, 201, 201, 201]);
  fixtures = {
    contactId: contact.body.data.id,
    tagId: tag.body.data.id,
    endpointId: endpoint.body.data.id,
    integrationToken: integration.body.data.webhook_url.split('/').pop()!,
    integrationSecret: integration.body.data.signing_secret,
  };

  for (const tenant of [b, c]) {
    const own = await system.call('POST', '/api/v1/contacts/upsert', {
      key: tenant.key,
      body: { name: 'Streamer', phone: phoneOf(tenant, 0) },
    });
    expect(own.status).toBe(201);
    streams.set(tenant, []);
  }
  // The calm phase begins with the largest write A may make, made twice alone by workspaces of their own
  // (a cold and a warm gateway): the slower is how long a write behind one such write of A's may wait.
  for (let round = 0; round < 2; round += 1) {
    const key = await apiKey(await workspace('business'), ['read', 'create', 'update', 'delete']);
    const answer = await send(system, 'POST', '/api/v1/contacts/batch', { key, body: largestBatch() });
    expect(answer.status).toBe(200);
    largestWriteMs = Math.max(largestWriteMs, Math.round(answer.ms));
  }
  streaming = true;
  streamDone = Promise.all(
    [b, c].flatMap((tenant) => [
      stream(tenant, 'event', EVENT_GAP_MS),
      stream(tenant, 'upsert', UPSERT_GAP_MS),
    ]),
  ).then(() => undefined);
  // The calm phase: B and C write alone until each stream has had its CALM_WRITES answered, and every
  // write sent in it is answered before A begins.
  const settled = (sample: Sample) => sample.answer !== undefined || sample.error !== undefined;
  await eventually(
    'the calm phase of B and C',
    async () =>
      [b, c].every((tenant) =>
        (['event', 'upsert'] as const).every(
          (kind) =>
            streams.get(tenant)!.filter((s) => s.kind === kind && settled(s)).length >= CALM_WRITES[kind],
        ),
      ),
    90000,
  );
  phase = 'hostile';
  await eventually('the calm phase answered', async () =>
    [b, c].every((tenant) => streams.get(tenant)!.every((s) => s.phase === 'hostile' || settled(s))),
  );
  hostileFrom = Date.now();
}, 180000);

afterAll(async () => {
  streaming = false;
  await streamDone;
  await system?.stop();
}, 60000);

/** One hostile request of A and the answer §1 documents for it. */
interface Case {
  name: string;
  method: string;
  path: () => string;
  body?: () => Buffer | string;
  contentType?: string | null;
  /** Signs the body as the integration's inbound webhook wants. */
  signed?: boolean;
  admin?: boolean;
  status: number;
  /** The pointer one of the errors carries; a trailing `*` accepts anything below that prefix. */
  pointer?: string;
  /** A batch: the number of elements answered 201 in `results`. */
  created?: number;
}

const eventOf = (fields: Record<string, unknown>) =>
  json({ name: 'hostile.case', contact: { external_id: 'refused-event' }, ...fields });
const inbound = () => `/webhook/integration/${fixtures.integrationToken}`;
const contactPath = () => `/api/v1/contacts/${fixtures.contactId}`;
const tagPath = () => `/api/v1/tags/${fixtures.tagId}`;
const endpointPath = () => `/api/v1/webhook-endpoints/${fixtures.endpointId}`;
const utf8 = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))));

/** The largest body POST /api/v1/events accepts: both data objects at 64 KiB of escaping characters. */
const largestEvent = () =>
  padTo(
    json({
      name: 'hostile.largest',
      contact: { external_id: 'largest-event', data: dataOfSize(DATA_LIMIT) },
      data: dataOfSize(DATA_LIMIT),
    }),
    MIB - 1,
  );

/** 1,000 contacts, each with data of escaping characters, as close under 1 MiB as they fit. */
function largestBatch(count = 1000): Buffer {
  const contact = (i: number, data: Record<string, string>) => ({
    name: `Batch ${i}`,
    external_id: `largest-batch-${i}`,
    data,
  });
  const bare = json({ contacts: Array.from({ length: count }, (_, i) => contact(i, { k: '' })) });
  const perContact = Math.floor((MIB - 1 - Buffer.byteLength(bare)) / count);
  const dataBytes = json({ k: '' }).length + perContact;
  return padTo(
    json({ contacts: Array.from({ length: count }, (_, i) => contact(i, dataOfSize(dataBytes))) }),
    MIB - 1,
  );
}

const CASES: Case[] = [
  // Sizes (§1, §6): the largest accepted bodies, and one byte or one field too many.
  {
    name: 'the largest events body (1 MiB - 1, data and contact.data at 64 KiB of escaping characters)',
    method: 'POST',
    path: () => '/api/v1/events',
    body: largestEvent,
    status: 202,
  },
  {
    name: 'a 1,000-contact batch just under 1 MiB of escaping characters',
    method: 'POST',
    path: () => '/api/v1/contacts/batch',
    body: () => largestBatch(),
    status: 200,
    created: 1000,
  },
  {
    name: 'an event whose data is one step over 64 KiB, in a body just under 1 MiB',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => padTo(eventOf({ data: dataOfSize(DATA_LIMIT + 2) }), MIB - 1),
    status: 422,
    pointer: '/data/attributes/data',
  },
  {
    name: 'an event whose data is almost 1 MiB of escaping characters',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => padTo(eventOf({ data: dataOfSize(MIB - 200) }), MIB - 1),
    status: 422,
    pointer: '/data/attributes/data',
  },
  {
    name: 'an event whose contact.data is over 64 KiB',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => eventOf({ contact: { external_id: 'refused-cdata', data: dataOfSize(DATA_LIMIT + 2) } }),
    status: 422,
    pointer: '/data/attributes/contact/data',
  },
  {
    name: 'the largest upsert body (1 MiB - 1, data at 64 KiB of escaping characters)',
    method: 'POST',
    path: () => '/api/v1/contacts/upsert',
    body: () =>
      padTo(json({ name: 'Largest', external_id: 'largest-upsert', data: dataOfSize(DATA_LIMIT) }), MIB - 1),
    status: 201,
  },
  {
    name: 'the largest inbound webhook body (1 MiB - 1, event data and contact data at 64 KiB)',
    method: 'POST',
    path: inbound,
    signed: true,
    body: () =>
      padTo(
        json({
          external_id: 'largest-inbound',
          event: 'hostile.inbound',
          data: dataOfSize(DATA_LIMIT),
          contact: { data: dataOfSize(DATA_LIMIT) },
        }),
        MIB - 1,
      ),
    status: 202,
  },
  {
    name: 'a PUT that adds 40 KiB of data to a contact',
    method: 'PUT',
    path: contactPath,
    body: () => json({ data: dataOfSize(40 * 1024, 'first') }),
    status: 200,
  },
  {
    name: "a PUT whose merged data would take the contact's data past 64 KiB",
    method: 'PUT',
    path: contactPath,
    body: () => json({ data: dataOfSize(40 * 1024, 'second') }),
    status: 422,
    pointer: '/data/attributes/data',
  },
  {
    name: 'an events body of 1 MiB + 1',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => padTo(eventOf({}), MIB + 1),
    status: 413,
  },
  {
    name: 'a batch body of 1 MiB + 1',
    method: 'POST',
    path: () => '/api/v1/contacts/batch',
    body: () => padTo(json({ contacts: [{ name: 'refused-big', phone: '+14155550111' }] }), MIB + 1),
    status: 413,
  },
  {
    name: 'a batch of 1,001 contacts',
    method: 'POST',
    path: () => '/api/v1/contacts/batch',
    body: () =>
      json({
        contacts: Array.from({ length: 1001 }, (_, i) => ({
          name: `refused-${i}`,
          external_id: `refused-${i}`,
        })),
      }),
    status: 422,
    pointer: '/data/attributes/contacts',
  },
  {
    name: 'an inbound webhook body of 1 MiB + 1',
    method: 'POST',
    path: inbound,
    signed: true,
    body: () => padTo(json({ external_id: 'refused-inbound-big' }), MIB + 1),
    status: 413,
  },

  // NUL (§1).
  {
    name: 'NUL in an event name',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => json({ name: 'hostile\u0000', contact: { external_id: 'refused-nul-name' } }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'NUL in contact.external_id of an event',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => json({ name: 'hostile.nul', contact: { external_id: 'refused\u0000x' } }),
    status: 422,
    pointer: '/data/attributes/contact/external_id',
  },
  {
    name: 'NUL in a value of event data',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => eventOf({ data: { k: 'a\u0000b' } }),
    status: 422,
    pointer: '/data/attributes/data/k',
  },
  {
    name: 'NUL in a key of event data',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => eventOf({ data: { 'k\u0000': 1 } }),
    status: 422,
    pointer: '/data/attributes/data*',
  },
  {
    name: 'NUL in a value of contact.data of an event',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => eventOf({ contact: { external_id: 'refused-nul-cdata', data: { k: '\u0000' } } }),
    status: 422,
    pointer: '/data/attributes/contact/data/k',
  },
  {
    name: 'NUL in a contact name (upsert)',
    method: 'POST',
    path: () => '/api/v1/contacts/upsert',
    body: () => json({ name: 'refused\u0000', phone: '+14155550112' }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'NUL in a contact name (PUT)',
    method: 'PUT',
    path: contactPath,
    body: () => json({ name: 'refused\u0000' }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'NUL in a contact name inside a batch',
    method: 'POST',
    path: () => '/api/v1/contacts/batch',
    body: () => json({ contacts: [{ name: 'refused\u0000', phone: '+14155550113' }] }),
    status: 422,
    pointer: '/data/attributes/contacts/0/name',
  },
  {
    name: 'NUL in a tag name',
    method: 'POST',
    path: () => '/api/v1/tags',
    body: () => json({ name: 'refused\u0000' }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'NUL in a webhook endpoint description',
    method: 'POST',
    path: () => '/api/v1/webhook-endpoints',
    body: () =>
      json({
        url: 'https://hooks.example.invalid/refused',
        description: 'refused\u0000',
        event_types: ['consent.granted'],
      }),
    status: 422,
    pointer: '/data/attributes/description',
  },
  {
    name: 'NUL in an integration name',
    method: 'POST',
    path: () => '/api/v1/integrations',
    body: () => json({ type: 'webhook', name: 'refused\u0000' }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'NUL in an inbound webhook payload',
    method: 'POST',
    path: inbound,
    signed: true,
    body: () => json({ external_id: 'refused-inbound-nul', name: 'refused\u0000' }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'NUL in a workspace name (operator API)',
    method: 'POST',
    path: () => '/admin/v1/workspaces',
    admin: true,
    body: () => json({ name: 'refused\u0000', plan: 'pro' }),
    status: 422,
    pointer: '/data/attributes/name',
  },

  // Lone surrogates (§1).
  {
    name: 'a lone high surrogate in a value of event data',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => eventOf({ data: { k: 'x\ud800' } }),
    status: 422,
    pointer: '/data/attributes/data/k',
  },
  {
    name: 'a lone low surrogate in a key of event data',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => eventOf({ data: { ['\udc00']: 1 } }),
    status: 422,
    pointer: '/data/attributes/data*',
  },
  {
    name: 'a lone surrogate deep in contact data (upsert)',
    method: 'POST',
    path: () => '/api/v1/contacts/upsert',
    body: () =>
      json({ name: 'refused-surrogate', phone: '+14155550114', data: { a: { b: ['ok', '\udfff'] } } }),
    status: 422,
    pointer: '/data/attributes/data/a/b/1',
  },
  {
    name: 'a lone surrogate in an inbound webhook payload',
    method: 'POST',
    path: inbound,
    signed: true,
    body: () => json({ external_id: 'refused-inbound-surrogate', contact: { data: { k: '\ud83d' } } }),
    status: 422,
    pointer: '/data/attributes/contact/data/k',
  },

  // Depth (§1).
  {
    name: 'event data nested 10,000 deep',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () =>
      `{"name":"hostile.deep","contact":{"external_id":"refused-deep"},"data":${nestedObjects(10000)}}`,
    status: 422,
  },
  {
    name: 'contact data nested 10,000 deep in arrays (upsert)',
    method: 'POST',
    path: () => '/api/v1/contacts/upsert',
    body: () => `{"name":"refused-deep","phone":"+14155550115","data":{"k":${nestedArrays(10000)}}}`,
    status: 422,
  },
  {
    name: 'a tag body that is 10,000 nested arrays',
    method: 'POST',
    path: () => '/api/v1/tags',
    body: () => nestedArrays(10000),
    status: 422,
  },
  {
    name: 'an inbound webhook payload nested 10,000 deep',
    method: 'POST',
    path: inbound,
    signed: true,
    body: () => `{"external_id":"refused-inbound-deep","contact":{"data":${nestedObjects(10000)}}}`,
    status: 422,
  },
  {
    name: 'an operator body nested 10,000 deep',
    method: 'POST',
    path: () => '/admin/v1/workspaces',
    admin: true,
    body: () => `{"name":"refused","plan":"pro","x":${nestedObjects(10000)}}`,
    status: 422,
  },
  {
    // The body is level 1 and the object in `data` level 2, so 32 nested objects there make 33 levels.
    name: 'an event body 33 levels deep (one over the limit)',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () =>
      `{"name":"hostile.deep","contact":{"external_id":"refused-deep33"},"data":${nestedObjects(32)}}`,
    status: 422,
  },
  {
    name: 'an event body exactly 32 levels deep',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => `{"name":"hostile.deep","contact":{"external_id":"deep-32"},"data":${nestedObjects(31)}}`,
    status: 202,
  },

  // Identifiers in paths (§1: 404) and bodies (§1: 422 with a pointer).
  ...[
    '2147483648',
    '9007199254740991',
    '9007199254740992',
    '99999999999999999999',
    '0',
    '-1',
    '1e3',
    '0x10',
  ].map((id): Case => ({
    name: `GET /api/v1/contacts/${id}`,
    method: 'GET',
    path: () => `/api/v1/contacts/${id}`,
    status: 404,
  })),
  {
    name: 'PUT a contact whose id is 2^31',
    method: 'PUT',
    path: () => '/api/v1/contacts/2147483648',
    body: () => json({ name: 'refused' }),
    status: 404,
  },
  {
    name: 'PUT a channel link of a contact whose id is above 2^53 - 1',
    method: 'PUT',
    path: () => '/api/v1/contacts/9007199254740993/channels/telegram',
    body: () => json({ external_id: 'refused' }),
    status: 404,
  },
  { name: 'GET a tag whose id is 2^31', method: 'GET', path: () => '/api/v1/tags/2147483648', status: 404 },
  {
    name: 'PATCH a tag whose id is 2^31',
    method: 'PATCH',
    path: () => '/api/v1/tags/2147483648',
    body: () => json({ name: 'refused' }),
    status: 404,
  },
  {
    name: 'DELETE a tag whose id is 2^53',
    method: 'DELETE',
    path: () => '/api/v1/tags/9007199254740992',
    status: 404,
  },
  {
    name: 'GET an integration whose id is 2^31',
    method: 'GET',
    path: () => '/api/v1/integrations/2147483648',
    status: 404,
  },
  {
    name: 'PATCH a workspace whose id is 2^31 (operator API)',
    method: 'PATCH',
    path: () => '/admin/v1/workspaces/2147483648',
    admin: true,
    body: () => json({ name: 'refused' }),
    status: 404,
  },
  {
    name: 'a key for a workspace whose id is above 2^53 - 1 (operator API)',
    method: 'POST',
    path: () => '/admin/v1/workspaces/9007199254740993/api-keys',
    admin: true,
    body: () => json({ name: 'refused', permissions: ['read'] }),
    status: 404,
  },
  {
    name: 'DELETE an API key whose id is 2^31 (operator API)',
    method: 'DELETE',
    path: () => '/admin/v1/api-keys/2147483648',
    admin: true,
    status: 404,
  },
  {
    name: 'tags/attach with contact_id 2^31',
    method: 'POST',
    path: () => '/api/v1/tags/attach',
    body: () => json({ contact_id: 2147483648, tag_ids: [fixtures.tagId] }),
    status: 422,
    pointer: '/data/attributes/contact_id',
  },
  {
    name: 'tags/detach with contact_id 2^53 - 1 (valid, names nothing)',
    method: 'POST',
    path: () => '/api/v1/tags/detach',
    body: () => json({ contact_id: 9007199254740991, tag_ids: [fixtures.tagId] }),
    status: 422,
    pointer: '/data/attributes/contact_id',
  },
  {
    name: 'tags/sync with a tag id above 2^53 - 1',
    method: 'POST',
    path: () => '/api/v1/tags/sync',
    body: () => `{"contact_id":${fixtures.contactId},"tag_ids":[9007199254740993]}`,
    status: 422,
    pointer: '/data/attributes/tag_ids/0',
  },
  {
    name: 'tags/attach with a tag id of 2^31',
    method: 'POST',
    path: () => '/api/v1/tags/attach',
    body: () => json({ contact_id: fixtures.contactId, tag_ids: [2147483648] }),
    status: 422,
    pointer: '/data/attributes/tag_ids/0',
  },

  // Times (§1).
  {
    name: 'an event that occurred at 9999-12-31',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () =>
      json({
        name: 'hostile.future',
        contact: { external_id: 'future' },
        occurred_at: '9999-12-31T00:00:00.000Z',
      }),
    status: 422,
    pointer: '/data/attributes/occurred_at',
  },

  // The wrong JSON type (§1).
  {
    name: 'a null body on PUT /contacts/{id}',
    method: 'PUT',
    path: contactPath,
    body: () => 'null',
    status: 422,
  },
  {
    name: 'a null body on PUT /contacts/{id}/channels/telegram',
    method: 'PUT',
    path: () => `${contactPath()}/channels/telegram`,
    body: () => 'null',
    status: 422,
  },
  {
    name: 'a null body on PATCH /tags/{id}',
    method: 'PATCH',
    path: tagPath,
    body: () => 'null',
    status: 422,
  },
  {
    name: 'a null body on PATCH /webhook-endpoints/{id}',
    method: 'PATCH',
    path: endpointPath,
    body: () => 'null',
    status: 422,
  },
  {
    name: 'a null body on PATCH /admin/v1/workspaces/{id}',
    method: 'PATCH',
    path: () => `/admin/v1/workspaces/${a.workspaceId}`,
    admin: true,
    body: () => 'null',
    status: 422,
  },
  {
    name: 'an array body on POST /events',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => '[{"name":"hostile.array","contact":{"external_id":"refused-array"}}]',
    status: 422,
  },
  {
    name: 'a string body on POST /tags',
    method: 'POST',
    path: () => '/api/v1/tags',
    body: () => '"refused"',
    status: 422,
  },
  {
    name: 'a string where event data must be an object',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () => eventOf({ data: 'refused' }),
    status: 422,
    pointer: '/data/attributes/data',
  },
  {
    name: 'an array body to the inbound webhook',
    method: 'POST',
    path: inbound,
    signed: true,
    body: () => '[{"external_id":"refused-inbound-array"}]',
    status: 422,
    pointer: '/data',
  },

  // Content types (§1: 415) and bytes that are not UTF-8 (§1: 400).
  {
    name: 'a form-encoded tag',
    method: 'POST',
    path: () => '/api/v1/tags',
    contentType: 'application/x-www-form-urlencoded',
    body: () => 'name=refused-form',
    status: 415,
  },
  {
    name: 'a multipart event',
    method: 'POST',
    path: () => '/api/v1/events',
    contentType: 'multipart/form-data; boundary=x',
    body: () => '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nrefused\r\n--x--\r\n',
    status: 415,
  },
  {
    name: 'a JSON body sent as text/plain to PUT /contacts/{id}',
    method: 'PUT',
    path: contactPath,
    contentType: 'text/plain',
    body: () => json({ name: 'refused-text' }),
    status: 415,
  },
  {
    name: 'a form-encoded operator body',
    method: 'POST',
    path: () => '/admin/v1/workspaces',
    admin: true,
    contentType: 'application/x-www-form-urlencoded',
    body: () => 'name=refused&plan=pro',
    status: 415,
  },
  {
    name: 'invalid UTF-8 (0xFF 0xFE) in a tag name',
    method: 'POST',
    path: () => '/api/v1/tags',
    body: () => utf8('{"name":"refused-', [0xff, 0xfe], '"}'),
    status: 400,
  },
  {
    name: 'an overlong UTF-8 sequence in event data',
    method: 'POST',
    path: () => '/api/v1/events',
    body: () =>
      utf8(
        '{"name":"hostile.bytes","contact":{"external_id":"refused-bytes"},"data":{"k":"',
        [0xc0, 0xaf],
        '"}}',
      ),
    status: 400,
  },
  {
    name: 'a UTF-8-encoded surrogate (CESU) in a contact name',
    method: 'PUT',
    path: contactPath,
    body: () => utf8('{"name":"refused-', [0xed, 0xa0, 0x80], '"}'),
    status: 400,
  },
  {
    name: 'a truncated UTF-8 sequence in an inbound webhook payload',
    method: 'POST',
    path: inbound,
    signed: true,
    body: () => utf8('{"external_id":"refused-inbound-', [0xe2, 0x82], '"}'),
    status: 400,
  },
  {
    name: 'invalid UTF-8 in an operator body',
    method: 'POST',
    path: () => '/admin/v1/workspaces',
    admin: true,
    body: () => utf8('{"name":"refused-', [0x80], '","plan":"pro"}'),
    status: 400,
  },

  // Names made of whitespace (§1) and an https URL without a host.
  {
    name: 'a whitespace-only tag name',
    method: 'POST',
    path: () => '/api/v1/tags',
    body: () => json({ name: ' \t ' }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'a whitespace-only tag name on PATCH',
    method: 'PATCH',
    path: tagPath,
    body: () => json({ name: '\n  ' }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'a whitespace-only contact name (upsert)',
    method: 'POST',
    path: () => '/api/v1/contacts/upsert',
    body: () => json({ name: '   ', phone: '+14155550116' }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'a whitespace-only integration name',
    method: 'POST',
    path: () => '/api/v1/integrations',
    body: () => json({ type: 'webhook', name: '  ' }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'a whitespace-only workspace name (operator API)',
    method: 'POST',
    path: () => '/admin/v1/workspaces',
    admin: true,
    body: () => json({ name: ' ', plan: 'pro' }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'a whitespace-only API key name (operator API)',
    method: 'POST',
    path: () => `/admin/v1/workspaces/${a.workspaceId}/api-keys`,
    admin: true,
    body: () => json({ name: '\t', permissions: ['read'] }),
    status: 422,
    pointer: '/data/attributes/name',
  },
  {
    name: 'https:///hook as a webhook URL',
    method: 'POST',
    path: () => '/api/v1/webhook-endpoints',
    body: () => json({ url: 'https:///hook', event_types: ['consent.granted'] }),
    status: 422,
    pointer: '/data/attributes/url',
  },
  {
    name: 'https:///hook as a webhook URL on PATCH',
    method: 'PATCH',
    path: endpointPath,
    body: () => json({ url: 'https:///hook' }),
    status: 422,
    pointer: '/data/attributes/url',
  },
];

/** When each case of A was sent and answered: what a slow write of B or C overlapped. */
const caseSpans: Array<{ name: string; from: number; to: number }> = [];

async function sendCase(test: Case): Promise<TimedAnswer<Errors & Resource>> {
  const body = test.body?.();
  const headers: Record<string, string> = {};
  if (test.signed && body !== undefined)
    headers['x-webhook-signature'] = webhookSignature(body, fixtures.integrationSecret);
  const from = Date.now();
  try {
    return await send<Errors & Resource>(system, test.method, test.path(), {
      ...(test.admin ? { admin: true } : { key: a.key }),
      ...(body !== undefined ? { body } : {}),
      ...(test.contentType !== undefined ? { contentType: test.contentType } : {}),
      headers,
      timeoutMs: 30000,
    });
  } finally {
    caseSpans.push({ name: test.name, from, to: Date.now() });
  }
}

/** The slowest writes of `samples`, each with the cases of A that were in flight while it was. */
function slowest(samples: Sample[], count: number): string[] {
  return samples
    .filter((sample) => sample.answer !== undefined && sample.sentAt !== undefined)
    .sort((x, y) => y.answer!.ms - x.answer!.ms)
    .slice(0, count)
    .map((sample) => {
      const from = sample.sentAt!;
      const to = from + sample.answer!.ms;
      const overlapped = caseSpans
        .filter((span) => span.from < to && span.to > from)
        .map((span) => span.name);
      return `${sample.kind} ${sample.answer!.ms} ms during [${overlapped.join('; ')}]`;
    });
}

describe('workspace A sends hostile input while B (its partition) and C (another) keep writing', () => {
  it('puts A and B on one partition of the request topic and C on another', () => {
    expect(partitions).toBeGreaterThan(1);
    expect(a.partition).toBe(b.partition);
    expect(c.partition).not.toBe(a.partition);
  });

  it.each(CASES.map((test) => [test.name, test] as const))(
    '%s',
    async (_name, test) => {
      const answer = await sendCase(test);
      const pointers = (answer.body?.errors ?? []).map((error) => error.source?.pointer);
      // On a failure this shows what A saw instead.
      expect({
        status: answer.status,
        seen: answer.status === test.status ? 'as expected' : answer.text.slice(0, 400),
      }).toEqual({
        status: test.status,
        seen: 'as expected',
      });
      if (test.pointer?.endsWith('*')) {
        const prefix = test.pointer.slice(0, -1);
        expect(pointers.some((pointer) => pointer?.startsWith(prefix))).toBe(true);
      } else if (test.pointer !== undefined) {
        expect(pointers).toContain(test.pointer);
      }
      if (answer.status >= 400) {
        expect(answer.headers.get('content-type')).toMatch(/^application\/(vnd\.api\+)?json/);
        expect(answer.text).not.toMatch(/\bat .+\.(js|ts):\d+/);
      }
      // §1: every /api/v1 answer to a valid key carries the rate-limit headers; so does every answer of
      // a known inbound webhook URL (docs/api-notes.md).
      // The inbound webhook answers 413 and 415 before it looks at the URL (docs/api-notes.md), so
      // those two carry no rate-limit headers.
      if (!test.admin && !(test.signed && [413, 415].includes(answer.status))) {
        expect([
          answer.headers.get('x-ratelimit-limit'),
          answer.headers.get('x-ratelimit-remaining'),
        ]).toEqual([expect.stringMatching(/^\d+$/), expect.stringMatching(/^\d+$/)]);
      }
      if (is2xx(answer.status) && test.path() === '/api/v1/events')
        acceptedEventIds.push(answer.body.data.id);
      const inboundEvent = test.signed && is2xx(answer.status) ? answer.body.data.event_id : null;
      if (typeof inboundEvent === 'number') acceptedEventIds.push(inboundEvent);
      if (test.created !== undefined) {
        const { results } = answer.body.data as unknown as { results: Array<{ status: number }> };
        expect(results.filter((result) => result.status === 201)).toHaveLength(test.created);
      }
    },
    60000,
  );

  it('counts every refused request against the budget it belongs to (400, 404, 413, 415, 422)', async () => {
    const key = await apiKey(a.workspaceId, ['read', 'create', 'update', 'delete']);
    const refused: Array<[string, string, Buffer | string | undefined, string | undefined]> = [
      ['POST', '/api/v1/tags', utf8('{"name":"', [0xff], '"}'), undefined],
      ['GET', '/api/v1/contacts/2147483648', undefined, undefined],
      ['POST', '/api/v1/tags', padTo(json({ name: 'refused-big' }), MIB + 1), undefined],
      ['POST', '/api/v1/tags', 'name=refused', 'application/x-www-form-urlencoded'],
      ['POST', '/api/v1/tags', json({ name: '\u0000' }), undefined],
      ['PATCH', tagPath(), 'null', undefined],
    ];
    const remaining: Array<[number, string | null]> = [];
    for (const [method, path, body, contentType] of refused) {
      const answer = await send(system, method, path, {
        key,
        ...(body !== undefined ? { body } : {}),
        ...(contentType !== undefined ? { contentType } : {}),
      });
      remaining.push([answer.status, answer.headers.get('x-ratelimit-remaining')]);
    }
    expect(remaining).toEqual([
      [400, '119'],
      [404, '118'],
      [413, '117'],
      [415, '116'],
      [422, '115'],
      [422, '114'],
    ]);
    const events: Array<string | null> = [];
    for (const body of [
      eventOf({ data: 'x' }),
      padTo(eventOf({}), MIB + 1),
      utf8('{"name":"', [0xff], '"}'),
    ]) {
      const answer = await send(system, 'POST', '/api/v1/events', { key, body });
      events.push(answer.headers.get('x-ratelimit-remaining'));
    }
    const counts = events.map(Number);
    expect([counts[0]! - counts[1]!, counts[1]! - counts[2]!]).toEqual([1, 1]);
  });

  it('answers bad read filters and huge ids with 4xx again and again without opening a breaker for others (§6)', async () => {
    // A key of its own: thirty requests would eat into the per-key budget the cases above share.
    const key = await apiKey(a.workspaceId, ['read']);
    const statuses = new Set<number>();
    for (let i = 0; i < 15; i += 1) {
      const [filter, byId] = await Promise.all([
        send(system, 'GET', '/api/v1/contacts?filter[phone]=%00', { key }),
        send(system, 'GET', '/api/v1/contacts/2147483648', { key }),
      ]);
      statuses.add(filter.status);
      expect(byId.status).toBe(404);
    }
    // §6 asks for a 4xx; the body rules of §1 make a NUL in a filter value a validation error.
    expect(statuses.size).toBe(1);
    expect([400, 422]).toContain([...statuses][0]);
    const metrics = await (await fetch(`${system.url}/metrics`)).text();
    expect(metrics).toMatch(/^cms_circuit_breaker_state\{[^}]*upstream="contacts"[^}]*\} 0$/m);
    for (const tenant of [a, b, c]) {
      const read = await system.call('GET', '/api/v1/contacts?per_page=1', { key: tenant.readKey });
      expect([tenant.workspaceId, read.status]).toEqual([tenant.workspaceId, 200]);
    }
  });

  it('leaves a contact writable after an event dated 9999-12-31 was refused', async () => {
    for (const name of ['Later', 'Latest']) {
      const answer = await system.call<Resource>('POST', '/api/v1/events', {
        key: a.key,
        body: { name: 'hostile.after', contact: { external_id: 'future', name } },
      });
      expect(answer.status).toBe(202);
      acceptedEventIds.push(answer.body.data.id);
    }
    const found = await system.call<Page<{ name: string }>>(
      'GET',
      '/api/v1/contacts?filter[external_id]=future',
      {
        key: a.readKey,
      },
    );
    expect(found.body.data.map((contact) => contact.name)).toEqual(['Latest']);
  });
});

describe('afterwards', () => {
  const samplesOf = (tenant: Tenant) => streams.get(tenant)!;

  beforeAll(async () => {
    await delay(Math.max(0, hostileFrom + MIN_STREAM_MS - Date.now()));
    streaming = false;
    await streamDone;
  }, 30000);

  it('answered every write of B and C with a 2xx while A was hostile', () => {
    for (const tenant of [b, c]) {
      const samples = samplesOf(tenant);
      expect(samples.length).toBeGreaterThan(20);
      const failed = samples
        .filter((sample) => !sample.answer || !is2xx(sample.answer.status))
        .map((sample) => [sample.kind, sample.seq, sample.answer?.status ?? sample.error]);
      expect([tenant.workspaceId, failed]).toEqual([tenant.workspaceId, []]);
    }
  });

  it(`kept the p99 of B's and C's writes while A was hostile within ${P99_FACTOR}× their calm p99 + A's largest write + ${P99_SLACK_MS} ms`, () => {
    const verdict = (tenant: Tenant) => {
      const of = (phase: Sample['phase']) => {
        const samples = samplesOf(tenant).filter((sample) => sample.phase === phase);
        const times = samples.flatMap((sample) => (sample.answer ? [sample.answer.ms] : []));
        return { samples, count: times.length, p99: Math.round(percentile(times, 0.99)) };
      };
      const calm = of('calm');
      const hostile = of('hostile');
      const bound = P99_FACTOR * calm.p99 + largestWriteMs + P99_SLACK_MS;
      return hostile.p99 <= bound
        ? 'within'
        : `p99 ${hostile.p99} ms over ${hostile.count} writes while A was hostile, over ${bound} ms ` +
            `(calm p99 ${calm.p99} ms over ${calm.count} writes, the largest write ${largestWriteMs} ms); ` +
            `slowest: ${slowest(hostile.samples, 3).join(' | ')}`;
    };
    expect({ 'B (same partition as A)': verdict(b), 'C (another partition)': verdict(c) }).toEqual({
      'B (same partition as A)': 'within',
      'C (another partition)': 'within',
    });
  });

  it('shows every accepted event of B and C exactly once in GET /api/v1/events, and nothing else', async () => {
    for (const tenant of [b, c]) {
      const expected = samplesOf(tenant)
        .filter((sample) => sample.kind === 'event' && sample.answer && is2xx(sample.answer.status))
        .map((sample) => sample.answer!.body.data.id)
        .sort((x, y) => x - y);
      const listed = (await allPages<{ id: number }>(tenant, '/api/v1/events')).map((event) => event.id);
      expect([tenant.workspaceId, listed.sort((x, y) => x - y)]).toEqual([tenant.workspaceId, expected]);
    }
  });

  it('holds every contact B and C were answered 2xx for exactly once, and nothing else', async () => {
    for (const tenant of [b, c]) {
      const upserted = samplesOf(tenant)
        .filter((sample) => sample.kind === 'upsert' && sample.answer && is2xx(sample.answer.status))
        .map((sample) => sample.answer!.body.data.id);
      const listed = await allPages<{ id: number; phone: string }>(tenant, '/api/v1/contacts');
      const streamer = listed.filter((contact) => contact.phone === phoneOf(tenant, 0));
      expect(streamer).toHaveLength(1);
      expect([tenant.workspaceId, listed.map((contact) => contact.id).sort((x, y) => x - y)]).toEqual([
        tenant.workspaceId,
        [streamer[0]!.id, ...upserted].sort((x, y) => x - y),
      ]);
    }
  });

  it('stored nothing of what it refused A', async () => {
    const events = (await allPages<{ id: number }>(a, '/api/v1/events')).map((event) => event.id);
    expect(events.sort((x, y) => x - y)).toEqual([...acceptedEventIds].sort((x, y) => x - y));
    const contacts = await allPages<{ name: string | null; external_id: string | null }>(
      a,
      '/api/v1/contacts',
    );
    const leaked = contacts.filter(
      (contact) =>
        ['refused', '\u0000'].some((mark) =>
          `${contact.name ?? ''} ${contact.external_id ?? ''}`.includes(mark),
        ) ||
        (contact.name !== null && contact.name.trim() === ''),
    );
    expect(leaked).toEqual([]);
    const tags = await allPages<{ name: string }>(a, '/api/v1/tags');
    expect(tags.map((tag) => tag.name)).toEqual(['a-own']);
    const endpoints = await system.call<{ data: Array<{ url: string; description: string | null }> }>(
      'GET',
      '/api/v1/webhook-endpoints',
      { key: a.readKey },
    );
    expect(endpoints.body.data.map((endpoint) => endpoint.url)).toEqual(['https://hooks.example.invalid/a']);
  });

  it('still takes good writes from A, through the API and the inbound webhook', async () => {
    const event = await system.call<Resource>('POST', '/api/v1/events', {
      key: a.key,
      body: { name: 'hostile.good', contact: { phone: '+14155550199' }, data: { ok: true } },
    });
    const upsert = await system.call<Resource>('POST', '/api/v1/contacts/upsert', {
      key: a.key,
      body: { name: 'A good', phone: '+14155550198' },
    });
    const tag = await system.call<Resource>('POST', '/api/v1/tags', { key: a.key, body: { name: 'a-good' } });
    const payload = json({ external_id: 'a-good-inbound', name: 'A inbound' });
    const delivery = await send<Resource>(system, 'POST', inbound(), {
      body: payload,
      headers: { 'x-webhook-signature': webhookSignature(payload, fixtures.integrationSecret) },
    });
    expect([event.status, upsert.status, tag.status, delivery.status]).toEqual([202, 201, 201, 202]);
  });

  it('leaves every service ready', async () => {
    await eventually(
      'every service answers /ready with 200',
      async () => {
        const statuses = await Promise.all(
          SERVICES.map((name) =>
            fetch(`${system.baseUrl(name)}/ready`, { signal: AbortSignal.timeout(3000) }).then(
              (response) => response.status,
              () => 0,
            ),
          ),
        );
        return statuses.every((status) => status === 200);
      },
      15000,
      250,
    );
  });

  it('drains every outbox and dead-letters nothing: what the edge let through, the backbone carried', async () => {
    const db = new Client({ connectionString: system.stack.databaseUrl });
    await db.connect();
    try {
      const count = async (service: ServiceName, table: string) =>
        (
          await db.query<{ count: number }>(
            `SELECT count(*)::int AS count FROM "${system.schema(service)}"."${table}"`,
          )
        ).rows[0]!.count;
      for (const service of SERVICES) {
        await eventually(
          `the ${service} outbox drained`,
          async () => (await count(service, 'outbox')) === 0,
          15000,
          250,
        );
        const dead = await db.query<{ topic: string; reason: string }>(
          `SELECT topic, reason FROM "${system.schema(service)}"."dead_letters"`,
        );
        expect([service, dead.rows]).toEqual([service, []]);
      }
    } finally {
      await db.end();
    }
  });

  it('holds every large write it accepted from A, once', async () => {
    const contacts = await allPages<{ external_id: string | null }>(a, '/api/v1/contacts');
    const held = (externalId: string) =>
      contacts.filter((contact) => contact.external_id === externalId).length;
    const expected = [
      'largest-event',
      'largest-upsert',
      'largest-inbound',
      ...Array.from({ length: 1000 }, (_, i) => `largest-batch-${i}`),
    ];
    expect(expected.filter((externalId) => held(externalId) !== 1)).toEqual([]);
  });
});
