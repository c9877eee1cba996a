import { CONSENT_CHANNELS, type ConsentChannel, type PhoneNormaliser } from '@cms/contracts';

import type { ContactEventRow } from './event-store';
import type { SuppressionEntryRow } from './suppression-list';
import { WorkspaceIndex, type ContactRow } from './workspace-index';

/**
 * A made-up workspace of any size, the same every time (a seeded generator), for measuring the index
 * and the SQL baseline on the same data: contacts with a realistic spread of fields, custom fields,
 * consent, tags and linked channels; events over the last half year; a suppression list.
 */

const DAY = 86_400_000;
/** The evaluation time the data is laid out around (2026-06-01T12:00:00Z). */
export const SYNTHETIC_NOW = Date.UTC(2026, 5, 1, 12);

const FIRST_NAMES = ['Ana', 'João', 'Maria', 'Pedro', 'Sofia', 'Liam', 'Emma', 'Noah', 'Olivia', 'Élodie'];
const LAST_NAMES = ['Silva', 'Santos', 'Smith', 'Jones', 'Müller', 'Rossi', 'Dubois', 'Costa', 'Brown'];
const SOURCES = ['web', 'import', 'api', 'pos', 'referral'];
const PLANS = ['free', 'pro', 'team', 'enterprise'];
const CITIES = Array.from({ length: 50 }, (_, index) => `City ${index + 1}`);
export const SYNTHETIC_EVENT_NAMES = ['page_view', 'purchase', 'email_opened', 'cart_abandoned', 'signup'];
/** Tag ids 1…TAGS; low ids are used far more than high ones. */
const TAGS = 100;

export interface SyntheticOptions {
  phoneE164: PhoneNormaliser;
  /** Events per contact on average (3). */
  eventsPerContact?: number;
  /** Contacts per batch handed to the index, as a loader would (10,000). */
  batch?: number;
  seed?: number;
}

export interface SyntheticWorkspace {
  index: WorkspaceIndex;
  now: number;
  contacts: number;
  events: number;
  suppressions: number;
  /** Milliseconds spent inside the index's upserts (generating the rows is not counted). */
  buildMs: number;
  /** CPU milliseconds of the process over the same upserts (what a busy machine does not inflate). */
  buildCpuMs: number;
}

/** A small fast generator (mulberry32): the same seed gives the same workspace. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Contact ids are not in row order: a bijection of the row number onto large ids (above 2^31, as
 * minted ids are), so sampling by smallest id is exercised for real.
 */
export function syntheticContactId(row: number): number {
  return 1_000_000_000_000 + (Math.imul(row, 0x9e3779b1) >>> 0);
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** One contact of the made-up workspace. */
export function syntheticContact(row: number, random: () => number, now = SYNTHETIC_NOW): ContactRow {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const first = pick(FIRST_NAMES);
  const last = pick(LAST_NAMES);
  const created = now - Math.floor(random() * 3 * 365 * DAY);
  const consent = {} as Record<ConsentChannel, boolean | null>;
  for (const channel of CONSENT_CHANNELS) {
    const roll = random();
    consent[channel] = roll < 0.5 ? true : roll < 0.7 ? false : null;
  }
  const tags = new Set<number>();
  const tagCount = Math.floor(random() * 5);
  // Squaring skews towards low tag ids, as a few tags are on most contacts in a real workspace.
  for (let index = 0; index < tagCount; index += 1) tags.add(1 + Math.floor(random() ** 2 * TAGS));
  const data: Record<string, unknown> = {
    plan: pick(PLANS),
    score: Math.floor(random() * 1000),
    city: pick(CITIES),
    signup_day: day(created),
    vip: random() < 0.1,
    address: { country: pick(['PT', 'GB', 'DE', 'FR', 'US']) },
  };
  if (random() < 0.6) data.last_order_at = new Date(now - Math.floor(random() * 365 * DAY)).toISOString();
  return {
    id: syntheticContactId(row),
    name: random() < 0.95 ? `${first} ${last}` : null,
    phone: random() < 0.9 ? `+44770${String(row).padStart(7, '0')}` : null,
    email: random() < 0.85 ? `${first}.${last}${row}@Example.com` : null,
    external_id: random() < 0.7 ? `crm-${row}` : null,
    source: random() < 0.9 ? pick(SOURCES) : null,
    data,
    marketing_consent: consent,
    channels: {
      telegram: random() < 0.1 ? `tg${row}` : null,
      messenger: random() < 0.05 ? `fb${row}` : null,
      instagram: null,
      browser_push: random() < 0.02 ? `push-${row}` : null,
    },
    tag_ids: [...tags],
    created_at: created,
    updated_at: created + Math.floor(random() * (now - created)),
  };
}

/** Builds the made-up workspace of `contacts` contacts into a new index, timing the upserts. */
export function buildSyntheticIndex(contacts: number, options: SyntheticOptions): SyntheticWorkspace {
  const random = seededRandom(options.seed ?? 42);
  const index = new WorkspaceIndex({ phoneE164: options.phoneE164 });
  const batch = options.batch ?? 10_000;
  const eventsPerContact = options.eventsPerContact ?? 3;
  const now = SYNTHETIC_NOW;
  let buildMs = 0;
  let buildCpuMs = 0;
  let events = 0;
  let suppressions = 0;
  const timed = (write: () => void): void => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    write();
    const used = process.cpuUsage(cpu);
    buildCpuMs += (used.user + used.system) / 1000;
    buildMs += performance.now() - started;
  };
  // As a loader that counted the rows first (the events only roughly: they are drawn on the way).
  timed(() => index.reserve({ contacts, events: Math.ceil(contacts * eventsPerContact * 1.01) }));
  for (let start = 0; start < contacts; start += batch) {
    const rows: ContactRow[] = [];
    const eventRows: ContactEventRow[] = [];
    const entries: SuppressionEntryRow[] = [];
    for (let row = start; row < Math.min(contacts, start + batch); row += 1) {
      const contact = syntheticContact(row, random, now);
      rows.push(contact);
      const count = Math.floor(random() * eventsPerContact * 2 + 0.5);
      for (let index = 0; index < count; index += 1) {
        events += 1;
        eventRows.push({
          event_id: events,
          contact_id: contact.id,
          name: SYNTHETIC_EVENT_NAMES[Math.floor(random() ** 1.5 * SYNTHETIC_EVENT_NAMES.length)]!,
          occurred_at: now - Math.floor(random() * 180 * DAY),
        });
      }
      if (contact.phone !== null && random() < 0.01) {
        suppressions += 1;
        entries.push({
          id: `sup_${suppressions}`,
          channel: 'whatsapp',
          address: contact.phone,
          active: true,
        });
      }
      if (contact.email !== null && random() < 0.01) {
        suppressions += 1;
        entries.push({ id: `sup_${suppressions}`, channel: 'email', address: contact.email, active: true });
      }
    }
    timed(() => {
      index.upsertContacts(rows);
      index.upsertEvents(eventRows);
      index.upsertSuppressions(entries);
    });
  }
  return { index, now, contacts, events, suppressions, buildMs, buildCpuMs };
}

