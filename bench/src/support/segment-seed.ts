import {
  CONSENT_CHANNELS,
  CONTACT_FACT_TYPES,
  createEnvelope,
  EVENT_FACT_TYPES,
  LINK_CHANNELS,
  TAG_FACT_TYPES,
  type ContactSnapshotV1,
  type Envelope,
  type EventRecordedV1,
  type TagFactV1,
} from '@cms/contracts';
import { CompressionTypes, type Kafka, type Message } from 'kafkajs';

/**
 * A workspace of contacts as the contacts service's facts describe them (tags, custom data, consent,
 * linked channels, recorded events), written straight into cms.contacts.v1 as that service's relay
 * would: the segments view is made from these facts only, and a million contacts through the API
 * would take the whole run. Everything is drawn from a seeded generator, so a run of a given size
 * always holds the same workspace, relative to the time it was seeded at.
 */

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Ids far above what the bench gateway's sequences and the log feeder reach in a run, so seeded
 * contacts and events never share an id with ones made through the API.
 */
const CONTACT_ID_BASE = 3_000_000_000;
const EVENT_ID_BASE = 5_000_000_000;
const TAG_ID_BASE = 2_900_000_000;

export const SEED_TAGS = [
  'vip',
  'newsletter',
  'churn-risk',
  'wholesale',
  'beta',
  'loyalty',
  'black-friday',
  'returning',
  'trial',
  'partner',
  'event-2026',
  'referral',
  'support-ticket',
  'high-value',
  'inactive',
  'sms-only',
  'app-user',
  'student',
  'b2b',
  'press',
] as const;

export const SEED_PLANS = ['free', 'starter', 'pro', 'business'] as const;
export const SEED_EVENTS = ['purchase', 'page.viewed', 'cart.abandoned', 'app.opened'] as const;
export const SEED_CITIES = [
  'Berlin',
  'London',
  'Paris',
  'Madrid',
  'Rome',
  'Lisbon',
  'Warsaw',
  'Vienna',
  'Prague',
  'Dublin',
  'Amsterdam',
  'Brussels',
  'Oslo',
  'Helsinki',
  'Athens',
  'Zurich',
  'Munich',
  'Hamburg',
  'Milan',
  'Lyon',
] as const;
const FIRST_NAMES = [
  'Anna',
  'James',
  'Maria',
  'John',
  'Hannah',
  'Robert',
  'Joanna',
  'Michael',
  'Elena',
  'David',
  'Sofia',
  'Daniel',
  'Olga',
  'Thomas',
  'Laura',
  'Peter',
  'Dianne',
  'Mark',
  'Julia',
  'Paul',
  'Emma',
  'Lucas',
  'Mia',
  'Noah',
  'Leah',
  'Adam',
  'Sara',
  'Ivan',
  'Nina',
  'Omar',
  'Zoe',
  'Hugo',
  'Lena',
  'Karl',
  'Ines',
  'Yuki',
  'Ana',
  'Luis',
  'Eva',
  'Tom',
];
const LAST_NAMES = [
  'Smith',
  'Mann',
  'Garcia',
  'Novak',
  'Rossi',
  'Müller',
  'Dubois',
  'Jensen',
  'Silva',
  'Kowalski',
  'Brown',
  'Hoffmann',
  'Lopez',
  'Nowak',
  'Bianchi',
  'Schmidt',
  'Martin',
  'Larsen',
  'Costa',
  'Wiśniewski',
  'Taylor',
  'Fischer',
  'Perez',
  'Horvat',
  'Ricci',
  'Weber',
  'Bernard',
  'Nielsen',
  'Santos',
  'Lewandowski',
  'Wilson',
  'Wagner',
  'Sanchez',
  'Kovac',
  'Marino',
  'Becker',
  'Thomas',
  'Hansen',
  'Ferreira',
  'Zielinski',
];

/** mulberry32: small, fast and the same on every machine. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface SeedPlan {
  workspaceId: number;
  contacts: number;
  /**
   * When the workspace is seeded. Every time in it is `at` minus whole days minus 2 to 22 hours, so
   * for two hours after `at` no contact or event crosses a whole-day boundary of a relative filter
   * (`within_last P30D`) between one evaluation and the next: the preview and the SQL count the same.
   */
  at: number;
}

export interface SeedCounts {
  tags: number;
  contacts: number;
  events: number;
  facts: number;
  bytes: number;
}

/** The workspace's tag ids, in SEED_TAGS order. */
export function seedTagIds(): number[] {
  return SEED_TAGS.map((_, index) => TAG_ID_BASE + index + 1);
}

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)]!;
}

/** `at` less `days` whole days and 2 to 22 hours. */
function pastTime(at: number, days: number, random: () => number): number {
  return at - days * DAY_MS - 2 * HOUR_MS - Math.floor(random() * 20 * HOUR_MS);
}

function consentValue(random: () => number, granted: number, refused: number): boolean | null {
  const draw = random();
  return draw < granted ? true : draw < granted + refused ? false : null;
}

/** Up to three tags, the first few far more common than the rest. */
function tagsOf(random: () => number, tagIds: number[]): number[] {
  const count = Math.floor(random() * 4);
  const chosen = new Set<number>();
  for (let n = 0; n < count; n += 1) {
    chosen.add(tagIds[Math.floor(random() ** 2 * tagIds.length)]!);
  }
  return [...chosen].sort((a, b) => a - b);
}