/**
 * Filters a workspace typically asks for, from a lookup of one field to the worst realistic shape
 * (nested any/not over several conditions with event windows), as a client sends them. They name
 * audience 1, whose members the caller supplies.
 */
export const SYNTHETIC_FILTERS: ReadonlyArray<{ name: string; criteria: unknown[] }> = [
  {
    name: 'external_id eq',
    criteria: [{ field: 'external_id', operator: 'eq', value: 'CRM-4242' }],
  },
  { name: 'data number range', criteria: [{ field: 'data.score', operator: 'between', value: [100, 300] }] },
  { name: 'tag has', criteria: [{ field: 'tags', operator: 'has', value: 7 }] },
  {
    name: 'consent + channel exists',
    criteria: [
      { field: 'consent.whatsapp', operator: 'eq', value: true },
      { field: 'channel.telegram', operator: 'exists' },
    ],
  },
  {
    name: 'event performed within P30D',
    criteria: [{ field: 'event.purchase', operator: 'performed', value: { within_last: 'P30D' } }],
  },
  {
    name: 'nested any/not',
    criteria: [
      {
        any: [
          { field: 'data.plan', operator: 'in', value: ['pro', 'team'] },
          { not: { field: 'tags', operator: 'has_any', value: [1, 2, 3] } },
        ],
      },
      { not: { field: 'source', operator: 'eq', value: 'import' } },
    ],
  },
  { name: 'name contains', criteria: [{ field: 'name', operator: 'contains', value: 'ana' }] },
  {
    name: 'created_at within_last',
    criteria: [{ field: 'created_at', operator: 'within_last', value: 'P90D' }],
  },
  {
    name: 'event count_gte within P7D',
    criteria: [{ field: 'event.page_view', operator: 'count_gte', value: { count: 3, within_last: 'P7D' } }],
  },
  { name: 'audience in', criteria: [{ field: 'audience', operator: 'in', value: [1] }] },
  {
    name: 'worst realistic',
    criteria: [
      {
        any: [
          {
            all: [
              { field: 'event.purchase', operator: 'count_gte', value: { count: 2, within_last: 'P90D' } },
              {
                not: { field: 'event.cart_abandoned', operator: 'performed', value: { within_last: 'P7D' } },
              },
            ],
          },
          {
            all: [
              { field: 'data.last_order_at', operator: 'within_last', value: 'P1M' },
              { field: 'data.plan', operator: 'neq', value: 'free' },
            ],
          },
          {
            not: {
              any: [
                { field: 'email', operator: 'ends_with', value: '@example.com' },
                { field: 'name', operator: 'contains', value: 'sil' },
              ],
            },
          },
        ],
      },
      { field: 'consent.email', operator: 'eq', value: true },
      { not: { field: 'tags', operator: 'has_any', value: [5, 6] } },
      { field: 'event.email_opened', operator: 'count_lte', value: { count: 4, within_last: 'P60D' } },
      { field: 'data.address.country', operator: 'in', value: ['pt', 'gb', 'fr'] },
    ],
  },
];