function contactSnapshot(index: number, plan: SeedPlan, random: () => number): ContactSnapshotV1 {
  const id = CONTACT_ID_BASE + index + 1;
  const first = pick(FIRST_NAMES, random);
  const last = pick(LAST_NAMES, random);
  const created = new Date(pastTime(plan.at, Math.floor(random() * 365), random)).toISOString();
  const data: Record<string, unknown> = {
    plan: SEED_PLANS[[0, 0, 0, 0, 1, 1, 2, 2, 3, 3][Math.floor(random() * 10)]!]!,
    spent: Math.round(random() ** 2 * 200_000) / 100,
    signup_date: new Date(pastTime(plan.at, Math.floor(random() * 1095), random)).toISOString().slice(0, 10),
  };
  if (random() >= 0.05) data.city = pick(SEED_CITIES, random);
  return {
    contact_id: id,
    name: random() < 0.03 ? null : `${first} ${last}`,
    phone: random() < 0.9 ? `+1415${String(2_000_000 + index).padStart(7, '0')}` : null,
    email: random() < 0.6 ? `${first}.${last}.${index}@example.com`.toLowerCase() : null,
    external_id: random() < 0.3 ? `crm-${index}` : null,
    source: pick(['api', 'api', 'api', 'import', 'import', 'form'], random),
    data,
    marketing_consent: Object.fromEntries(
      CONSENT_CHANNELS.map((channel) => [
        channel,
        channel === 'whatsapp' ? consentValue(random, 0.35, 0.15) : consentValue(random, 0.25, 0.1),
      ]),
    ) as ContactSnapshotV1['marketing_consent'],
    tag_ids: tagsOf(random, seedTagIds()),
    channels: Object.fromEntries(
      LINK_CHANNELS.map((channel) => [
        channel,
        channel === 'telegram'
          ? random() < 0.15
            ? String(700_000_000 + index)
            : null
          : channel === 'messenger' && random() < 0.05
            ? `m${index}`
            : null,
      ]),
    ) as ContactSnapshotV1['channels'],
    created_at: created,
    updated_at: created,
  };
}

/** The facts of the workspace in the order the contacts service would have published them. */
export function* workspaceFacts(plan: SeedPlan, counts: SeedCounts): Generator<Envelope> {
  const random = generator(0x5e9 + plan.contacts);
  const workspaceid = String(plan.workspaceId);
  const time = new Date(plan.at).toISOString();
  const tagIds = seedTagIds();
  for (let index = 0; index < tagIds.length; index += 1) {
    const data: TagFactV1 = { tag_id: tagIds[index]!, name: SEED_TAGS[index]!, color: null, at: time };
    counts.tags += 1;
    yield createEnvelope({
      type: TAG_FACT_TYPES.created,
      source: 'contacts',
      workspaceid,
      subject: String(data.tag_id),
      time,
      data,
    });
  }
  let eventId = EVENT_ID_BASE;
  for (let index = 0; index < plan.contacts; index += 1) {
    const snapshot = contactSnapshot(index, plan, random);
    counts.contacts += 1;
    yield createEnvelope({
      type: CONTACT_FACT_TYPES.created,
      source: 'contacts',
      workspaceid,
      subject: String(snapshot.contact_id),
      time,
      data: snapshot,
    });
    // About two events a contact over the last 90 days (0 to 4).
    const events = Math.floor(random() * 5);
    for (let n = 0; n < events; n += 1) {
      const draw = random();
      const name = SEED_EVENTS[draw < 0.2 ? 0 : draw < 0.7 ? 1 : draw < 0.85 ? 2 : 3]!;
      const occurred = new Date(pastTime(plan.at, Math.floor(random() * 89), random)).toISOString();
      eventId += 1;
      const data: EventRecordedV1 = {
        event_id: eventId,
        name,
        contact_id: snapshot.contact_id,
        data: {},
        occurred_at: occurred,
        received_at: occurred,
        idempotency_key: null,
      };
      counts.events += 1;
      yield createEnvelope({
        type: EVENT_FACT_TYPES.recorded,
        source: 'contacts',
        workspaceid,
        subject: String(eventId),
        time,
        data,
      });
    }
  }
}

/**
 * Records a produce request carries (well under the topics' 8 MiB batch limit). kafkajs groups a
 * call's messages by partition in time that grows with the square of their number in one partition,
 * and a workspace's facts all go to one: a thousand published faster here than 500, 2,000 or 4,000.
 */
const RECORDS_PER_REQUEST = 1_000;

/**
 * Publishes the workspace's facts to `topic`, keyed by workspace as the relay keys them, in produce
 * requests of a thousand records without compression; the next request is built while the last
 * is in flight. One request at a time keeps the partition's order (a contact before its events).
 */
export async function publishWorkspace(kafka: Kafka, topic: string, plan: SeedPlan): Promise<SeedCounts> {
  const counts: SeedCounts = { tags: 0, contacts: 0, events: 0, facts: 0, bytes: 0 };
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    // Idempotence only holds while kafkajs keeps retrying the same sequence numbers.
    retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 100, maxRetryTime: 5000 },
  });
  await producer.connect();
  try {
    let inFlight: Promise<unknown> = Promise.resolve();
    let messages: Message[] = [];
    const flush = async (): Promise<void> => {
      const batch = messages;
      messages = [];
      await inFlight;
      inFlight = producer.send({ topic, acks: -1, compression: CompressionTypes.None, messages: batch });
    };
    for (const envelope of workspaceFacts(plan, counts)) {
      const value = JSON.stringify(envelope);
      counts.facts += 1;
      counts.bytes += Buffer.byteLength(value);
      messages.push({
        key: envelope.workspaceid,
        value,
        headers: { ce_type: envelope.type, ce_id: envelope.id, correlation_id: envelope.correlationid },
      });
      if (messages.length === RECORDS_PER_REQUEST) await flush();
    }
    if (messages.length > 0) await flush();
    await inFlight;
  } finally {
    await producer.disconnect();
  }
  return counts;
}
